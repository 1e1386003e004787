"""Playing a game: moves, the board, hints, resigning, stopping, standings, the rules card and
aborting, with the buttons that confirm a resignation and accept an offer to stop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language
from bot.cogs.claim_offer import claim_button
from bot.cogs.clock import offer_claim
from bot.cogs.guards import place_of
from bot.cogs.items import CustomIdSpec, JarmoItem, OfferIds, offer_button, single
from bot.cogs.live_offer import live_board
from bot.cogs.move_offer import move_view
from bot.cogs.pinging import tell_if_dm_refused
from bot.cogs.replies import (
    EMBED_COLOUR,
    actor_of,
    answer_in_time,
    board_embed,
    computer_answers,
    only_pinging,
    report_message,
)
from bot.cogs.rules import rules_embed, start_image
from bot.cogs.transformers import MoveTransformer, PointTransformer
from bot.cogs.tree import Unwelcome
from bot.cogs.words import (
    discord_voice,
    discord_words,
    mention,
    picture_words,
    reader_language,
)
from bot.i18n import N_
from bot.jarmo import Action
from bot.service import NotYourTurn, Offer, Report
from bot.service.models import DamagedGameAborted
from bot.words import position_line, standings_text
from bot.words.descriptions import start_description

if TYPE_CHECKING:
    from bot.client import JarmoBot


class PlayCommands(commands.Cog):
    """The game in this channel. ``/jarmo``'s commands for it: a part of
    ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    @app_commands.command()
    @app_commands.describe(move="Your move, e.g. A1-C2")
    async def move(
        self,
        interaction: discord.Interaction[JarmoBot],
        move: app_commands.Transform[Action, MoveTransformer],
    ) -> None:
        """Make a move in this channel's game"""
        played = interaction.client.service.play.move(
            place_of(interaction), actor_of(interaction), move
        )
        await _answer_action(interaction, played)

    @app_commands.command()
    @app_commands.describe(point="An empty point of your camp (row 1 or 5)")
    async def redeploy(
        self,
        interaction: discord.Interaction[JarmoBot],
        point: app_commands.Transform[str, PointTransformer],
    ) -> None:
        """Bring a lost piece back, or place a reserve piece"""
        played = interaction.client.service.play.redeploy(
            place_of(interaction), actor_of(interaction), point
        )
        await _answer_action(interaction, played)

    @app_commands.command()
    @app_commands.describe(private="Only you see it (from your side if you play)")
    async def board(
        self, interaction: discord.Interaction[JarmoBot], private: bool = False
    ) -> None:
        """Show the position of this channel's game"""
        shown = await interaction.client.service.play.board(
            place_of(interaction), viewer_id=interaction.user.id if private else None
        )
        language = reader_language(interaction) if private else await channel_language(interaction)
        text = position_line(shown, discord_voice(language))
        embed, file = await board_embed(shown, text, language)
        extra: dict[str, Any] = {}
        if shown.human_to_move is not None:
            extra["view"] = move_view(shown.game.id, shown.game.engine.ply, language)
        if interaction.client.service.clocks.time_is_out(shown.game):
            view = extra.setdefault("view", discord.ui.View(timeout=None))
            view.add_item(claim_button(shown.game.id, language))
        await interaction.response.send_message(
            embed=embed, file=file, ephemeral=private, allowed_mentions=only_pinging(), **extra
        )

    @app_commands.command()
    async def hint(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """A hint from the computer, in a game against it"""
        computer = interaction.client.computer
        # Cheap checks first, so a refusal is answered directly; the search itself may wait in
        # the computer's queue for longer than Discord's 3 s, so defer before it.
        await computer.check_hint(place_of(interaction), actor_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        move = await computer.hint(place_of(interaction), actor_of(interaction))
        _ = discord_words(reader_language(interaction)).gettext
        await interaction.followup.send(
            _("Try **{move}** (`/jarmo move {move}`).").format(move=move), ephemeral=True
        )

    @app_commands.command()
    async def resign(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Resign this game and the rest of the match"""
        record = await interaction.client.service.play.player_game(
            place_of(interaction), actor_of(interaction)
        )
        language = reader_language(interaction)
        _ = discord_words(language).gettext
        await interaction.response.send_message(
            _("Resign? You lose this game and the rest of the match goes to your opponent."),
            view=single(ResignButton(record.id, interaction.user.id, language)),
            ephemeral=True,
        )

    @app_commands.command()
    async def stop(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Offer to end this game now, scored as it stands"""
        offer = await interaction.client.service.play.offer_stop(
            place_of(interaction), actor_of(interaction)
        )
        language = await channel_language(interaction)
        _ = discord_words(language).gettext
        text = _(
            "{player} offers to end this game here, scored as it stands. {opponent}, do you "
            "agree? (The offer lapses with the next move.)"
        ).format(player=mention(offer.offered_by), opponent=mention(offer.answer_by))
        await interaction.response.send_message(
            text,
            view=single(StopButton(offer, language)),
            allowed_mentions=only_pinging(offer.answer_by),
        )

    @app_commands.command()
    async def standings(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """The score of this channel's current or last match"""
        standings = await interaction.client.service.standings.current(place_of(interaction))
        language = await channel_language(interaction)
        embed = discord.Embed(
            title=discord_words(language).gettext("Match standings"),
            colour=EMBED_COLOUR,
            description=standings_text(standings, discord_voice(language)),
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=only_pinging())

    @app_commands.command()
    async def rules(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """How to play Jarmo (only you see it)"""
        language = reader_language(interaction)
        image = await asyncio.to_thread(start_image, "classic", picture_words(language))
        file = discord.File(
            io.BytesIO(image),
            filename="start.png",
            description=start_description(discord_voice(language)),
        )
        # Servers have no move limit of their own: every game gets the bot's configured one.
        embed = rules_embed(interaction.client.config.max_plies, language)
        embed.set_image(url="attachment://start.png")
        await interaction.response.send_message(embed=embed, file=file, ephemeral=True)

    @app_commands.command()
    async def abort(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """End a stuck game and its match unscored (moderators)"""
        can_manage = bool(interaction.permissions.manage_channels)
        report = await interaction.client.service.play.abort(
            place_of(interaction), actor_of(interaction), can_manage=can_manage
        )
        language = await channel_language(interaction)
        _ = discord_words(language).gettext
        moderator = mention(interaction.user.id)
        if isinstance(report, DamagedGameAborted):
            await interaction.response.send_message(
                _(
                    "The damaged game was ended by {moderator}; nothing counts. Its record was "
                    "kept aside for the bot's operator. A new game can start here with "
                    "/jarmo challenge."
                ).format(moderator=moderator),
                allowed_mentions=only_pinging(),
            )
            return
        message = await report_message(report, language)
        message["content"] = _("Game aborted by {moderator}.").format(moderator=moderator)
        message["allowed_mentions"] = only_pinging()
        await interaction.response.send_message(**message)


async def _answer_action(
    interaction: discord.Interaction[JarmoBot], played: Awaitable[Report]
) -> None:
    """Answer a typed action with its board, then let the computer reply; a waiting player
    whose opponent ran out of time is offered the claim instead of the not-your-turn refusal."""
    try:
        report = await answer_in_time(interaction, _with_message(interaction, played))
    except NotYourTurn:
        if await offer_claim(interaction):
            return
        raise
    if report.dm_refused:
        await tell_if_dm_refused(interaction)
    await computer_answers(interaction, report)


async def _with_message(
    interaction: discord.Interaction[JarmoBot], played: Awaitable[Report]
) -> tuple[Report, dict[str, Any]]:
    """The report of a move and the public message that shows it."""
    report = await played
    language = await channel_language(interaction)
    live = await live_board(interaction.client, report)
    return report, await report_message(report, language, live=live)


class ResignButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=CustomIdSpec("resign", game=int, user=int),
):
    """The confirmation under a (private) resign prompt."""

    what = "resign"

    def __init__(self, game_id: int, user_id: int, language: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=discord_words(language).gettext("Yes, resign the match"),
                style=discord.ButtonStyle.danger,
                custom_id=self.custom_id_spec.format(game_id, user_id),
            )
        )
        self.game_id = game_id
        self.user_id = user_id

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        if interaction.user.id != self.user_id:
            raise Unwelcome(N_("This button is not for you. Use /jarmo resign yourself."))
        report = await interaction.client.service.play.resign(
            place_of(interaction), actor_of(interaction), game_id=self.game_id
        )
        resigned = discord_words(reader_language(interaction)).gettext("You resigned.")
        await interaction.response.edit_message(content=resigned, view=None)
        await interaction.followup.send(
            **await report_message(report, await channel_language(interaction))
        )


class StopButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=OfferIds("stop"),
):
    """The opponent's answer to an offer to end the game as it stands."""

    what = "stop"

    def __init__(self, offer: Offer, language: str | None = None) -> None:
        label = discord_words(language).gettext("Agree to stop here")
        super().__init__(offer_button(self.custom_id_spec, label, offer))
        self.offer = offer

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        report = await interaction.client.service.play.accept_stop(
            place_of(interaction), actor_of(interaction), self.offer
        )
        await interaction.response.edit_message(view=None)
        await interaction.followup.send(
            **await report_message(report, await channel_language(interaction))
        )
