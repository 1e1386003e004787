"""Step tables: where pieces may step, as lookups filled while games are played.

Move generation is the engine's hot path (a random playout or a search asks for the legal
actions at every ply), so the work per piece is one dictionary lookup: an origin's steps
depend only on the state of the points it reaches, and that state, masked out of the board,
is the key. The tables are per layout, direction rule and side, shared by every game, and
filled as positions are met; each key space is small (an origin reaches at most 8 points).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from .board import IN_ENEMY_CAMP, POINT_COUNT, Point, camp_points, row_of
from .codes import CAPTURE, DECODE, PLACE_UNIT, ActionCode, place_code, step_code
from .layouts import Layout

#: The board as one int for the side to move: its pieces in bits 0-24, the enemy's above.
ENEMY_SHIFT: Final = POINT_COUNT
ALL_POINTS: Final = (1 << POINT_COUNT) - 1

#: STEP_BITS[code]: the two points of a plain step ``code`` (below ``PLACE_UNIT``) as a mask.
STEP_BITS: Final = tuple(
    1 << DECODE[code][0] | 1 << DECODE[code][1] if DECODE[code][0] >= 0 else 0
    for code in range(PLACE_UNIT)
)

Targets = tuple[tuple[Point, ...], ...]
# One own piece as the generator reads it: the mask of its targets on the board key (own and
# enemy bits), its steps by that key, its captures by the enemy pieces on its targets, and its
# point.
Slot = tuple[int, dict[int, tuple[ActionCode, ...]], dict[int, tuple[ActionCode, ...]], Point]
Army = tuple[Slot, ...]  # the slots of a side's pieces, in point order


def mask_of(points: Iterable[Point]) -> int:
    """The bit mask of some points (bit ``p`` for point ``p``)."""
    mask = 0
    for p in points:
        mask |= 1 << p
    return mask


#: A side's pieces are looked up in two halves of the board (points 0-12, 13-24), so that the
#: tables are built once, small (a side has at most 5 pieces), and indexed by an int.
LOW_BITS: Final = 13
LOW_MASK: Final = (1 << LOW_BITS) - 1
_MAX_PIECES: Final = 5


def _points_in(first: Point, size: int) -> tuple[tuple[Point, ...], ...]:
    return tuple(
        tuple(first + i for i in range(size) if subset >> i & 1) for subset in range(1 << size)
    )


_LOW_POINTS: Final = _points_in(0, LOW_BITS)
_HIGH_POINTS: Final = _points_in(LOW_BITS, POINT_COUNT - LOW_BITS)


def points_of(mask: int) -> tuple[Point, ...]:
    """The points in a bit mask, in order."""
    return _LOW_POINTS[mask & LOW_MASK] + _HIGH_POINTS[mask >> LOW_BITS]


class SideSteps:
    """The step tables of one side under one layout and direction rule.

    A side's pieces (a mask ``own``) are ``low[own & LOW_MASK] + high[own >> LOW_BITS]``: the
    generator's slots in point order; ``low_reach`` / ``high_reach`` are the same halves' union
    of targets. The slots' step and capture memos are filled by ``fill_steps`` /
    ``fill_captures`` on a miss.
    """

    __slots__ = ("_slots", "high", "high_reach", "low", "low_reach", "targets")

    def __init__(self, targets: Targets) -> None:
        self.targets = targets
        self._slots: tuple[Slot, ...] = tuple(
            (mask_of(row) | mask_of(row) << ENEMY_SHIFT, {}, {}, p) for p, row in enumerate(targets)
        )
        self.low, self.low_reach = self._half(0, LOW_BITS)
        self.high, self.high_reach = self._half(LOW_BITS, POINT_COUNT - LOW_BITS)

    def _half(self, first: Point, size: int) -> tuple[tuple[Army, ...], tuple[int, ...]]:
        """Per subset of the ``size`` points from ``first`` (as a mask shifted down to bit 0)
        with at most 5 points, its slots and reach; each built from the subset without its
        lowest point."""
        slots: list[Army] = [()] * (1 << size)
        reach = [0] * (1 << size)
        for subset in range(1, 1 << size):
            if subset.bit_count() <= _MAX_PIECES:
                lowest = subset & -subset
                rest = subset ^ lowest
                slot = self._slots[first + lowest.bit_length() - 1]
                slots[subset] = (slot, *slots[rest])
                reach[subset] = slot[0] & ALL_POINTS | reach[rest]
        return tuple(slots), tuple(reach)

    def fill_steps(self, origin: Point, key: int) -> tuple[ActionCode, ...]:
        """The steps from ``origin`` for the board ``key`` (masked), remembered."""
        codes = self._slots[origin][1][key] = tuple(
            step_code(origin, q) | (CAPTURE if key >> (q + ENEMY_SHIFT) & 1 else 0)
            for q in self.targets[origin]
            if not key >> q & 1
        )
        return codes

    def fill_captures(self, origin: Point, enemy: int) -> tuple[ActionCode, ...]:
        """The captures from ``origin`` onto the enemy pieces ``enemy`` (masked), remembered."""
        codes = self._slots[origin][2][enemy] = tuple(
            step_code(origin, q) | CAPTURE for q in self.targets[origin] if enemy >> q & 1
        )
        return codes


@cache
def side_steps(layout: Layout, no_backwards: bool) -> tuple[SideSteps, SideSteps]:
    """White's and Black's step tables (pieces in the enemy camp never move again); with
    ``no_backwards``, no step away from the enemy camp (sideways steps stay)."""

    def rows(side: int) -> Targets:
        ahead = 1 if side == 0 else -1
        return tuple(
            ()
            if IN_ENEMY_CAMP[side][p]
            else tuple(
                q
                for q in layout.neighbours[p]
                if not no_backwards or (row_of(q) - row_of(p)) * ahead >= 0
            )
            for p in range(POINT_COUNT)
        )

    return SideSteps(rows(0)), SideSteps(rows(1))


CAMP_MASKS: Final = (mask_of(camp_points(0)), mask_of(camp_points(1)))


def _free_places(side: int) -> dict[int, tuple[ActionCode, ...]]:
    """Per set of occupied points of ``side``'s camp (as a mask), the places on the others."""
    camp = camp_points(side)
    table = {}
    for subset in range(1 << len(camp)):
        taken = mask_of([p for i, p in enumerate(camp) if subset >> i & 1])
        table[taken] = tuple(place_code(r) for r in camp if not taken >> r & 1)
    return table


#: FREE_PLACES[side][taken] are the places on ``side``'s camp when ``taken`` (a mask of camp
#: points) are occupied.
FREE_PLACES: Final = (_free_places(0), _free_places(1))
