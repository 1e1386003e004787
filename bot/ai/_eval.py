"""Static evaluation, in hundredths of a game point, from the side to move's point of view.

The terms follow the scoring rules (§5): a value for each piece by its side and point (a piece
scores 1, and 2 in the enemy camp; on the way, how close it is and how safe the point is), the
means to bring pieces back (redeploy rights in classic/jasir, reserve and guards in ludos),
mobility, attacked enemy pieces, defended own ones and the move. The weights are data
(``_weights.py``), fitted to self-play results by ``bench/tune.py``; ``_features.py`` lists a
position's terms one by one, for the fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from bot.jarmo import Game, Layout, Ruleset
from bot.jarmo.board import ARCHER, GUARD, IN_ENEMY_CAMP, MARKED, POINT_COUNT, row_of
from bot.jarmo.steps import points_of, side_steps

from ._weights import WEIGHTS

POINT: Final = 100  # one game point

# The weights' places in a ruleset's vector (``_weights.WEIGHTS``, fitted by bench/tune.py):
# one value per point for a White piece standing there and one for a Black piece (the board is
# not symmetric), then the terms below.
PLACE_WHITE: Final = 0
PLACE_BLACK: Final = POINT_COUNT
MOBILITY: Final = 2 * POINT_COUNT  # per empty point a piece outside the enemy camp can step to
ATTACK: Final = MOBILITY + 1  # per enemy piece it can take
DEFEND: Final = MOBILITY + 2  # per own piece it could recapture on
# classic/jasir: a captured piece that a marked piece in the camp can bring back (a redeploy
# puts a whole point back on the board); ludos: a recovered piece, placeable at once
REDEPLOY_RIGHT: Final = MOBILITY + 3
# per captured piece, a piece on its way that may later earn a redeploy (classic/jasir) or
# recover it (ludos, a guard)
RUNNER: Final = MOBILITY + 4
RESERVE_PIECE: Final = MOBILITY + 5  # ludos: a piece in the reserve
TEMPO: Final = MOBILITY + 6  # the side to move is a move ahead
WEIGHT_COUNT: Final = MOBILITY + 7
MEMO_MAX: Final = 400_000  # position values kept; cleared when full


class Evaluator:
    """Evaluates positions of one game (one search) as the search walks it, with the fitted
    weights of its ruleset unless given others (``weights``, laid out as in ``_weights.py``).

    A value is kept by the position's key, so a position met again costs a lookup. A new
    position adds up its pieces' placement (the point's value, mobility, attacks, defence),
    each kept by the state of the points the piece reaches. The memos belong to the game's
    rules and layout and outlive the search: the next move's search, in the same process, meets
    many of the same positions.
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
        "_weights",
    )

    def __init__(self, game: Game, weights: tuple[int, ...] | None = None) -> None:
        self._game = game
        self._guards = game.rules.guards
        # Live views of the game's state: read at every evaluation without a call.
        self._occupancy, self._kinds = game.occupancy, game.kinds
        self._captured, self._reserve = game.captured_counts, game.reserve_counts
        self._weights = weights if weights is not None else weights_of(game.rules)
        self._values, self._pieces = _memos(game.rules, game.layout, self._weights)

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
        weights = self._weights
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
                value += _fill_placement(weights, PLACE_WHITE + p, mask, memo, near)
        board = black | white << POINT_COUNT
        black_points = points_of(black)
        for p in black_points:
            mask, memo = black_pieces[p]
            near = board & mask
            try:
                value -= memo[near]
            except KeyError:
                value -= _fill_placement(weights, PLACE_BLACK + p, mask, memo, near)
        if self._guards:
            value += weights[RESERVE_PIECE] * (self._reserve[0] - self._reserve[1])
        white_lost, black_lost = self._captured
        if white_lost:
            value += self._recovery(0, white_lost, white_points)
        if black_lost:
            value -= self._recovery(1, black_lost, black_points)
        value = values[key] = (-value if side else value) + weights[TEMPO]
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
        weights = self._weights
        return weights[REDEPLOY_RIGHT] * min(marked_in_camp, captured) + weights[RUNNER] * min(
            runners, captured
        )


def weights_of(rules: Ruleset) -> tuple[int, ...]:
    """The evaluation weights of ``rules`` (fitted on the published board; other layouts, kept
    for old games only, use them too)."""
    return WEIGHTS[rules.name]


# Per point: the mask of the points a piece there reaches (own bits and enemy bits of the
# board), and its placement value by the state of those points.
_PiecePlacements = tuple[tuple[int, dict[int, int]], ...]
_Memos = tuple[dict[int, int], tuple[_PiecePlacements, _PiecePlacements]]


@cache
def _memos(rules: Ruleset, layout: Layout, weights: tuple[int, ...]) -> _Memos:
    """The evaluation memos of one ruleset, layout and weights: values by position key, and per
    side and point, a piece's placement by the state of the points it reaches."""
    white, black = side_steps(layout, rules.no_backwards)
    return {}, (_placements(white.targets), _placements(black.targets))


def _placements(targets: Sequence[Sequence[int]]) -> _PiecePlacements:
    return tuple((_mask(row) | _mask(row) << POINT_COUNT, {}) for row in targets)


def _mask(points: Sequence[int]) -> int:
    return sum(1 << p for p in points)


def _fill_placement(
    weights: tuple[int, ...], place: int, mask: int, memo: dict[int, int], near: int
) -> int:
    """The placement value of a piece (the weight at ``place`` for its side and point) when the
    points it reaches (``mask`` on the board) are ``near``: the point's own value, mobility,
    attacks and defence (a piece in the enemy camp reaches nothing). Remembered in ``memo``."""
    reach = mask & ((1 << POINT_COUNT) - 1)
    own, enemy = near & reach, near >> POINT_COUNT
    value = (
        weights[place]
        + weights[MOBILITY] * (reach & ~own & ~enemy).bit_count()
        + weights[ATTACK] * enemy.bit_count()
        + weights[DEFEND] * own.bit_count()
    )
    memo[near] = value
    return value


# For ordering captures only: by rows still to go before the enemy camp (4 = own camp).
_ADVANCE_BY_DISTANCE: Final = {4: 0, 3: 10, 2: 22, 1: 40, 0: 0}


def _piece_value(s: int, kind: int, p: int) -> int:
    value = POINT + _ADVANCE_BY_DISTANCE[(4 - row_of(p)) if s == 0 else row_of(p)]
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
