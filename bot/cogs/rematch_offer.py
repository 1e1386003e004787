"""The Rematch button under the message that ends a match. Only its look and custom id live
here (the message builders need it); ``bot.cogs.rematch`` answers the click."""

from __future__ import annotations

import discord

from bot.cogs.items import CustomIdSpec
from bot.cogs.words import discord_words
from bot.i18n import N_

REMATCH_ID = CustomIdSpec("rematch", match=int)
REMATCH_LABEL = N_("Rematch")


def rematch_button(
    match_id: int, language: str | None = None
) -> discord.ui.Button[discord.ui.View]:
    """The button that offers the same match again, sides swapped."""
    return discord.ui.Button(
        label=discord_words(language).gettext(REMATCH_LABEL),
        style=discord.ButtonStyle.primary,
        custom_id=REMATCH_ID.format(match_id),
    )


def rematch_view(match_id: int, language: str | None = None) -> discord.ui.View:
    """A persistent view holding the Rematch button of ``match_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(rematch_button(match_id, language))
    return view
