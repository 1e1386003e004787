"""Arabic letters in their joined forms, for a renderer that draws one glyph per character.

Pillow without libraqm (or without the FriBiDi it loads) does no OpenType shaping, so Arabic would
come out as isolated letters. Unicode's presentation forms give every letter its isolated,
final, initial and medial shape as a character of its own; which forms a letter has also says
how it joins (a letter with an initial form joins on both sides). The table is read from
Python's own Unicode database, so it follows the interpreter's Unicode version.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

Forms = dict[str, str]  # "isolated" / "final" / "initial" / "medial" -> presentation form
_LAM = "\u0644"
_ALEFS = "\u0622\u0623\u0625\u0627"  # alef with madda, hamza above, hamza below, plain
_TATWEEL = "\u0640"  # the joining stroke: joins on both sides, has no forms of its own
_PRESENTATION = (range(0xFE70, 0xFF00), range(0xFB50, 0xFE00))  # forms B first: the usual ones


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, Forms], dict[str, Forms]]:
    """Forms of each letter, and of each lam-alef ligature (keyed by its alef)."""
    letters: dict[str, Forms] = {}
    lam_alef: dict[str, Forms] = {}
    for block in _PRESENTATION:
        for code in block:
            tag, _, bases = unicodedata.decomposition(chr(code)).partition(" ")
            kind = tag.strip("<>")
            if kind not in ("isolated", "final", "initial", "medial"):
                continue
            chars = "".join(chr(int(b, 16)) for b in bases.split())
            if len(chars) == 1:
                letters.setdefault(chars, {}).setdefault(kind, chr(code))
            elif len(chars) == 2 and chars[0] == _LAM and chars[1] in _ALEFS:
                lam_alef.setdefault(chars[1], {}).setdefault(kind, chr(code))
    return letters, lam_alef


def _joins_forward(char: str) -> bool:
    """Whether ``char`` connects to the letter after it (it has an initial or medial form)."""
    forms = _tables()[0].get(char, {})
    return char == _TATWEEL or "initial" in forms or "medial" in forms


def _joins_backward(char: str) -> bool:
    """Whether ``char`` connects to the letter before it."""
    forms = _tables()[0].get(char, {})
    return char == _TATWEEL or "final" in forms or "medial" in forms


def _transparent(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


def shape(text: str, drawable: Callable[[str], bool]) -> str:
    """``text`` (logical order) with each Arabic letter in its joined form.

    A form that ``drawable`` says cannot be drawn keeps the plain letter. Other characters are
    returned unchanged, so text without Arabic comes back as it was.
    """
    letters, lam_alef = _tables()
    if not any(c in letters for c in text):
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        before = _neighbour(text, i, -1)
        after = _neighbour(text, i, 1)
        joined_before = before is not None and _joins_forward(before) and _joins_backward(char)
        if char == _LAM and after is not None and after in lam_alef and text[i + 1] == after:
            form = lam_alef[after].get("final" if joined_before else "isolated", "")
            if form and drawable(form):
                out.append(form)
                i += 2
                continue
        joined_after = after is not None and _joins_forward(char) and _joins_backward(after)
        kind = {
            (False, False): "isolated",
            (True, False): "final",
            (False, True): "initial",
            (True, True): "medial",
        }[(joined_before, joined_after)]
        form = letters.get(char, {}).get(kind, char)
        out.append(form if drawable(form) else char)
        i += 1
    return "".join(out)


def _neighbour(text: str, i: int, step: int) -> str | None:
    """The nearest character from ``i`` in direction ``step`` that is not a combining mark."""
    j = i + step
    while 0 <= j < len(text) and _transparent(text[j]):
        j += step
    return text[j] if 0 <= j < len(text) else None
