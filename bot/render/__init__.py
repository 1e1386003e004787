"""Board images for Jarmo: a PNG of the current position and an animated GIF replay.

Every function is pure: it reads a game (or a :class:`~bot.jarmo.position.Position`, or a
player's ratings) and returns image bytes. Their words come in as an :class:`ImageWords` in
the reader's language (English if none). They are safe to call from several threads at once.
"""

from bot.render._api import render_board, render_position, render_replay
from bot.render._chart import render_rating_chart
from bot.render._result import OFF_BOARD_ENDS, OffBoardEnd, ResultBanner
from bot.render._review_graph import render_review_graph
from bot.render._table import (
    TableCell,
    TableRow,
    TableWording,
    halves,
    render_standings_table,
)
from bot.render._theme import Perspective
from bot.render._words import ENGLISH as ENGLISH_WORDS
from bot.render._words import ImageWords

__all__ = [
    "ENGLISH_WORDS",
    "OFF_BOARD_ENDS",
    "ImageWords",
    "OffBoardEnd",
    "Perspective",
    "ResultBanner",
    "TableCell",
    "TableRow",
    "TableWording",
    "halves",
    "render_board",
    "render_position",
    "render_rating_chart",
    "render_replay",
    "render_review_graph",
    "render_standings_table",
]
