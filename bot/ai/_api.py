"""The public face of the engine: levels, ``choose_move``, ``analyse`` and the pool entry point."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.jarmo import Game
from bot.jarmo.codes import NOTATION

from ._search import Budget, Searcher

#: Each level is a depth cap, a node budget and a default thinking time. The node budget keeps
#: easy and medium the same strength on any machine; hard is bounded by time (2 s by default).
#: Every level varies its play by the seed (a game's own): easy by noise on every root score,
#: medium and hard by drawing among the moves within ``variety`` of the best, so that the same
#: moves by a person lead to different games.
_BUDGETS: dict[str, Budget] = {
    # One ply and a capture search, with up to 1.5 points of noise on every root score: it sees
    # what it can take and what hangs, but often prefers a worse move, so it can be beaten.
    "easy": Budget(max_depth=1, node_limit=2_000, time_limit=1.0, noise=150),
    # Two plies and the capture search: it sees its move, the answer and every exchange that
    # follows, but plans nothing (a few hundred nodes); any move within 0.3 points of the best.
    # Deeper, it plays almost as well as hard on this evaluation (whose extra depth buys
    # little), and the levels must stand clearly apart; it still beats easy nearly every game.
    "medium": Budget(max_depth=2, node_limit=25_000, time_limit=1.5, variety=30),
    # As deep as 2 s allow: typically 10+ plies on a mid-game position. A win counts as one
    # extra point only: hard keeps playing for the points that decide a match (rules §6)
    # where the lower levels settle for the win. It gives up at most 0.1 points for variety.
    "hard": Budget(max_depth=64, node_limit=None, time_limit=2.0, result_bonus=100, variety=10),
}
LEVELS: tuple[str, ...] = tuple(_BUDGETS)
DEFAULT_LEVEL = "medium"


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A search's answer: the canonical move, its score for the side to move (the expected
    point margin in hundredths of a game point; a finished game adds the level's result bonus,
    ±300 or ±100 for hard, for a win / loss),
    the depth completed, nodes, and the expected line of play (canonical moves, starting with
    ``move``)."""

    move: str
    score: int
    depth: int
    nodes: int
    pv: tuple[str, ...]


def analyse(
    game: Game,
    *,
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    time_limit: float | None = None,
    node_limit: int | None = None,
    vary: bool = True,
) -> SearchResult:
    """Search the position for the side to move and return the chosen move with its score.

    ``time_limit`` (seconds) replaces the level's thinking time; ``node_limit`` replaces its node
    budget (use it, not time, when the result must be reproducible). ``vary=False`` takes the
    best move found rather than one drawn within the level's margin (for analysis; easy's noise
    stays, it is that level's play). ``game`` is not changed. Raises ``ValueError`` for an
    unknown level, a bad limit or a finished game.
    """
    budget = _budget(level, time_limit, node_limit)
    if not vary:
        budget = replace(budget, variety=0)
    if game.over:
        raise ValueError("the game is over; there is no move to choose")
    found = Searcher(game.copy(), budget, seed).run()
    pv = tuple(NOTATION[move] for move in found.pv)  # a code carries its capture mark
    return SearchResult(pv[0], found.score, found.depth, found.nodes, pv)


def choose_move(
    game: Game,
    *,
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> str:
    """The computer's move for the side to move: a string from ``game.legal_moves()``.

    Deterministic for a given seed as long as the node budget, not the clock, ends the search;
    another seed may choose another move among those within the level's margin of the best.
    ``game`` is left untouched. Raises ``ValueError`` for an unknown level or a finished game.
    """
    return analyse(game, level=level, seed=seed, time_limit=time_limit, node_limit=node_limit).move


def choose_move_from_dict(
    data: dict[str, Any], level: str, seed: int, time_limit: float | None
) -> str:
    """``choose_move`` on ``Game.to_dict()`` output: plain data in, a string out, for a search
    in another process (the worker of :class:`bot.ai.SearchPool` calls it).

    Raises ``ValueError`` for malformed data, an unknown level or a finished game.
    """
    return choose_move(Game.from_dict(data), level=level, seed=seed, time_limit=time_limit)


def level_time_limit(level: str) -> float | None:
    """The level's own thinking time in seconds (a search may be given less), or ``None`` for
    no limit. Raises ``ValueError`` for an unknown level."""
    return _budget(level, None, None).time_limit


def _budget(level: str, time_limit: float | None, node_limit: int | None) -> Budget:
    try:
        base = _BUDGETS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}") from None
    if time_limit is not None and time_limit <= 0:
        raise ValueError("time_limit must be positive")
    if node_limit is not None and node_limit < 1:
        raise ValueError("node_limit must be at least 1")
    return replace(
        base,
        node_limit=node_limit if node_limit is not None else base.node_limit,
        time_limit=time_limit if time_limit is not None else base.time_limit,
    )
