"""Board geometry: point names and indices, camps.

Points are indexed column-major (``A1``=0, ``A2``=1 … ``E5``=24) so that walking the indices in
order walks the point names in sorted order; that keeps move lists sorted at no cost.
"""

from __future__ import annotations

from typing import Final

from .position import Side

#: A point is its index, ``0`` (A1) to ``24`` (E5); names are for the edge (notation, rendering).
Point = int

COLUMNS: Final = "ABCDE"
SIZE: Final = 5
POINT_COUNT: Final = SIZE * SIZE
POINT_NAMES: Final[tuple[str, ...]] = tuple(f"{c}{r}" for c in COLUMNS for r in range(1, SIZE + 1))
POINT_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(POINT_NAMES)}


def point_index(name: str) -> Point:
    """The point called ``name`` (canonical, e.g. ``"C2"``); ``ValueError`` for anything else."""
    try:
        return POINT_INDEX[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a point name such as C2") from None


WHITE: Final = 0
BLACK: Final = 1
SIDE_NAMES: Final[tuple[Side, Side]] = ("white", "black")
SIDE_INDEX: Final[dict[str, int]] = {"white": WHITE, "black": BLACK}

#: The row (0-based) of each side's own camp; the enemy camp of a side is the other side's camp.
CAMP_ROW: Final = (0, SIZE - 1)


def column_of(index: int) -> int:
    """0-based column (A=0) of a point index."""
    return index // SIZE


def row_of(index: int) -> int:
    """0-based row (row 1 = 0) of a point index."""
    return index % SIZE


def index_of(column: int, row: int) -> int:
    """Point index of a 0-based column and row."""
    return column * SIZE + row


def camp_points(side: int) -> tuple[int, ...]:
    """The own camp of ``side``, left to right (lowest column first)."""
    return tuple(index_of(c, CAMP_ROW[side]) for c in range(SIZE))


def enemy_camp_points(side: int) -> tuple[int, ...]:
    """The camp ``side`` attacks, left to right."""
    return camp_points(1 - side)


def _in_camp_of(side: int) -> tuple[bool, ...]:
    return tuple(row_of(i) == CAMP_ROW[1 - side] for i in range(POINT_COUNT))


#: IN_ENEMY_CAMP[side][index] is True when ``index`` lies in the camp that ``side`` attacks.
IN_ENEMY_CAMP: Final[tuple[tuple[bool, ...], tuple[bool, ...]]] = (
    _in_camp_of(WHITE),
    _in_camp_of(BLACK),
)

EMPTY: Final = 0  # the owner of an empty point; an occupied point holds its side + 1
# piece kinds
ARCHER: Final = 0
MARKED: Final = 1
GUARD: Final = 2
NOT_A_STEP: Final = -1  # in a side's memory of recent actions: anything but a plain step


def shuffle_forbidden(recent: list[int]) -> int:
    """The step that the no-shuffling rule forbids after a side's ``recent`` actions (oldest
    first; step codes or ``NOT_A_STEP``): X, back, X, back forbids X. ``NOT_A_STEP`` if none."""
    if len(recent) >= 4:
        x, back, x2, back2 = recent[-4], recent[-3], recent[-2], recent[-1]
        if (
            x >= 0
            and x == x2
            and back == back2
            and back == (x % POINT_COUNT) * POINT_COUNT + x // POINT_COUNT
        ):
            return x
    return NOT_A_STEP
