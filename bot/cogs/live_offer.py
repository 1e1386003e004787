"""What a public board shows of the live board: how many watch, and the **Play live** button
that opens the game in Discord's Activity. Their look, custom id and what a board shows live
here (the message builders need them); ``bot.cogs.watching`` answers the click."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.items import CustomIdSpec
from bot.cogs.words import discord_words
from bot.i18n import N_
from bot.service import Report

if TYPE_CHECKING:
    from bot.client import JarmoBot

PLAY_LIVE_ID = CustomIdSpec("live", game=int)
PLAY_LIVE_LABEL = N_("Play live")


@dataclass(frozen=True, slots=True)
class LiveBoard:
    """The live board as a board message shows it: ``watchers`` watching the game, and
    whether the message offers the Activity (``play_live``)."""

    watchers: int = 0
    play_live: bool = False


def watchers_line(count: int, language: str | None = None) -> str:
    """'👁 3 watching', for a board's footer."""
    words = discord_words(language)
    return "👁 " + words.ngettext("{count} watching", "{count} watching", count).format(count=count)


def play_live_button(game_id: int, language: str | None = None) -> discord.ui.Button[Any]:
    """The button that opens ``game_id`` in the Activity, in the channel it is clicked in."""
    return discord.ui.Button(
        label=discord_words(language).gettext(PLAY_LIVE_LABEL),
        emoji="📺",
        style=discord.ButtonStyle.secondary,
        custom_id=PLAY_LIVE_ID.format(game_id),
    )


async def live_board(bot: JarmoBot, report: Report) -> LiveBoard | None:
    """What the board message of ``report`` shows of the live board: nothing (and nothing
    asked) where the bot serves none or the server turned watching off."""
    web = bot.config.web
    if not web.enabled:
        return None
    shown = report.next_board or report.board
    if not (await bot.service.servers.settings(shown.game.guild_id)).watching:
        return None
    watchers = await bot.service.spectators.count(shown.game.id)
    return LiveBoard(watchers, play_live=web.activity_ready)
