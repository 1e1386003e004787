"""The **Claim win on time** button. Only its look and custom id live here (the message builders
need it); ``bot.cogs.clock`` answers the click by ending the game on time."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs.items import CustomIdSpec
from bot.cogs.words import discord_words
from bot.i18n import N_

CLAIM_ID = CustomIdSpec("claimtime", game=int)
CLAIM_LABEL = N_("Claim win on time")


def claim_button(game_id: int, language: str | None = None) -> discord.ui.Button[Any]:
    """The button with which the waiting player of ``game_id`` ends it on time, once the
    opponent's time is out (anyone may see it; the use case refuses everyone else)."""
    return discord.ui.Button(
        label=discord_words(language).gettext(CLAIM_LABEL),
        emoji="⏰",
        style=discord.ButtonStyle.danger,
        custom_id=CLAIM_ID.format(game_id),
    )


def claim_view(game_id: int, language: str | None = None) -> discord.ui.View:
    """A persistent view holding the claim button of ``game_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(claim_button(game_id, language))
    return view
