"""Static evaluation, in hundredths of a game point, from the side to move's point of view.

The terms follow the scoring rules (§5): what each side would score if the game ended now
(1 per piece on the board, 1 more per piece in the enemy camp), plus how close the other pieces
are to scoring the extra point (advancement), the means to bring pieces back (redeploy rights in
classic/jasir, reserve and guards in ludos), and a little for mobility and attacked enemy pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from bot.jarmo import Game, Layout, Ruleset
from bot.jarmo.board import ARCHER, GUARD, IN_ENEMY_CAMP, MARKED, POINT_COUNT, row_of
from bot.jarmo.steps import points_of, side_steps

POINT: Final = 100  # one game point

# By rows still to go before the enemy camp (4 = own camp, 1 = one step away). Steep near the
# camp because a piece one step away can cash in its extra point at once.
_ADVANCE_BY_DISTANCE: Final = {4: 0, 3: 10, 2: 22, 1: 40, 0: 0}
ADVANCE: Final = tuple(
    tuple(
        _ADVANCE_BY_DISTANCE[(4 - row_of(p)) if side == 0 else row_of(p)]
        for p in range(POINT_COUNT)
    )
    for side in (0, 1)
)

# classic: a captured piece that a marked piece in the camp can bring back (a redeploy puts a
# whole point back on the board)
REDEPLOY_RIGHT: Final = 90
MARKED_RUNNER: Final = 12  # classic: a marked piece on its way may later earn a redeploy
RESERVE_PIECE: Final = 75  # ludos: a recovered piece, placeable at once
GUARD_RUNNER: Final = 20  # ludos: a guard on its way may recover a captured piece
MOBILITY: Final = 2  # per step onto an empty point
ATTACK: Final = 6  # per enemy piece attacked
TEMPO: Final = 8  # the side to move is a move ahead
MEMO_MAX: Final = 400_000  # position values kept; cleared when full


class Evaluator:
    """Evaluates positions of one game (one search) as the search walks it.

    A value is kept by the position's key, so a position met again costs a lookup. A new
    position adds up its pieces' placement (points, advancement, mobility, attacks), each kept
    by the state of the points the piece reaches. The memos belong to the game's rules and
    layout and outlive the search: the next move's search, in the same process, meets many of
    the same positions.
    """

    __slots__ = (
        "_captured",
        "_game",
        "_guards",
        "_kinds",
        "_occupancy",
        "_pieces",
        "_reserve",
        "_values",
    )

    def __init__(self, game: Game) -> None:
        self._game = game
        self._guards = game.rules.guards
        # Live views of the game's state: read at every evaluation without a call.
        self._occupancy, self._kinds = game.occupancy, game.kinds
        self._captured, self._reserve = game.captured_counts, game.reserve_counts
        self._values, self._pieces = _memos(game.rules, game.layout)

    def evaluate(self) -> int:
        """The position's value for the side to move (positive = good for it)."""
        game = self._game
        key = game.key
        value = self._values.get(key)
        if value is None:
            value = self._fresh(key, game.turn_index)
        return value

    def _fresh(self, key: int, side: int) -> int:
        """Works out and keeps the value of the position with ``key`` (``side`` to move)."""
        values = self._values
        if len(values) > MEMO_MAX:
            values.clear()
        white, black = self._occupancy
        white_pieces, black_pieces = self._pieces
        board = white | black << POINT_COUNT
        white_points = points_of(white)
        value = 0
        for p in white_points:
            mask, memo = white_pieces[p]
            near = board & mask
            try:
                value += memo[near]
            except KeyError:
                value += _fill_placement(0, p, mask, memo, near)
        board = black | white << POINT_COUNT
        black_points = points_of(black)
        for p in black_points:
            mask, memo = black_pieces[p]
            near = board & mask
            try:
                value -= memo[near]
            except KeyError:
                value -= _fill_placement(1, p, mask, memo, near)
        if self._guards:
            value += RESERVE_PIECE * (self._reserve[0] - self._reserve[1])
        white_lost, black_lost = self._captured
        if white_lost:
            value += self._recovery(0, white_lost, white_points)
        if black_lost:
            value -= self._recovery(1, black_lost, black_points)
        value = values[key] = (-value if side else value) + TEMPO
        return value

    def _recovery(self, s: int, captured: int, points: tuple[int, ...]) -> int:
        """The means of side ``s`` (its pieces on ``points``) to bring captured pieces back:
        pieces that may earn or hold a redeploy (classic/jasir) or recover a piece (ludos)."""
        kinds = self._kinds
        in_camp = IN_ENEMY_CAMP[s]
        marked_in_camp = runners = 0
        for p in points:
            if kinds[p] == ARCHER:
                continue
            if not in_camp[p]:
                runners += 1
            elif kinds[p] == MARKED:
                marked_in_camp += 1
        if self._guards:
            return GUARD_RUNNER * min(runners, captured)
        return REDEPLOY_RIGHT * min(marked_in_camp, captured) + MARKED_RUNNER * min(
            runners, captured
        )


# Per point: the mask of the points a piece there reaches (own bits and enemy bits of the
# board), and its placement value by the state of those points.
_PiecePlacements = tuple[tuple[int, dict[int, int]], ...]
_Memos = tuple[dict[int, int], tuple[_PiecePlacements, _PiecePlacements]]


@cache
def _memos(rules: Ruleset, layout: Layout) -> _Memos:
    """The evaluation memos of one ruleset and layout: values by position key, and per side
    and point, a piece's placement by the state of the points it reaches."""
    white, black = side_steps(layout, rules.no_backwards)
    return {}, (_placements(white.targets), _placements(black.targets))


def _placements(targets: Sequence[Sequence[int]]) -> _PiecePlacements:
    return tuple((_mask(row) | _mask(row) << POINT_COUNT, {}) for row in targets)


def _mask(points: Sequence[int]) -> int:
    return sum(1 << p for p in points)


def _fill_placement(s: int, p: int, mask: int, memo: dict[int, int], near: int) -> int:
    """The placement value of side ``s``'s piece on ``p`` when the points it reaches (``mask``
    on the board) are ``near``: points, advancement, and unless it is in the enemy camp,
    mobility and attacks. Remembered in ``memo``."""
    value = POINT + ADVANCE[s][p]
    if IN_ENEMY_CAMP[s][p]:
        value += POINT
    else:
        reach = mask & ((1 << POINT_COUNT) - 1)
        own, enemy = near & reach, near >> POINT_COUNT
        value += MOBILITY * (reach & ~own & ~enemy).bit_count() + ATTACK * enemy.bit_count()
    memo[near] = value
    return value


def _piece_value(s: int, kind: int, p: int) -> int:
    value = POINT + ADVANCE[s][p]
    if IN_ENEMY_CAMP[s][p]:
        value += POINT
    if kind in (MARKED, GUARD):
        value += 15  # it carries a redeploy / recovery right
    return value


#: PIECE_VALUES[owner][kind][p]: what losing the piece on ``p`` costs its owner (for ordering
#: captures, MVV-style), indexed like the game's ``owners`` and ``kinds`` (owner 0, an empty
#: point, is worth nothing).
PIECE_VALUES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = (
    ((0,) * POINT_COUNT,) * 3,
    *(
        tuple(tuple(_piece_value(s, kind, p) for p in range(POINT_COUNT)) for kind in range(3))
        for s in (0, 1)
    ),
)
