"""Brahmic and Khmer text put in visual order for a renderer without a shaper.

In these scripts some vowel signs are written after their consonant but drawn before it (the
"i" of Devanagari ``कि``, Bengali ``কে``, Tamil ``கெ``, Khmer ``កេ``), and some are drawn in two
parts around it (Bengali ``কো``, Tamil ``கொ``). Without libraqm Pillow draws characters in the
order they are stored, so those signs would land on the wrong side. This moves each pre-base
sign in front of its consonant cluster and splits the two-part signs into their halves. It does
not form conjuncts (a virama stays visible), which only a shaper can do: the name stays
readable, if plainer than a shaper would draw it.
"""

from __future__ import annotations

import unicodedata

# Vowel signs drawn before the consonant cluster they follow in the text.
PRE_BASE = frozenset(
    "\u093f\u094e"  # Devanagari i, prishthamatra e
    "\u09bf\u09c7\u09c8"  # Bengali i, e, ai
    "\u0bc6\u0bc7\u0bc8"  # Tamil e, ee, ai
    "\u17c1\u17c2\u17c3"  # Khmer e, ae, ai
)
# Two-part vowel signs: the part before the cluster and the part after it (their canonical
# decompositions).
TWO_PART = {
    "\u09cb": "\u09c7\u09be",  # Bengali o
    "\u09cc": "\u09c7\u09d7",  # Bengali au
    "\u0bca": "\u0bc6\u0bbe",  # Tamil o
    "\u0bcb": "\u0bc7\u0bbe",  # Tamil oo
    "\u0bcc": "\u0bc6\u0bd7",  # Tamil au
}
# The sign that joins a consonant to the next in a cluster (virama; Khmer's coeng).
JOINERS = frozenset("\u094d\u09cd\u0bcd\u17d2")
NUKTAS = frozenset("\u093c\u09bc")


def reorder(text: str) -> str:
    """``text`` with pre-base vowel signs moved before their consonant clusters."""
    out: list[str] = []
    for char in "".join(TWO_PART.get(c, c) for c in text):
        if char in PRE_BASE:
            out.insert(_cluster_start(out), char)
        else:
            out.append(char)
    return "".join(out)


def _cluster_start(chars: list[str]) -> int:
    """Where the consonant cluster ending ``chars`` starts (``len(chars)`` when it does not
    end in a consonant: the sign then stays where it was written)."""
    i = _consonant_before(chars, len(chars))
    if i is None:
        return len(chars)
    while i >= 2 and chars[i - 1] in JOINERS:
        earlier = _consonant_before(chars, i - 1)
        if earlier is None:
            break
        i = earlier
    return i


def _consonant_before(chars: list[str], end: int) -> int | None:
    """The index of the consonant (with its nukta) that ends ``chars[:end]``, if one does."""
    i = end - 1
    while i >= 0 and chars[i] in NUKTAS:
        i -= 1
    if i >= 0 and unicodedata.category(chars[i]) == "Lo":
        return i
    return None
