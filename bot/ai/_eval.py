"""Static evaluation, in hundredths of a game point, from the side to move's point of view.

The terms follow the scoring rules (§5): what each side would score if the game ended now
(1 per piece on the board, 1 more per piece in the enemy camp), plus how close the other pieces
are to scoring the extra point (advancement), the means to bring pieces back (redeploy rights in
classic/jasir, reserve and guards in ludos), and a little for mobility and attacked enemy pieces.
"""

from __future__ import annotations

from bot.jarmo.board import IN_ENEMY_CAMP, POINT_COUNT, row_of

from ._state import ARCHER, GUARD, MARKED, State

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


def evaluate(st: State) -> int:
    """The position's value for the side to move (positive = good for it)."""
    white = _side_value(st, 0)
    black = _side_value(st, 1)
    return (white - black if st.side == 0 else black - white) + TEMPO


def _side_value(st: State, s: int) -> int:
    owner, kind = st.owner, st.kind
    in_camp = IN_ENEMY_CAMP[s]
    advance = ADVANCE[s]
    targets = st.targets[s]
    enemy = 2 - s  # owner code of the other side
    value = POINT * (st.on_board[s] + st.in_camp[s])
    captured = st.captured[s]
    marked_in_camp = runners = mobility = attacks = 0
    for p in st.pieces[s]:
        value += advance[p]
        k = kind[p]
        if in_camp[p]:
            if k == MARKED:
                marked_in_camp += 1
            continue
        if k != ARCHER:
            runners += 1
        for q in targets[p]:
            o = owner[q]
            if o == 0:
                mobility += 1
            elif o == enemy:
                attacks += 1
    value += MOBILITY * mobility + ATTACK * attacks
    if st.guards:
        value += RESERVE_PIECE * st.reserve[s]
        if captured:
            value += GUARD_RUNNER * min(runners, captured)
    elif captured:
        value += REDEPLOY_RIGHT * min(marked_in_camp, captured)
        value += MARKED_RUNNER * min(runners, captured)
    return value


def piece_value(st: State, p: int) -> int:
    """What losing the piece on ``p`` costs its owner (for ordering captures, MVV-style)."""
    s = st.owner[p] - 1
    value = POINT + ADVANCE[s][p]
    if IN_ENEMY_CAMP[s][p]:
        value += POINT
    if st.kind[p] in (MARKED, GUARD):
        value += 15  # it carries a redeploy / recovery right
    return value
