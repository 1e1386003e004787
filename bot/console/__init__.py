"""Console mode (``jarmo-bot play``): two players at one terminal, no Discord, no token."""

from bot.console._boards import LATEST, BoardFolder, picture_name
from bot.console._diagram import board_diagram, piece_symbol
from bot.console._run import run_console
from bot.console._session import PLACE, PLAYER_IDS, InputFn, OutputFn, play_console

__all__ = [
    "LATEST",
    "PLACE",
    "PLAYER_IDS",
    "BoardFolder",
    "InputFn",
    "OutputFn",
    "board_diagram",
    "picture_name",
    "piece_symbol",
    "play_console",
    "run_console",
]
