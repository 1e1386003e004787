"""Console mode (``jarmo-bot play``): two players at one terminal, no Discord, no token."""

from bot.console._boards import BoardFolder
from bot.console._diagram import board_diagram
from bot.console._run import run_console
from bot.console._session import (
    PLACE,
    InputFn,
    OutputFn,
    UnplayableGame,
    play_console,
)
from bot.console._words import CONSOLE_LANGUAGES, console_language

__all__ = [
    "CONSOLE_LANGUAGES",
    "PLACE",
    "BoardFolder",
    "InputFn",
    "OutputFn",
    "UnplayableGame",
    "board_diagram",
    "console_language",
    "play_console",
    "run_console",
]
