"""Emoji sequences (flags, keycaps, ZWJ sequences) swapped for the bundled font's stand-ins.

The bundled emoji font maps each sequence it draws to a private-use character (see
``bench/make_fonts.py``), because a renderer without OpenType shaping cannot reach a ligature.
Skin-tone modifiers are dropped (the font was cut without them): the plain emoji shows instead.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

SEQUENCE_BASE = 0xF0000  # the stand-in of line i of the sequence list is SEQUENCE_BASE + i
EMOJI_STYLE = "\ufe0f"  # variation selector 16: "draw the character before me as an emoji"
TEXT_STYLE = "\ufe0e"
_SKIN_TONES = frozenset(map(chr, range(0x1F3FB, 0x1F400)))
# Characters below U+1F000 that are emoji by default, without EMOJI_STYLE (Unicode's
# Emoji_Presentation property); above it the emoji font is preferred for whatever it has.
# fmt: off
_EMOJI_BY_DEFAULT_RANGES = (
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3),
    (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
    (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
    (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
    (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
    (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
    (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
)
# fmt: on
_EMOJI_BY_DEFAULT = frozenset(
    chr(code) for low, high in _EMOJI_BY_DEFAULT_RANGES for code in range(low, high + 1)
)


@lru_cache(maxsize=1)
def _sequences() -> tuple[dict[str, str], int]:
    """Each sequence (without EMOJI_STYLE) to its stand-in, and the longest sequence's length."""
    listing = resources.files("bot.render").joinpath("fonts", "NotoColorEmoji.sequences.txt")
    table = {}
    for i, line in enumerate(listing.read_text(encoding="ascii").splitlines()):
        table["".join(chr(int(code, 16)) for code in line.split())] = chr(SEQUENCE_BASE + i)
    return table, max(map(len, table), default=0)


def is_stand_in(char: str) -> bool:
    """Whether ``char`` stands for an emoji sequence (a private-use character of ours)."""
    return SEQUENCE_BASE <= ord(char) < SEQUENCE_BASE + len(_sequences()[0])


def prefers_emoji(char: str) -> bool:
    """Whether ``char`` is drawn as an emoji even without EMOJI_STYLE after it."""
    return ord(char) >= 0x1F000 or char in _EMOJI_BY_DEFAULT


def substitute(text: str) -> str:
    """``text`` with every known emoji sequence replaced by its stand-in.

    Private-use characters already in ``text`` are removed first, so a name cannot fake a
    stand-in. EMOJI_STYLE stays after a single character (it picks the emoji font for it).
    """
    chars = [c for c in text if not _private(c)]
    if all(ord(c) < 0x2000 for c in chars):
        return "".join(chars)  # nothing here can start an emoji sequence
    table, longest = _sequences()
    out: list[str] = []
    i = 0
    while i < len(chars):
        if chars[i] in _SKIN_TONES and out and out[-1] != " ":
            i += 1
            continue
        match = _longest_match(chars, i, table, longest)
        if match:
            stand_in, i = match
            out.append(stand_in)
        else:
            out.append(chars[i])
            i += 1
    return "".join(out)


def _longest_match(
    chars: list[str], start: int, table: dict[str, str], longest: int
) -> tuple[str, int] | None:
    """The stand-in of the longest sequence at ``start`` and the index after it, if any.

    Style selectors and skin tones inside a sequence are skipped when matching.
    """
    key = ""
    found = None
    i = start
    while i < len(chars) and len(key) < longest:
        char = chars[i]
        i += 1
        if char in (EMOJI_STYLE, TEXT_STYLE) or (char in _SKIN_TONES and key):
            continue
        key += char
        if len(key) > 1 and key in table:
            found = (table[key], i)
    if found and found[1] < len(chars) and chars[found[1]] == EMOJI_STYLE:
        found = (found[0], found[1] + 1)  # a trailing selector belongs to the sequence
    return found


def _private(char: str) -> bool:
    code = ord(char)
    return 0xE000 <= code <= 0xF8FF or code >= 0xF0000
