"""Zobrist keys: a 64-bit position key that ``Game`` updates as actions are made and unmade.

The key covers what decides the future of a game: the pieces (side, kind, point), the side to
move, and each side's captured and reserve counts. It leaves out the ply count and the
no-shuffling memory, so two keys are equal for positions that differ only in those. The tables
come from a fixed seed: keys are the same in every process, which keeps searches reproducible.
"""

from __future__ import annotations

import random

from .board import POINT_COUNT

_MAX_COUNT = 6  # captured and reserve counts run from 0 to 5
_rng = random.Random(0x7A12)
#: PIECE_KEYS[side][kind][point]
PIECE_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_rng.getrandbits(64) for _ in range(POINT_COUNT)) for _ in range(3))
    for _ in range(2)
)
SIDE_KEY = _rng.getrandbits(64)  # Black to move
CAPTURED_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rng.getrandbits(64) for _ in range(_MAX_COUNT)) for _ in range(2)
)
RESERVE_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rng.getrandbits(64) for _ in range(_MAX_COUNT)) for _ in range(2)
)
del _rng
