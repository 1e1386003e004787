"""Right-to-left text put in display order, for a renderer that draws left to right.

A one-line version of the Unicode Bidirectional Algorithm (UAX #9) without explicit embeddings:
names have their formatting characters removed before they get here. It resolves weak and
neutral characters, assigns levels and reverses runs, so a Hebrew or Arabic name reads right to
left, and numbers and Latin words inside it still read left to right.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence

_STRONG_R = ("R", "AL")
_NEUTRAL = ("B", "S", "WS", "ON")
_MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))


def needs_reordering(text: Iterable[str]) -> bool:
    """Whether ``text`` holds any right-to-left character (else it is drawn as it is)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text)


def visual_order(
    text: Sequence[str], classify: Callable[[str], str] = unicodedata.bidirectional
) -> list[tuple[int, bool]]:
    """The indices of ``text`` in the order they are drawn, left to right, each with whether
    it stands in right-to-left text (where a bracket is drawn mirrored).

    ``classify`` gives a character's bidirectional class (the caller may treat its own private
    characters, such as emoji stand-ins, as neutral).
    """
    levels, base = _levels([classify(c) or "L" for c in text])
    order = list(range(len(text)))
    top = max(levels, default=0)
    lowest_odd = base | 1
    for level in range(top, lowest_odd - 1, -1):  # rule L2: reverse from the highest level
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    return [(i, levels[i] % 2 == 1) for i in order]


def mirrored(char: str) -> str:
    """The mirror image of a bracket drawn inside right-to-left text (rule L4)."""
    return _MIRRORED.get(char, char)


def _levels(classes: list[str]) -> tuple[list[int], int]:
    base = next((1 if c in _STRONG_R else 0 for c in classes if c in ("L", *_STRONG_R)), 0)
    sor = "R" if base else "L"
    types = _resolve_weak(classes, sor)
    types = _resolve_neutral(types, sor)
    levels = []
    for kind in types:  # rules I1 and I2
        if base == 0:
            levels.append({"L": 0, "R": 1}.get(kind, 2))
        else:
            levels.append(1 if kind == "R" else 2)
    for i in range(len(classes) - 1, -1, -1):  # rule L1: trailing spaces take the base level
        if classes[i] not in ("WS", "S", "B", "BN"):
            break
        levels[i] = base
    return levels, base


def _resolve_weak(classes: list[str], sor: str) -> list[str]:
    """Rules W1 to W7: marks, numbers and separators take a direction from their context."""
    types = list(classes)
    previous = sor
    for i, kind in enumerate(types):  # W1: a mark takes the class of what it marks
        if kind == "NSM":
            types[i] = previous
        elif kind != "BN":
            previous = types[i]
    strong = sor
    for i, kind in enumerate(types):  # W2, W3: numbers after Arabic letters are Arabic numbers
        if kind in ("L", "R", "AL"):
            strong = kind
        if kind == "EN" and strong == "AL":
            types[i] = "AN"
        if kind == "AL":
            types[i] = "R"
    for i in range(1, len(types) - 1):  # W4: one separator between two numbers of a kind
        left, here, right = types[i - 1], types[i], types[i + 1]
        if here == "ES" and left == right == "EN":
            types[i] = "EN"
        elif here == "CS" and left == right and left in ("EN", "AN"):
            types[i] = left
    _spread_terminators(types)  # W5
    types = ["ON" if t in ("ES", "ET", "CS", "BN") else t for t in types]  # W6
    strong = sor
    for i, kind in enumerate(types):  # W7: European numbers in left-to-right text are L
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            types[i] = "L"
    return types


def _spread_terminators(types: list[str]) -> None:
    """Rule W5: currency signs and the like next to European digits become digits."""
    for i, kind in enumerate(types):
        if kind != "ET":
            continue
        j = i
        while j < len(types) and types[j] == "ET":
            j += 1
        left = i > 0 and types[i - 1] == "EN"
        if left or (j < len(types) and types[j] == "EN"):
            types[i:j] = ["EN"] * (j - i)


def _resolve_neutral(types: list[str], sor: str) -> list[str]:
    """Rules N1 and N2: neutrals between two runs of one direction take it, others the base."""
    out = list(types)
    i = 0
    while i < len(out):
        if out[i] not in _NEUTRAL:
            i += 1
            continue
        j = i
        while j < len(out) and out[j] in _NEUTRAL:
            j += 1
        left = _direction(out[i - 1]) if i > 0 else sor
        right = _direction(out[j]) if j < len(out) else sor
        out[i:j] = [left if left == right else sor] * (j - i)
        i = j
    return out


def _direction(kind: str) -> str:
    return "L" if kind == "L" else "R"  # numbers count as right-to-left here (rule N1)
