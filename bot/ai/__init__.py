"""The computer opponent: alpha-beta search over the rules in ``bot.jarmo``.

``choose_move(game, level=...)`` picks a move; ``analyse`` also returns the score, depth and
line. The search is CPU-bound (up to ``time_limit`` seconds), so the bot runs
``choose_move_from_dict`` in a process pool rather than on the event loop.
"""

from ._api import (
    DEFAULT_LEVEL,
    LEVELS,
    SearchResult,
    analyse,
    choose_move,
    choose_move_from_dict,
)

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "SearchResult",
    "analyse",
    "choose_move",
    "choose_move_from_dict",
]
