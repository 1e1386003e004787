"""The Move button under a public board. Only its look and custom id live here (the message
builders need it); ``bot.cogs.grid`` answers the click."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.items import CustomIdSpec
from bot.cogs.words import discord_words
from bot.i18n import N_

# The button names the position it was posted under (its count of actions), so a click on an
# older board is told apart from one on the current board.
MOVE_ID = CustomIdSpec("move", game=int, plies=int)
EARLIER_MOVE_ID = CustomIdSpec("grid", game=int)  # on boards posted before the count was kept
MOVE_BUTTON_PREFIXES = (MOVE_ID.prefix, EARLIER_MOVE_ID.prefix)
MOVE_LABEL = N_("Move")


def move_button(game_id: int, plies: int, language: str | None = None) -> discord.ui.Button[Any]:
    """The button that opens the click grid of ``game_id`` for the player to move, under the
    position after ``plies`` actions (in a message's view, or in a grid's layout)."""
    return discord.ui.Button(
        label=discord_words(language).gettext(MOVE_LABEL),
        emoji="🎯",
        style=discord.ButtonStyle.primary,
        custom_id=MOVE_ID.format(game_id, plies),
    )


def move_view(game_id: int, plies: int, language: str | None = None) -> discord.ui.View:
    """A persistent view holding the Move button of ``game_id`` after ``plies`` actions."""
    view = discord.ui.View(timeout=None)
    view.add_item(move_button(game_id, plies, language))
    return view
