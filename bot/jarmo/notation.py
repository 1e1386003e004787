"""Move notation (rules §7): parse every accepted input form, print the canonical one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .board import POINT_INDEX, POINT_NAMES
from .errors import NotationError

EXPECTED_ACTION = (
    "expected a step such as A1-C2 (from point, to point), a redeploy such as @B1, "
    "or in ludos a step with a place such as D3-C5@B1. Points are a letter A–E and a digit 1–5."
)
EXPECTED_POINT = "expected a point such as B1: a letter A–E and a digit 1–5."

# Longer input is refused before any pattern runs: the longest accepted form with generous
# spacing is well under this.
MAX_INPUT_LENGTH = 40
_TOKEN = r"([A-Za-z][0-9]+)"
# One run of spaces, or a mark with optional spaces around it: the alternatives never match the
# same text in two ways, so a failing match backtracks in linear time (\s*\s\s* did not).
_SEP = r"(?:\s*[-–—:xX]\s*|\s+)"
_STEP = re.compile(rf"{_TOKEN}(?:{_SEP}|){_TOKEN}(?:\s*@\s*{_TOKEN})?")
_PLACE = re.compile(rf"@\s*{_TOKEN}")
_POINT = re.compile(_TOKEN)


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed action, by point names: a step (``origin``/``target``), a place, or both."""

    origin: str | None
    target: str | None
    place: str | None

    def format(self, *, capture: bool = False) -> str:
        """The canonical text of this action (``capture`` chooses ``x`` over ``-``)."""
        return format_action(self.origin, self.target, self.place, capture=capture)


def format_action(
    origin: str | None, target: str | None, place: str | None, *, capture: bool = False
) -> str:
    """Canonical notation: ``A1-C2``, ``A1xC2``, ``@B1``, ``D4-C5@B1``."""
    text = f"{origin}{'x' if capture else '-'}{target}" if origin else ""
    return f"{text}@{place}" if place else text


def _point(token: str, text: str) -> str:
    name = token.upper()
    if name not in POINT_INDEX:
        raise NotationError(text, f"{token} is not a point on the board; {EXPECTED_POINT}")
    return name


def parse_point(text: str) -> str:
    """The canonical name of a point written like ``b1`` or ``@B1``; ``NotationError`` otherwise."""
    _check_length(text)
    match = _POINT.fullmatch(text.strip().lstrip("@").strip())
    if not match:
        raise NotationError(text, EXPECTED_POINT)
    return _point(match.group(1), text)


def parse_action(text: str) -> Action:
    """Parse any accepted form of a step, a redeploy/place, or a ludos step with a place.

    The capture mark is not trusted: whether a step captures depends on the position, so the
    game decides it. Raises ``NotationError`` saying what was expected.
    """
    origin, target, place = parse_indices(text)
    return Action(
        POINT_NAMES[origin] if origin >= 0 else None,
        POINT_NAMES[target] if target >= 0 else None,
        POINT_NAMES[place] if place >= 0 else None,
    )


@lru_cache(maxsize=8192)
def parse_indices(text: str) -> tuple[int, int, int]:
    """Like ``parse_action`` but as point indices, ``-1`` for a missing part (the hot path)."""
    _check_length(text)
    stripped = text.strip()
    step = _STEP.fullmatch(stripped)
    if step:
        origin, target, place = (_point(t, text) if t else None for t in step.groups())
        if origin == target:
            raise NotationError(text, f"a step must go to another point; {EXPECTED_ACTION}")
        return POINT_INDEX[origin], POINT_INDEX[target], POINT_INDEX[place] if place else -1
    place_only = _PLACE.fullmatch(stripped)
    if place_only:
        return -1, -1, POINT_INDEX[_point(place_only.group(1), text)]
    raise NotationError(text, EXPECTED_ACTION)


def _check_length(text: str) -> None:
    if len(text) > MAX_INPUT_LENGTH:
        raise NotationError(
            text[:MAX_INPUT_LENGTH] + "…",
            f"that is {len(text)} characters long; a move is at most {MAX_INPUT_LENGTH}. "
            + EXPECTED_ACTION,
        )
