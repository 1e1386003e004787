"""Static evaluation, in hundredths of a game point, from the side to move's point of view.

The terms follow the scoring rules (§5): what each side would score if the game ended now
(1 per piece on the board, 1 more per piece in the enemy camp), plus how close the other pieces
are to scoring the extra point (advancement), the means to bring pieces back (redeploy rights in
classic/jasir, reserve and guards in ludos), and a little for mobility and attacked enemy pieces.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.jarmo import Game
from bot.jarmo.board import ARCHER, GUARD, IN_ENEMY_CAMP, MARKED, POINT_COUNT, row_of

POINT = 100  # one game point

# By rows still to go before the enemy camp (4 = own camp, 1 = one step away). Steep near the
# camp because a piece one step away can cash in its extra point at once.
_ADVANCE_BY_DISTANCE = {4: 0, 3: 10, 2: 22, 1: 40, 0: 0}
ADVANCE = tuple(
    tuple(
        _ADVANCE_BY_DISTANCE[(4 - row_of(p)) if side == 0 else row_of(p)]
        for p in range(POINT_COUNT)
    )
    for side in (0, 1)
)

# classic: a captured piece that a marked piece in the camp can bring back (a redeploy puts a
# whole point back on the board)
REDEPLOY_RIGHT = 90
MARKED_RUNNER = 12  # classic: a marked piece on its way may later earn a redeploy
RESERVE_PIECE = 75  # ludos: a recovered piece, placeable at once
GUARD_RUNNER = 20  # ludos: a guard on its way may recover a captured piece
MOBILITY = 2  # per step onto an empty point
ATTACK = 6  # per enemy piece attacked
TEMPO = 8  # the side to move is a move ahead
MEMO_MAX = 200_000  # placement values kept per side; cleared when full


class Evaluator:
    """Evaluates positions of one game (one search) as the search walks it.

    The terms that depend only on where the pieces stand (points, advancement, mobility,
    attacks) are kept per side by the board mask, so a position met again, or a position
    whose one side has not moved, costs a lookup.
    """

    __slots__ = ("_game", "_guards", "_memo", "_reach")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._guards = game.rules.guards
        self._reach = tuple(
            tuple(sum(1 << q for q in row) for row in game.targets(side)) for side in (0, 1)
        )
        self._memo: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def evaluate(self) -> int:
        """The position's value for the side to move (positive = good for it)."""
        white = self._side_value(0)
        black = self._side_value(1)
        return (black - white if self._game.turn_index else white - black) + TEMPO

    def _side_value(self, s: int) -> int:
        game = self._game
        own, enemy = game.occupied(s), game.occupied(1 - s)
        board = own | enemy << POINT_COUNT
        memo = self._memo[s]
        value = memo.get(board)
        if value is None:
            if len(memo) > MEMO_MAX:
                memo.clear()
            value = memo[board] = self._placement(s, own, enemy)
        _, _, captured, reserve = game.counts(s)
        if self._guards:
            value += RESERVE_PIECE * reserve
        if captured:
            value += self._recovery(s, captured)
        return value

    def _placement(self, s: int, own: int, enemy: int) -> int:
        """Points on the board, advancement, mobility and attacks of side ``s``."""
        in_camp, advance, reach = IN_ENEMY_CAMP[s], ADVANCE[s], self._reach[s]
        empty = ~(own | enemy)
        value = mobility = attacks = 0
        for p in self._game.piece_points(s):
            value += POINT + advance[p]
            if in_camp[p]:
                value += POINT
                continue
            mobility += (reach[p] & empty).bit_count()
            attacks += (reach[p] & enemy).bit_count()
        return value + MOBILITY * mobility + ATTACK * attacks

    def _recovery(self, s: int, captured: int) -> int:
        """The means of side ``s`` to bring captured pieces back: pieces that may earn or hold
        a redeploy (classic/jasir) or recover a piece (ludos)."""
        kinds = self._game.kinds
        in_camp = IN_ENEMY_CAMP[s]
        marked_in_camp = runners = 0
        for p in self._game.piece_points(s):
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


def piece_value(owners: Sequence[int], kinds: Sequence[int], p: int) -> int:
    """What losing the piece on ``p`` costs its owner (for ordering captures, MVV-style), given
    the game's ``owners`` and ``kinds``."""
    s = owners[p] - 1
    value = POINT + ADVANCE[s][p]
    if IN_ENEMY_CAMP[s][p]:
        value += POINT
    if kinds[p] in (MARKED, GUARD):
        value += 15  # it carries a redeploy / recovery right
    return value
