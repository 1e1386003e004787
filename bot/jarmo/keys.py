"""Zobrist keys: a 64-bit position key that ``Game`` updates as actions are made and unmade.

The key covers what decides the future of a game: the pieces (side, kind, point), the side to
move, and each side's captured and reserve counts. It leaves out the ply count and the
no-shuffling memory, so two keys are equal for positions that differ only in those. The tables
come from a fixed seed (SplitMix64): keys are the same in every process, which keeps searches
reproducible.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from .board import POINT_COUNT
from .codes import DECODE, PLACE_UNIT

_MAX_COUNT: Final = 6  # captured and reserve counts run from 0 to 5
_MASK: Final = (1 << 64) - 1


def _splitmix64(seed: int) -> Iterator[int]:
    """Well-mixed 64-bit numbers from a seed (SplitMix64), the same on every platform."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


_NUMBERS = _splitmix64(0x7A12)


def _take(count: int) -> tuple[int, ...]:
    return tuple(next(_NUMBERS) for _ in range(count))


#: PIECE_KEYS[side][kind][point]
PIECE_KEYS: Final = tuple(tuple(_take(POINT_COUNT) for _ in range(3)) for _ in range(2))
SIDE_KEY: Final = next(_NUMBERS)  # Black to move
CAPTURED_KEYS: Final = tuple(_take(_MAX_COUNT) for _ in range(2))
RESERVE_KEYS: Final = tuple(_take(_MAX_COUNT) for _ in range(2))
#: STEP_KEYS[side][kind][code]: the key change of a plain step ``code`` (no capture, no place)
#: of a piece of ``side`` and ``kind`` that stays that kind, the turn passing included.
STEP_KEYS: Final = tuple(
    tuple(
        tuple(
            keys[DECODE[code][0]] ^ keys[DECODE[code][1]] ^ SIDE_KEY if DECODE[code][0] >= 0 else 0
            for code in range(PLACE_UNIT)
        )
        for keys in side_keys
    )
    for side_keys in PIECE_KEYS
)
