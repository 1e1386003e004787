"""The Move button under a public board. Only its look and custom id live here (the message
builders need it); ``bot.cogs.grid`` answers the click with the click grid."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.items import CustomIdSpec
from bot.cogs.words import discord_words
from bot.i18n import N_

MOVE_ID = CustomIdSpec("grid", game=int)
MOVE_BUTTON_PREFIX = MOVE_ID.prefix  # the Move button's custom id, before the game's id
MOVE_LABEL = N_("Move")


def move_button(game_id: int, language: str | None = None) -> discord.ui.Button[Any]:
    """The button that opens the click grid of ``game_id`` for the player to move (in a
    message's view, or in a grid's layout)."""
    return discord.ui.Button(
        label=discord_words(language).gettext(MOVE_LABEL),
        emoji="🎯",
        style=discord.ButtonStyle.primary,
        custom_id=MOVE_ID.format(game_id),
    )


def move_view(game_id: int, language: str | None = None) -> discord.ui.View:
    """A persistent view holding the Move button of ``game_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(move_button(game_id, language))
    return view
