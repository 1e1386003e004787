"""A compact, mutable copy of a game for search: integer moves, make/unmake, Zobrist hash.

``Game.copy()`` + ``Game.play()`` per node would cost string parsing and list copies; the search
instead keeps one ``State`` and walks the tree with ``make``/``unmake``. The state is built from
``Game.to_dict()`` only, so it depends on the public contract, and the tests check its move
generator against ``Game.legal_moves()``.

Moves are ints: a step ``P-Q`` is ``P + 25*Q`` (never 0, since ``P != Q``); a place / redeploy
on ``R`` adds ``625*(R+1)``; so ``@R`` alone is ``625*(R+1)``.
"""

from __future__ import annotations

import random
from typing import Any

from bot.jarmo import get_layout, get_ruleset
from bot.jarmo.board import (
    IN_ENEMY_CAMP,
    POINT_COUNT,
    POINT_INDEX,
    POINT_NAMES,
    SIDE_INDEX,
    camp_points,
    row_of,
)

N = POINT_COUNT
PLACE_UNIT = N * N  # 625
NOT_A_STEP = -1
ARCHER, MARKED, GUARD = 0, 1, 2
KIND_CODE = {"archer": ARCHER, "marked": MARKED, "guard": GUARD}

# Fixed-seed keys: hashes must be identical in every process so that results are reproducible.
_rng = random.Random(0x7A12)
Z_PIECE = [[[_rng.getrandbits(64) for _ in range(N)] for _ in range(3)] for _ in range(2)]
Z_SIDE = _rng.getrandbits(64)
Z_CAPTURED = [[_rng.getrandbits(64) for _ in range(6)] for _ in range(2)]
Z_RESERVE = [[_rng.getrandbits(64) for _ in range(6)] for _ in range(2)]
del _rng

CAMP = (camp_points(0), camp_points(1))
ENEMY_CAMP = (camp_points(1), camp_points(0))


def step_move(p: int, q: int) -> int:
    """The int move of a step from ``p`` to ``q`` (point indices)."""
    return p + N * q


def place_move(r: int) -> int:
    """The int move of a redeploy / place on ``r``."""
    return PLACE_UNIT * (r + 1)


def decode(move: int) -> tuple[int, int, int]:
    """``(origin, target, place)`` of a move, ``-1`` for a missing part."""
    low, high = move % PLACE_UNIT, move // PLACE_UNIT
    if low == 0:
        return -1, -1, high - 1
    return low % N, low // N, high - 1


def _shuffle_forbidden(recent: list[int]) -> int:
    """The step the no-shuffling rule forbids after ``recent`` (the last four count)."""
    if len(recent) < 4:
        return NOT_A_STEP
    x, back, x2, back2 = recent[-4:]
    if x >= 0 and x == x2 and back == back2 and back == (x // N) + N * (x % N):
        return x
    return NOT_A_STEP


def _targets(layout_name: str, forward_only: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    neighbours = get_layout(layout_name).neighbours
    out = []
    for side in (0, 1):
        ahead = 1 if side == 0 else -1
        out.append(
            tuple(
                ()
                if IN_ENEMY_CAMP[side][p]  # a piece in the enemy camp never moves again
                else tuple(
                    q
                    for q in neighbours[p]
                    if not forward_only or (row_of(q) - row_of(p)) * ahead > 0
                )
                for p in range(N)
            )
        )
    return tuple(out)


class State:
    """Everything the rules need to continue a game, in flat lists indexed by point."""

    __slots__ = (
        "camp_tiebreak",
        "captured",
        "guards",
        "hash",
        "in_camp",
        "kind",
        "max_plies",
        "no_shuffling",
        "on_board",
        "owner",
        "pieces",
        "ply",
        "recent",
        "repetition_ends",
        "reserve",
        "ruleset",
        "side",
        "targets",
        "undo",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        rules = get_ruleset(data["ruleset"])
        self.ruleset = rules.name
        self.guards = rules.guards
        self.no_shuffling = rules.no_shuffling
        self.repetition_ends = rules.repetition_ends
        self.camp_tiebreak = rules.camp_tiebreak
        self.targets = _targets(data["layout"], rules.forward_only)
        self.owner = [0] * N  # side + 1, 0 for empty
        self.kind = [ARCHER] * N
        self.pieces: list[list[int]] = [[], []]
        self.on_board = [0, 0]
        self.in_camp = [0, 0]
        self.hash = 0
        for point, side_name, kind_name in data["pieces"]:
            self._put(POINT_INDEX[point], SIDE_INDEX[side_name], KIND_CODE[kind_name])
        self.captured = [data["captured"]["white"], data["captured"]["black"]]
        self.reserve = [data["reserve"]["white"], data["reserve"]["black"]]
        self.recent: list[list[int]] = [
            [_recent_code(t) for t in data["recent"][name]] for name in ("white", "black")
        ]
        self.side = SIDE_INDEX[data["turn"]]
        self.ply = len(data["history"])
        self.max_plies = int(data["max_plies"])
        self.undo: list[tuple[int, ...]] = []
        for s in (0, 1):
            self.hash ^= Z_CAPTURED[s][self.captured[s]] ^ Z_RESERVE[s][self.reserve[s]]
        if self.side:
            self.hash ^= Z_SIDE

    # ------------------------------------------------------------------ rules

    def stopped(self) -> bool:
        """End rules 1-3 (rules §4) after the last action; rule 4 is "no legal move"."""
        if self.in_camp[0] == self.on_board[0] or self.in_camp[1] == self.on_board[1]:
            return True
        if (
            self.repetition_ends
            and _shuffle_forbidden(self.recent[0]) != NOT_A_STEP
            and _shuffle_forbidden(self.recent[1]) != NOT_A_STEP
        ):
            return True
        return self.ply >= self.max_plies

    def points(self, side: int) -> int:
        """Rules §5: 2 per piece in the enemy camp, 1 per other piece on the board."""
        return self.on_board[side] + self.in_camp[side]

    def result(self, side: int) -> int:
        """+1 / 0 / -1: the finished game's result for ``side`` (with the ludos tie-break)."""
        diff = self.points(side) - self.points(1 - side)
        if diff == 0 and self.camp_tiebreak:
            diff = self.in_camp[side] - self.in_camp[1 - side]
        return (diff > 0) - (diff < 0)

    def moves(self) -> list[int]:
        """Every legal action for the side to move (the same set as ``Game.legal_moves``)."""
        s = self.side
        me = s + 1
        owner = self.owner
        targets = self.targets[s]
        out = [p + N * q for p in self.pieces[s] for q in targets[p] if owner[q] != me]
        if self.no_shuffling:
            forbidden = _shuffle_forbidden(self.recent[s])
            if forbidden in out:
                out.remove(forbidden)
        if self.guards:
            if self.reserve[s] or self.captured[s]:
                free = [r for r in CAMP[s] if not owner[r]]
                if self.reserve[s]:
                    out.extend(PLACE_UNIT * (r + 1) for r in free)
                if self.captured[s] and free:
                    out.extend(self._steps_with_place(s, free))
        elif self.captured[s] and self._marked_in_camp(s):
            out.extend(PLACE_UNIT * (r + 1) for r in CAMP[s] if not owner[r])
        return out

    def forbidden_step(self) -> int:
        """The step the no-shuffling rule forbids the side to move, or NOT_A_STEP."""
        if not self.no_shuffling:
            return NOT_A_STEP
        return _shuffle_forbidden(self.recent[self.side])

    def _steps_with_place(self, s: int, free: list[int]) -> list[int]:
        """ludos: a guard entering the enemy camp recovers a piece that may be placed at once."""
        owner, kind, camp, me = self.owner, self.kind, IN_ENEMY_CAMP[s], s + 1
        return [
            p + N * q + PLACE_UNIT * (r + 1)
            for p in self.pieces[s]
            if kind[p] == GUARD
            for q in self.targets[s][p]
            if camp[q] and owner[q] != me
            for r in free
        ]

    def _marked_in_camp(self, s: int) -> bool:
        owner, kind, me = self.owner, self.kind, s + 1
        return any(owner[m] == me and kind[m] == MARKED for m in ENEMY_CAMP[s])

    def is_capture(self, move: int) -> bool:
        """True for a step onto an enemy piece (before the move is made)."""
        low = move % PLACE_UNIT
        return low != 0 and self.owner[low // N] != 0

    def text(self, move: int) -> str:
        """Canonical notation of ``move`` in this position (before it is made)."""
        p, q, r = decode(move)
        place = f"@{POINT_NAMES[r]}" if r >= 0 else ""
        if p < 0:
            return place
        sep = "x" if self.owner[q] else "-"
        return f"{POINT_NAMES[p]}{sep}{POINT_NAMES[q]}{place}"

    # ------------------------------------------------------------------ make / unmake

    def make(self, move: int) -> None:
        """Play ``move`` (assumed legal); ``unmake`` takes it back."""
        s = self.side
        p, q, r = decode(move)
        old_hash = self.hash
        victim = unmarked = -1
        victim_at = 0
        recovered = mover_at = 0
        if p >= 0:
            mover = before = self.kind[p]
            mover_at = self.pieces[s].index(p)
            self._take(p)
            if self.owner[q]:
                victim = self.kind[q]
                victim_at = self.pieces[1 - s].index(q)
                self._take(q)
                self._set_captured(1 - s, 1)
                if not self.guards:
                    mover = MARKED
                elif not IN_ENEMY_CAMP[s][q]:
                    mover = GUARD  # a capture outside the victim's own camp promotes
            if mover == GUARD and IN_ENEMY_CAMP[s][q]:
                mover = ARCHER
                if self.captured[s]:
                    recovered = 1
                    self._set_captured(s, -1)
                    self._set_reserve(s, 1)
            self._put(q, s, mover)
            if r >= 0:
                self._set_reserve(s, -1)
                self._put(r, s, ARCHER)
                self.recent[s].append(NOT_A_STEP)
            else:
                self.recent[s].append(move)
        else:
            before = ARCHER
            if self.guards:
                self._set_reserve(s, -1)
            else:
                self._set_captured(s, -1)
                unmarked = self._unmark_leftmost(s)
            self._put(r, s, ARCHER)
            self.recent[s].append(NOT_A_STEP)
        self.undo.append((move, before, mover_at, victim, victim_at, recovered, unmarked, old_hash))
        self.hash ^= Z_SIDE
        self.side = 1 - s
        self.ply += 1

    def unmake(self) -> None:
        """Take back the last ``make``."""
        move, before, mover_at, victim, victim_at, recovered, unmarked, old_hash = self.undo.pop()
        self.ply -= 1
        s = self.side = 1 - self.side
        self.recent[s].pop()
        p, q, r = decode(move)
        if r >= 0:
            self._take(r)
            if self.guards:
                self.reserve[s] += 1
            else:
                self.captured[s] += 1
        if p >= 0:
            self._take(q)
            if recovered:
                self.reserve[s] -= 1
                self.captured[s] += 1
            self._put(p, s, before, mover_at)
            if victim >= 0:
                self._put(q, 1 - s, victim, victim_at)
                self.captured[1 - s] -= 1
        elif unmarked >= 0:
            self.kind[unmarked] = MARKED
        self.hash = old_hash

    def _unmark_leftmost(self, s: int) -> int:
        """Classic redeploy: the leftmost marked piece in the enemy camp loses its mark."""
        owner, kind, me = self.owner, self.kind, s + 1
        for m in ENEMY_CAMP[s]:
            if owner[m] == me and kind[m] == MARKED:
                kind[m] = ARCHER
                self.hash ^= Z_PIECE[s][MARKED][m] ^ Z_PIECE[s][ARCHER][m]
                return m
        return -1

    def _put(self, p: int, s: int, kind: int, at: int = -1) -> None:
        self.owner[p] = s + 1
        self.kind[p] = kind
        if at < 0:
            self.pieces[s].append(p)
        else:
            self.pieces[s].insert(at, p)  # unmake restores the list order exactly
        self.on_board[s] += 1
        if IN_ENEMY_CAMP[s][p]:
            self.in_camp[s] += 1
        self.hash ^= Z_PIECE[s][kind][p]

    def _take(self, p: int) -> None:
        s = self.owner[p] - 1
        self.owner[p] = 0
        self.pieces[s].remove(p)
        self.on_board[s] -= 1
        if IN_ENEMY_CAMP[s][p]:
            self.in_camp[s] -= 1
        self.hash ^= Z_PIECE[s][self.kind[p]][p]

    def _set_captured(self, s: int, delta: int) -> None:
        self.hash ^= Z_CAPTURED[s][self.captured[s]]
        self.captured[s] += delta
        self.hash ^= Z_CAPTURED[s][self.captured[s]]

    def _set_reserve(self, s: int, delta: int) -> None:
        self.hash ^= Z_RESERVE[s][self.reserve[s]]
        self.reserve[s] += delta
        self.hash ^= Z_RESERVE[s][self.reserve[s]]


def _recent_code(text: str) -> int:
    """A ``to_dict`` recent-action entry (``"P-Q"`` or ``"@"``) as a step move or NOT_A_STEP."""
    if text == "@":
        return NOT_A_STEP
    p, _, q = text.partition("-")
    return step_move(POINT_INDEX[p], POINT_INDEX[q])
