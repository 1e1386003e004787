"""The Discord adapter: slash commands and buttons that parse, check and reply; the service
does the work."""

from bot.cogs.buttons import ChallengeButton, ResignButton, StopButton
from bot.cogs.commands import JarmoCommands

DYNAMIC_ITEMS = (ChallengeButton, ResignButton, StopButton)

__all__ = ["DYNAMIC_ITEMS", "ChallengeButton", "JarmoCommands", "ResignButton", "StopButton"]
