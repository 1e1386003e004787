"""The Discord adapter: one ``GroupCog`` per feature, all under ``/jarmo``, and the persistent
components; each parses and checks, calls the service, and replies. Failures are answered by
the command tree (``bot.cogs.tree``)."""

from discord.ext import commands

from bot.cogs.challenges import ChallengeButton, ChallengeCog
from bot.cogs.clock import ClockCog, PauseButton
from bot.cogs.grid import GridCell, MoveButton
from bot.cogs.play import PlayCog, ResignButton, StopButton
from bot.cogs.stats import HistoryPicker, LeaderboardButton, StatsCog
from bot.cogs.tree import JarmoTree

# In the order ``/jarmo`` lists their sub-commands.
FEATURES = (ChallengeCog, PlayCog, ClockCog, StatsCog)

DYNAMIC_ITEMS = (
    ChallengeButton,
    GridCell,
    HistoryPicker,
    LeaderboardButton,
    MoveButton,
    PauseButton,
    ResignButton,
    StopButton,
)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs")``): every feature's cog
    and the persistent components."""
    for feature in FEATURES:
        await bot.add_cog(feature())
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


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
    "ResignButton",
    "StatsCog",
    "StopButton",
    "setup",
]
