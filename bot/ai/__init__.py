"""The computer opponent: alpha-beta search over the rules in ``bot.jarmo``.

``choose_move(game, level=...)`` picks a move; ``analyse`` also returns the score, depth and
line. The search is CPU-bound (up to ``time_limit`` seconds), so the bot runs it in a
:class:`SearchPool` of worker processes (``search_pool(workers)``) rather than on the event
loop; the pool shortens each search when more games wait than there are workers.
"""

from ._api import (
    DEFAULT_LEVEL,
    LEVELS,
    SearchResult,
    analyse,
    choose_move,
    choose_move_from_dict,
    level_time_limit,
)
from ._pool import PoolClosed, SearchPool, SearchRequest, Worker, WorkerDied, fair_share
from ._process import ProcessWorker, search_pool

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "PoolClosed",
    "ProcessWorker",
    "SearchPool",
    "SearchRequest",
    "SearchResult",
    "Worker",
    "WorkerDied",
    "analyse",
    "choose_move",
    "choose_move_from_dict",
    "fair_share",
    "level_time_limit",
    "search_pool",
]
