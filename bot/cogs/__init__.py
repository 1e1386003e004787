"""The Discord adapter: slash commands and buttons that parse, check and reply; the service
does the work."""

from bot.cogs.buttons import ChallengeButton, ResignButton, StopButton
from bot.cogs.clock import PauseButton
from bot.cogs.commands import JarmoCommands
from bot.cogs.stats import HistoryPicker, LeaderboardButton

DYNAMIC_ITEMS = (
    ChallengeButton,
    HistoryPicker,
    LeaderboardButton,
    PauseButton,
    ResignButton,
    StopButton,
)

__all__ = [
    "DYNAMIC_ITEMS",
    "ChallengeButton",
    "HistoryPicker",
    "JarmoCommands",
    "LeaderboardButton",
    "PauseButton",
    "ResignButton",
    "StopButton",
]
