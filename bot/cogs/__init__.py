"""The Discord adapter: one ``GroupCog`` for ``/jarmo`` made of every feature's commands, the
cogs that post on their own (announcements, threads), and the persistent components; each
parses and checks, calls the service, and replies. Failures are answered by the command tree
(``bot.cogs.tree``). ``bot.load_extension("bot.cogs")`` adds them all, and unloading or
reloading the extension takes them all away (or back) cleanly."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from discord.ext import commands

from bot.cogs.announcing import Announcer
from bot.cogs.challenges import ChallengeButton
from bot.cogs.clock import ClaimWinButton, PauseButton
from bot.cogs.games import GamesPageButton
from bot.cogs.grid import EarlierMoveButton, GridCell, MoveButton
from bot.cogs.group import FEATURES, GROUP_NAME, JarmoCog
from bot.cogs.inflight import InFlight
from bot.cogs.play import ResignButton, StopButton
from bot.cogs.publishing import publish_if_changed
from bot.cogs.rematch import RematchButton
from bot.cogs.review import ReviewButton
from bot.cogs.stats import HistoryPicker, LeaderboardButton
from bot.cogs.takebacks import AcceptTakeback, DeclineTakeback
from bot.cogs.threads import ThreadCog
from bot.cogs.tournaments import SignupButton, attach_host
from bot.cogs.translator import CatalogueTranslator
from bot.cogs.tree import JarmoTree
from bot.cogs.watching import PlayLiveButton

if TYPE_CHECKING:
    from bot.client import JarmoBot

DYNAMIC_ITEMS = (
    AcceptTakeback,
    ChallengeButton,
    ClaimWinButton,
    GamesPageButton,
    DeclineTakeback,
    GridCell,
    HistoryPicker,
    LeaderboardButton,
    MoveButton,
    EarlierMoveButton,
    PauseButton,
    PlayLiveButton,
    RematchButton,
    ResignButton,
    ReviewButton,
    SignupButton,
    StopButton,
)


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs")``): the ``/jarmo``
    commands and the persistent components; on a ``JarmoBot`` that plays, also the cogs that
    post on their own, which start their background jobs as they load."""
    await add_commands(bot)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    if getattr(bot, "serving", False):  # any other bot only reads the commands
        player = cast("JarmoBot", bot)
        attach_host(player)  # before any job or command can start a tournament's matches
        await bot.add_cog(ThreadCog(player))  # a thread per match (no commands of its own)
        await bot.add_cog(Announcer(player))


async def teardown(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """Unloading the extension: discord.py removes its cogs (stopping their jobs); the
    persistent components go too, so that a reload registers the new ones alone."""
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)


async def add_commands(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """The ``/jarmo`` cog, with all the slash commands, on any bot (the catalogue reads them)."""
    await bot.add_cog(JarmoCog())


__all__ = [
    "DYNAMIC_ITEMS",
    "FEATURES",
    "GROUP_NAME",
    "AcceptTakeback",
    "Announcer",
    "CatalogueTranslator",
    "ChallengeButton",
    "ClaimWinButton",
    "DeclineTakeback",
    "GamesPageButton",
    "GridCell",
    "HistoryPicker",
    "InFlight",
    "JarmoCog",
    "JarmoTree",
    "LeaderboardButton",
    "MoveButton",
    "PauseButton",
    "PlayLiveButton",
    "RematchButton",
    "ResignButton",
    "ReviewButton",
    "SignupButton",
    "StopButton",
    "ThreadCog",
    "add_commands",
    "publish_if_changed",
    "setup",
    "teardown",
]
