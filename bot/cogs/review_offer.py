"""The Review button under the message that ends a game. Only its look and custom id live here
(the message builders need it); ``bot.cogs.review`` answers the click."""

from __future__ import annotations

import discord

from bot.cogs.items import CustomIdSpec
from bot.cogs.words import discord_words
from bot.i18n import N_

REVIEW_ID = CustomIdSpec("review", game=int)
REVIEW_LABEL = N_("Review")


def review_button(game_id: int, language: str | None = None) -> discord.ui.Button[discord.ui.View]:
    """The button that reviews the finished game ``game_id``."""
    return discord.ui.Button(
        label=discord_words(language).gettext(REVIEW_LABEL),
        style=discord.ButtonStyle.secondary,
        custom_id=REVIEW_ID.format(game_id),
    )
