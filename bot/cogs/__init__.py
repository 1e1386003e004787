"""The Discord adapter: one ``GroupCog`` per feature, all under ``/jarmo``, and the persistent
components; each parses and checks, calls the service, and replies. Failures are answered by
the command tree (``bot.cogs.tree``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.cogs.challenges import ChallengeButton, ChallengeCog
from bot.cogs.clock import ClockCog, PauseButton
from bot.cogs.grid import GridCell, MoveButton
from bot.cogs.play import PlayCog, ResignButton, StopButton
from bot.cogs.rematch import RematchButton
from bot.cogs.review import ReviewButton, ReviewCog
from bot.cogs.servers import ServerCog
from bot.cogs.stats import HistoryPicker, LeaderboardButton, StatsCog
from bot.cogs.threads import ThreadCog
from bot.cogs.tournament import SignupButton, TournamentCog
from bot.cogs.tree import JarmoTree

if TYPE_CHECKING:
    from bot.client import JarmoBot

# In the order ``/jarmo`` lists their sub-commands.
FEATURES = (ChallengeCog, PlayCog, ClockCog, StatsCog, ReviewCog, ServerCog, TournamentCog)

DYNAMIC_ITEMS = (
    ChallengeButton,
    GridCell,
    HistoryPicker,
    LeaderboardButton,
    MoveButton,
    PauseButton,
    RematchButton,
    ResignButton,
    ReviewButton,
    SignupButton,
    StopButton,
)


async def setup(bot: JarmoBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs")``): every feature's cog
    and the persistent components."""
    await add_commands(bot)
    await bot.add_cog(ThreadCog(bot))  # a thread per match (no commands of its own)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def add_commands(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """Every feature's cog: all the slash commands, on any bot (the catalogue reads them)."""
    for feature in FEATURES:
        await bot.add_cog(feature())


__all__ = [
    "DYNAMIC_ITEMS",
    "FEATURES",
    "ChallengeButton",
    "ChallengeCog",
    "ClockCog",
    "GridCell",
    "HistoryPicker",
    "JarmoTree",
    "LeaderboardButton",
    "MoveButton",
    "PauseButton",
    "PlayCog",
    "RematchButton",
    "ResignButton",
    "ReviewButton",
    "ReviewCog",
    "ServerCog",
    "SignupButton",
    "StatsCog",
    "StopButton",
    "ThreadCog",
    "TournamentCog",
    "add_commands",
    "setup",
]
