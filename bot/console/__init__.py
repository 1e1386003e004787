"""Console mode (``jarmo-bot play``): two players at one terminal, no Discord, no token."""

from bot.console._diagram import board_diagram
from bot.console._run import run_console
from bot.console._session import PLACE, InputFn, OutputFn, play_console

__all__ = ["PLACE", "InputFn", "OutputFn", "board_diagram", "play_console", "run_console"]
