"""Actions as small integers, the engine's inside form (``Action`` is the outside one).

A step from ``p`` to ``q`` is ``p * 25 + q`` (never 0, since ``p != q``); a place / redeploy on
``r`` adds ``625 * (r + 1)``, so ``@R`` alone is ``625 * (r + 1)``. A step onto an enemy piece
also carries the ``CAPTURE`` bit, which the move generator sets: the canonical notation writes
a capture with ``x``, so a code with its bit names exactly one text.
"""

from __future__ import annotations

from typing import Final

from .board import POINT_COUNT, POINT_NAMES, Point

PLACE_UNIT: Final = POINT_COUNT * POINT_COUNT  # 625
CAPTURE: Final = 1 << 14  # above every code: 24 * 25 + 23 + 625 * 25 < 2**14
CODE_MASK: Final = CAPTURE - 1
CODE_LIMIT: Final = 2 * CAPTURE

ActionCode = int
NO_POINT: Final = -1  # a missing part of an action


def step_code(origin: Point, target: Point, place: Point = NO_POINT) -> ActionCode:
    """The code of a step (optionally with a ludos place), without the capture bit."""
    return origin * POINT_COUNT + target + PLACE_UNIT * (place + 1)


def place_code(place: Point) -> ActionCode:
    """The code of a redeploy / place on ``place``."""
    return PLACE_UNIT * (place + 1)


def _decode(code: ActionCode) -> tuple[Point, Point, Point] | None:
    high, low = divmod(code & CODE_MASK, PLACE_UNIT)
    origin, target = divmod(low, POINT_COUNT)
    if high > POINT_COUNT or (low == 0 and (high == 0 or code & CAPTURE)):
        return None
    if low and origin == target:
        return None
    return (origin, target, high - 1) if low else (NO_POINT, NO_POINT, high - 1)


def _text(parts: tuple[Point, Point, Point] | None, capture: bool) -> str:
    if parts is None:
        return ""
    origin, target, place = parts
    text = (
        f"{POINT_NAMES[origin]}{'x' if capture else '-'}{POINT_NAMES[target]}"
        if origin >= 0
        else ""
    )
    return f"{text}@{POINT_NAMES[place]}" if place >= 0 else text


_PARTS = [_decode(code) for code in range(CODE_LIMIT)]
#: ``DECODE[code]`` is ``(origin, target, place)``, ``NO_POINT`` for a missing part; the hot
#: paths index this table instead of dividing. An invalid code maps to ``(-1, -1, -1)``.
DECODE: Final[tuple[tuple[Point, Point, Point], ...]] = tuple(
    parts if parts is not None else (NO_POINT, NO_POINT, NO_POINT) for parts in _PARTS
)
#: ``NOTATION[code]`` is the canonical text of a code ("" for an invalid one).
NOTATION: Final[tuple[str, ...]] = tuple(
    _text(parts, bool(code & CAPTURE)) for code, parts in enumerate(_PARTS)
)
#: Canonical text to code (the play path's first try before the parser).
CODE_OF_TEXT: Final[dict[str, ActionCode]] = {
    text: code for code, text in enumerate(NOTATION) if text
}
del _PARTS


def is_valid_code(code: int) -> bool:
    """True when ``code`` names an action (some action, not necessarily a legal one)."""
    return 0 <= code < CODE_LIMIT and bool(NOTATION[code])
