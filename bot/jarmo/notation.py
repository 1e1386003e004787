"""Move notation (rules §7): parse every accepted input form, print the canonical one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .board import POINT_COUNT, POINT_INDEX, Point
from .codes import (
    CAPTURE,
    DECODE,
    NO_POINT,
    NOTATION,
    ActionCode,
    is_valid_code,
    place_code,
    step_code,
)
from .errors import NotationError, Problem

EXPECTED_ACTION: Final = (
    "expected a step such as A1-C2 (from point, to point), a redeploy such as @B1, "
    "or in ludos a step with a place such as D3-E5@B1. Points are a letter A–E and a digit 1–5."
)
EXPECTED_POINT: Final = "expected a point such as B1: a letter A–E and a digit 1–5."

# Longer input is refused before any pattern runs: the longest accepted form with generous
# spacing is well under this.
MAX_INPUT_LENGTH: Final = 40
_TOKEN: Final = r"([A-Za-z][0-9]+)"
# One run of spaces, or a mark with optional spaces around it: the alternatives never match the
# same text in two ways, so a failing match backtracks in linear time (\s*\s\s* did not).
_SEP: Final = r"(?:\s*[-–—:xX]\s*|\s+)"
_STEP: Final = re.compile(rf"{_TOKEN}(?:{_SEP}|){_TOKEN}(?:\s*@\s*{_TOKEN})?")
_PLACE: Final = re.compile(rf"@\s*{_TOKEN}")
_POINT: Final = re.compile(_TOKEN)


@dataclass(frozen=True, slots=True)
class Action:
    """One action by point indices: a step (``origin``/``target``), a place, or both (ludos).

    Parse it with ``Action.parse`` and print it with ``str``; the two round-trip. Whether a step
    captures depends on the position, so ``str`` writes ``-``; ``Game.notation`` writes the
    canonical text, with ``x`` for a capture. Raises ``ValueError`` for an impossible shape.
    """

    origin: Point | None = None
    target: Point | None = None
    place: Point | None = None

    def __post_init__(self) -> None:
        for point in (self.origin, self.target, self.place):
            if point is not None and not 0 <= point < POINT_COUNT:
                raise ValueError(f"{point} is not a point index (0-{POINT_COUNT - 1})")
        if (self.origin is None) != (self.target is None) or (
            self.origin is not None and self.origin == self.target
        ):
            raise ValueError("a step needs two different points")
        if self.origin is None and self.place is None:
            raise ValueError("an action is a step, a place, or both")

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse any accepted form of a step, a redeploy/place, or a ludos step with a place.

        The capture mark is accepted but not kept: whether a step captures depends on the
        position. Raises ``NotationError`` saying what was expected.
        """
        return cls.from_code(parse_code(text))

    @classmethod
    def from_code(cls, code: ActionCode) -> Action:
        """The action an engine code stands for (the capture bit is ignored).

        Raises ``ValueError`` for a number that is no action's code.
        """
        if not is_valid_code(code):
            raise ValueError(f"{code} is not an action code")
        origin, target, place = DECODE[code]
        return cls(
            origin if origin >= 0 else None,
            target if target >= 0 else None,
            place if place >= 0 else None,
        )

    @property
    def code(self) -> ActionCode:
        """The engine's integer code of this action, without the capture bit."""
        place = NO_POINT if self.place is None else self.place
        if self.origin is None or self.target is None:
            return place_code(place)
        return step_code(self.origin, self.target, place)

    def format(self, *, capture: bool = False) -> str:
        """The text of this action, with ``x`` rather than ``-`` when ``capture`` is set."""
        code = self.code
        return NOTATION[code | CAPTURE if capture and self.origin is not None else code]

    def __str__(self) -> str:
        return NOTATION[self.code]

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def _point(token: str, text: str) -> str:
    name = token.upper()
    if name not in POINT_INDEX:
        raise NotationError(
            text,
            f"{token} is not a point on the board; {EXPECTED_POINT}",
            Problem.NOT_A_POINT,
            token=token,
            wanted="point",
        )
    return name


def parse_point(text: str) -> str:
    """The canonical name of a point written like ``b1`` or ``@B1``; ``NotationError`` otherwise."""
    _check_length(text)
    match = _POINT.fullmatch(text.strip().lstrip("@").strip())
    if not match:
        raise NotationError(text, EXPECTED_POINT, Problem.UNREADABLE, wanted="point")
    return _point(match.group(1), text)


@lru_cache(maxsize=8192)
def parse_code(text: str) -> ActionCode:
    """Like ``Action.parse`` but the engine's integer code (the play path); ``NotationError``."""
    _check_length(text)
    stripped = text.strip()
    step = _STEP.fullmatch(stripped)
    if step:
        origin, target, place = (_point(t, text) if t else None for t in step.groups())
        if origin is None or target is None or origin == target:
            raise NotationError(
                text,
                f"a step must go to another point; {EXPECTED_ACTION}",
                Problem.SAME_POINT,
                wanted="action",
            )
        return step_code(
            POINT_INDEX[origin], POINT_INDEX[target], POINT_INDEX[place] if place else NO_POINT
        )
    place_only = _PLACE.fullmatch(stripped)
    if place_only:
        return place_code(POINT_INDEX[_point(place_only.group(1), text)])
    raise NotationError(text, EXPECTED_ACTION, Problem.UNREADABLE, wanted="action")


def _check_length(text: str) -> None:
    if len(text) > MAX_INPUT_LENGTH:
        raise NotationError(
            text[:MAX_INPUT_LENGTH] + "…",
            f"that is {len(text)} characters long; a move is at most {MAX_INPUT_LENGTH}. "
            + EXPECTED_ACTION,
            Problem.TOO_LONG,
            length=str(len(text)),
            limit=str(MAX_INPUT_LENGTH),
            wanted="action",
        )
