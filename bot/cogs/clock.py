"""The correspondence clock in Discord: ``/jarmo pause`` and ``/jarmo resume``, the
persistent buttons that accept a pause and claim a win on time, the ``time_per_move``
autocomplete, and the messages for the deadline scheduler's reminders and timeouts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language
from bot.cogs.claim_offer import CLAIM_ID, claim_button, claim_view
from bot.cogs.guards import place_of
from bot.cogs.items import JarmoItem, OfferIds, offer_button, single
from bot.cogs.replies import (
    actor_of,
    board_embed,
    only_pinging,
    report_message,
    your_move,
)
from bot.cogs.words import discord_voice, discord_words, mention, reader_language
from bot.service import PauseOffer, Refusal
from bot.service.deadlines import DeadlineEvent
from bot.service.timecontrol import SUGGESTIONS, TimeControlError, format_time_per_move
from bot.service.timecontrol import parse_time_per_move as _parse
from bot.words import clock_line, pause_offer_text, position_line, reminder_text

if TYPE_CHECKING:
    from bot.client import JarmoBot


class ClockCommands(commands.Cog):
    """The correspondence clock of this channel's game. ``/jarmo``'s commands for it: a part of
    ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    @app_commands.command()
    async def pause(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Offer to stop this game's clock"""
        offer = await interaction.client.service.clocks.offer_pause(
            place_of(interaction), actor_of(interaction)
        )
        language = await channel_language(interaction)
        await interaction.response.send_message(
            pause_offer_text(offer, discord_voice(language)),
            view=single(PauseButton(offer, language)),
            allowed_mentions=only_pinging(offer.answer_by),
        )

    @app_commands.command()
    async def resume(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Restart the paused clock (either player)"""
        clocks = interaction.client.service.clocks
        view = await clocks.resume(place_of(interaction), actor_of(interaction))
        language = await channel_language(interaction)
        restarted = discord_words(language).gettext("{player} restarted the clock.")
        text = position_line(view, discord_voice(language))
        embed, file = await board_embed(
            view, f"{restarted.format(player=mention(interaction.user.id))}\n{text}", language
        )
        turn = view.turn_user_id
        await interaction.response.send_message(
            your_move(turn, language),
            embed=embed,
            file=file,
            allowed_mentions=only_pinging(turn),
        )


class PauseButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=OfferIds("pause"),
):
    """The opponent's answer to an offer to pause the clock."""

    what = "pause"

    def __init__(self, offer: PauseOffer, language: str | None = None) -> None:
        label = discord_words(language).gettext("Agree to pause")
        super().__init__(offer_button(self.custom_id_spec, label, offer))
        self.offer = offer

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        view = await interaction.client.service.clocks.accept_pause(
            place_of(interaction), actor_of(interaction), self.offer
        )
        await interaction.response.edit_message(view=None)
        language = await channel_language(interaction)
        _ = discord_words(language).gettext
        text = clock_line(view, discord_voice(language)) or _("The clock is paused.")
        agreed = _("The players agreed to pause the clock.")
        embed, file = await board_embed(view, f"{agreed}\n{text}", language)
        await interaction.followup.send(embed=embed, file=file, allowed_mentions=only_pinging())


class ClaimWinButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=CLAIM_ID,
):
    """The waiting player's claim of the win once the opponent's time is out: where no
    scheduler posts, nothing else ends the game on time. The ending is the click's public
    answer."""

    what = "claim on time"

    def __init__(self, game_id: int, language: str | None = None) -> None:
        super().__init__(claim_button(game_id, language))
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        report = await interaction.client.service.clocks.claim_win_on_time(
            place_of(interaction), actor_of(interaction), game_id=self.game_id
        )
        await interaction.response.send_message(
            **await report_message(report, await channel_language(interaction))
        )


async def offer_claim(interaction: discord.Interaction[JarmoBot]) -> bool:
    """Answer a player who acted out of turn privately with the claim button if the opponent's
    time is out; whether it did (if not, the caller's refusal stands)."""
    service = interaction.client.service
    try:
        record = await service.play.player_game(place_of(interaction), actor_of(interaction))
    except Refusal:
        return False
    waiting = record.player_id(record.engine.turn) != interaction.user.id
    if not (waiting and service.clocks.time_is_out(record)):
        return False
    language = reader_language(interaction)
    text = discord_words(language).gettext("Your opponent's time ran out. You can claim the win.")
    view = claim_view(record.id, language)
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)
    return True


def time_per_move_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``time_per_move``: what was typed (if it is a valid limit), then the
    usual limits that start with it, or all of them."""
    typed = current.strip().lower()
    values = [value for value in SUGGESTIONS if value.startswith(typed)] or list(SUGGESTIONS)
    try:
        canonical = format_time_per_move(_parse(typed)) if typed else None
    except TimeControlError:
        canonical = None
    if canonical is not None and canonical not in values:
        values.insert(0, canonical)
    return [app_commands.Choice(name=value, value=value) for value in values[:25]]


async def deadline_message(event: DeadlineEvent, language: str | None = None) -> dict[str, Any]:
    """Keyword arguments for the channel message that announces a reminder or a timeout."""
    if event.report is not None:
        return await report_message(event.report, language)
    return {
        "content": reminder_text(event.user_id, event.deadline_at, discord_voice(language)),
        "allowed_mentions": only_pinging(event.user_id if event.pinged else None),
    }
