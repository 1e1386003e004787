"""Takebacks: ``/jarmo takeback`` asks to take back your last move; the opponent answers with
Accept or Decline, and an accepted takeback posts the board again as it was before the move.
Against the computer the move and its answer are taken back at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language
from bot.cogs.guards import place_of
from bot.cogs.items import JarmoItem, OfferIds, offer_button
from bot.cogs.move_offer import move_view
from bot.cogs.replies import actor_of, board_embed, only_pinging, your_move
from bot.cogs.words import discord_words, mention
from bot.service import Offer
from bot.service.takebacks import TakenBack

if TYPE_CHECKING:
    from bot.client import JarmoBot


class TakebackCommands(commands.Cog):
    """Taking back a move. ``/jarmo``'s command for it: a part of ``JarmoCog``
    (``bot.cogs.group``), never added on its own."""

    @app_commands.command()
    async def takeback(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Ask to take back your last move."""
        asked = await interaction.client.service.takebacks.ask(
            place_of(interaction), actor_of(interaction)
        )
        language = await channel_language(interaction)
        if isinstance(asked, TakenBack):  # against the computer: nobody to ask
            await interaction.response.send_message(**await taken_back_message(asked, language))
            return
        _ = discord_words(language).gettext
        text = _(
            "{player} asks to take back their last move. {opponent}, do you agree? (The request "
            "lapses with the next move.)"
        ).format(player=mention(asked.offered_by), opponent=mention(asked.answer_by))
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptTakeback(asked, language))
        view.add_item(DeclineTakeback(asked, language))
        await interaction.response.send_message(
            text, view=view, allowed_mentions=only_pinging(asked.answer_by)
        )


async def taken_back_message(taken: TakenBack, language: str) -> dict[str, Any]:
    """The board as it was before the moves taken back, saying so, for the player to move."""
    _ = discord_words(language).gettext
    text = _("Taken back at {player}'s request: {moves}. The game is as it was before.").format(
        player=mention(taken.asked_by), moves=", ".join(taken.moves)
    )
    embed, file = await board_embed(taken.board, text, language)
    turn = taken.board.human_to_move
    message: dict[str, Any] = {
        "content": your_move(turn, language),
        "embed": embed,
        "file": file,
        "allowed_mentions": only_pinging(turn if turn != taken.asked_by else None),
    }
    if turn is not None:
        message["view"] = move_view(taken.board.game.id, taken.board.game.engine.ply, language)
    return message


class AcceptTakeback(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=OfferIds("takeback-yes"),
):
    """The opponent agrees to take the asker's last move back."""

    what = "takeback"

    def __init__(self, offer: Offer, language: str | None = None) -> None:
        label = discord_words(language).gettext("Accept")
        super().__init__(offer_button(self.custom_id_spec, label, offer))
        self.offer = offer

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        taken = await interaction.client.service.takebacks.accept(
            place_of(interaction), actor_of(interaction), self.offer
        )
        await interaction.response.edit_message(view=None)
        language = await channel_language(interaction)
        await interaction.followup.send(**await taken_back_message(taken, language))


class DeclineTakeback(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=OfferIds("takeback-no"),
):
    """The opponent refuses: the move stands."""

    what = "takeback"

    def __init__(self, offer: Offer, language: str | None = None) -> None:
        label = discord_words(language).gettext("Decline")
        super().__init__(
            offer_button(self.custom_id_spec, label, offer, discord.ButtonStyle.secondary)
        )
        self.offer = offer

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        await interaction.client.service.takebacks.decline(
            place_of(interaction), actor_of(interaction), self.offer
        )
        _ = discord_words(await channel_language(interaction)).gettext
        declined = _("{player} declined: the move stands.").format(
            player=mention(self.offer.answer_by)
        )
        await interaction.response.edit_message(
            content=declined, view=None, allowed_mentions=only_pinging()
        )
