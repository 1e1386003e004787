"""Text in the images: bundled fonts, per-character fallback, truncation, thread-safe drawing.

DejaVu Sans draws Latin, Greek, Cyrillic, Hebrew, Georgian, Armenian and Arabic; a Noto Sans
CJK subset draws common Chinese, Japanese and all of Korean; Noto Sans subsets draw Thai,
Devanagari, Bengali, Tamil, Ethiopic and Khmer (and the few Georgian, Armenian and Hebrew
characters DejaVu lacks); a Noto Color Emoji subset draws emoji. Each character is drawn by the
first of them that has it (emoji by the emoji font first), in runs.

Arabic is put in its joined forms and right-to-left text in display order here, so those never
depend on Pillow's optional shaping (libraqm with FriBiDi). The Brahmic scripts and Khmer cannot
be drawn right without a shaper (vowel signs written before their consonant, conjuncts,
stacked marks): their runs are shaped by libraqm where Pillow has it, and otherwise drawn
letter by letter with only their pre-base vowel signs moved in front (``_indic``), readable
though without conjuncts. Everything else uses the basic layout, the same pixels everywhere.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache
from importlib import resources
from io import BytesIO
from typing import Literal

from PIL import Image, ImageDraw, ImageFont, features

from bot.render import _arabic, _bidi, _emoji, _indic

ELLIPSIS = "…"
Slot = Literal[
    "text",
    "cjk",
    "thai",
    "devanagari",
    "bengali",
    "tamil",
    "ethiopic",
    "khmer",
    "georgian",
    "armenian",
    "hebrew",
    "emoji",
]
# Each fallback is one weight, bold: names are drawn bold. The Georgian, Armenian and Hebrew
# ones hold only what DejaVu lacks, so they come after it and a name keeps one style.
_FALLBACK_FILES: dict[Slot, str] = {
    "cjk": "NotoSansCJKsc-Bold.subset.otf",
    "thai": "NotoSansThai-Bold.subset.ttf",
    "devanagari": "NotoSansDevanagari-Bold.subset.ttf",
    "bengali": "NotoSansBengali-Bold.subset.ttf",
    "tamil": "NotoSansTamil-Bold.subset.ttf",
    "ethiopic": "NotoSansEthiopic-Bold.subset.ttf",
    "khmer": "NotoSansKhmer-Bold.subset.ttf",
    "georgian": "NotoSansGeorgian-Bold.subset.ttf",
    "armenian": "NotoSansArmenian-Bold.subset.ttf",
    "hebrew": "NotoSansHebrew-Bold.subset.ttf",
}
CHAIN: tuple[Slot, ...] = ("text", *_FALLBACK_FILES, "emoji")
# Scripts that need a shaper to look right; shaped where Pillow has libraqm (see above).
COMPLEX: frozenset[Slot] = frozenset({"thai", "devanagari", "bengali", "tamil", "khmer"})
SHAPING = bool(features.check_feature("raqm"))
_EMOJI_FILE = "NotoColorEmoji.subset.ttf"
_EMOJI_PPEM = 32  # the one bitmap size in the emoji font; scaled to the text size
_EMOJI_SCALE = 0.92  # the emoji's em a little under the text's: it sits with the capitals
_PROBE = 32  # size at which coverage is checked
_NOWHERE = "\U0010fffd"  # a private-use code point no font maps: it draws the "missing" glyph

# FreeType faces are not safe to use from two threads at once, and the bot renders from a
# thread pool, so every measurement and every rasterisation goes through this lock.
_LOCK = threading.RLock()

Layers = tuple[Image.Image, Image.Image | None, tuple[int, int]]


@lru_cache(maxsize=8)
def _file(name: str) -> bytes:
    return resources.files("bot.render").joinpath("fonts", name).read_bytes()


@lru_cache(maxsize=16)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels, loaded from the package (never from the system)."""
    return _load("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)


@lru_cache(maxsize=64)
def _fallback(slot: Slot, size: int, *, shaped: bool = True) -> ImageFont.FreeTypeFont:
    """The font of ``slot`` at ``size``; a complex script's is shaped where Pillow can (unless
    ``shaped=False``, for coverage checks: a shaper draws a missing mark on a dotted circle,
    which would pass for a glyph)."""
    return _load(_FALLBACK_FILES[slot], size, shaped=shaped and SHAPING and slot in COMPLEX)


@lru_cache(maxsize=1)
def _emoji_face() -> ImageFont.FreeTypeFont:
    return _load(_EMOJI_FILE, _EMOJI_PPEM)


def _load(name: str, size: int, *, shaped: bool = False) -> ImageFont.FreeTypeFont:
    # The basic layout engine needs no libraqm, so the same text gives the same pixels on
    # every machine that has this Pillow, with or without the optional shaping libraries.
    layout = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
    return ImageFont.truetype(BytesIO(_file(name)), size, layout_engine=layout)


def _probe_face(slot: Slot) -> ImageFont.FreeTypeFont:
    if slot == "text":  # both DejaVu weights cover the same characters
        return font(_PROBE)
    return _emoji_face() if slot == "emoji" else _fallback(slot, _PROBE, shaped=False)


def _glyph(face: ImageFont.FreeTypeFont, char: str) -> tuple[object, ...]:
    mask = face.getmask(char)
    return face.getbbox(char), mask.size, bytes(mask)


@lru_cache(maxsize=8)
def _missing(slot: Slot) -> tuple[object, ...]:
    with _LOCK:
        return _glyph(_probe_face(slot), _NOWHERE)


@lru_cache(maxsize=8192)
def covers(slot: Slot, char: str) -> bool:
    """Whether the font in ``slot`` has a glyph of its own for ``char`` (not the empty box)."""
    with _LOCK:
        return _glyph(_probe_face(slot), char) != _missing(slot)


def _drawable(char: str) -> bool:
    return any(covers(slot, char) for slot in CHAIN)


@lru_cache(maxsize=256)
def clean(text: str) -> str:
    """``text`` ready to draw: one line, formatting characters gone, emoji sequences swapped
    for the emoji font's stand-ins, and each run of characters no font has made an ellipsis.

    Returns ``""`` when nothing drawable is left (the caller then shows something else).
    """
    out: list[str] = []
    for char in _emoji.substitute(" ".join(text.split())):
        category = unicodedata.category(char)
        if char == _emoji.EMOJI_STYLE:
            if out and covers("emoji", out[-1]):
                out.append(char)
        elif _invisible(char, category):
            continue
        elif char == " " or _drawable(char):
            out.append(char)
        elif category.startswith("M"):
            continue  # a mark no font has: its base still shows
        elif not out or out[-1] != ELLIPSIS:
            out.append(ELLIPSIS)
    shown = "".join(out).strip()
    return shown if shown.strip(ELLIPSIS + " ") else ""


def _invisible(char: str, category: str) -> bool:
    """Control, format, unassigned and private characters (but our emoji stand-ins)."""
    if category == "Co":
        return not _emoji.is_stand_in(char)
    return category in ("Cc", "Cf", "Cs", "Cn") or char == _emoji.TEXT_STYLE


@lru_cache(maxsize=1024)
def _runs(text: str) -> tuple[tuple[Slot, str], ...]:
    """``text`` (cleaned) as runs of one font each, in display order, left to right."""
    if text.isascii():
        return (("text", text),)
    shaped = _arabic.shape(text, lambda c: covers("text", c))
    chars, slots = _assign(shaped)
    if _bidi.needs_reordering(chars):
        order = _bidi.visual_order(chars, _bidi_class)
        chars = [_bidi.mirrored(chars[i]) if rtl else chars[i] for i, rtl in order]
        slots = [slots[i] for i, _ in order]
    runs: list[tuple[Slot, str]] = []
    for char, slot in zip(chars, slots, strict=True):
        if runs and runs[-1][0] == slot:
            runs[-1] = (slot, runs[-1][1] + char)
        else:
            runs.append((slot, char))
    if not SHAPING:
        runs = [(slot, _indic.reorder(run) if slot in COMPLEX else run) for slot, run in runs]
    return tuple(runs)


def _assign(text: str) -> tuple[list[str], list[Slot]]:
    """Each character (style selectors dropped) and the font that draws it."""
    chars: list[str] = []
    slots: list[Slot] = []
    for i, char in enumerate(text):
        if char == _emoji.EMOJI_STYLE:
            continue
        styled = text[i + 1 : i + 2] == _emoji.EMOJI_STYLE
        wants_emoji = styled or _emoji.is_stand_in(char) or _emoji.prefers_emoji(char)
        if wants_emoji and covers("emoji", char):
            slot: Slot = "emoji"
        elif unicodedata.category(char).startswith("M") and slots and covers(slots[-1], char):
            slot = slots[-1]  # a mark goes with its base
        else:
            slot = next((s for s in CHAIN if covers(s, char)), "text")
        chars.append(char)
        slots.append(slot)
    return chars, slots


def _bidi_class(char: str) -> str:
    return "ON" if _emoji.is_stand_in(char) else unicodedata.bidirectional(char)


@lru_cache(maxsize=1024)
def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` (cleaned) cut to at most ``width`` pixels, ending in an ellipsis when cut."""
    if length(text, face) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that still fits with the ellipsis
        mid = (low + high + 1) // 2
        if length(text[:mid].rstrip() + ELLIPSIS, face) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS


@lru_cache(maxsize=1024)
def length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """Advance width of ``text`` (cleaned) in pixels."""
    with _LOCK:
        return sum(_run_length(slot, run, face) for slot, run in _runs(text))


def _run_length(slot: Slot, run: str, face: ImageFont.FreeTypeFont) -> float:
    if slot == "emoji":
        return sum(_emoji_sprite(char, _size(face))[2] for char in run)
    return _face_for(slot, face).getlength(run)


def _face_for(slot: Slot, face: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    return face if slot == "text" else _fallback(slot, _size(face))


def _size(face: ImageFont.FreeTypeFont) -> int:
    return round(face.size)


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    anchor: str = "ls",
) -> None:
    """Draw ``text`` (already cleaned) on ``image`` with its ``anchor`` at ``xy`` (rounded).

    Text is painted in ``fill``; emoji keep their own colours.
    """
    mask, colour, (left, top) = _text_layers(text, face, anchor)
    origin = (round(xy[0]) + left, round(xy[1]) + top)
    image.paste(fill, origin, mask)
    if colour is not None:
        image.paste(colour, origin, colour)


@lru_cache(maxsize=1024)
def _text_layers(text: str, face: ImageFont.FreeTypeFont, anchor: str) -> Layers:
    """The anti-aliased coverage of ``text``, its colour layer (emoji) if any, and their offset
    from the anchor point.

    Names, labels and numbers repeat from one render (and replay frame) to the next, so
    rasterising each once is a real saving; pasting a colour through the mask gives the same
    pixels as drawing the text.
    """
    runs = _runs(text)
    if len(runs) == 1 and runs[0][0] != "emoji":
        return _plain_layers(runs[0][1], _face_for(runs[0][0], face), anchor)
    return _mixed_layers(runs, face, anchor)


def _plain_layers(text: str, face: ImageFont.FreeTypeFont, anchor: str) -> Layers:
    with _LOCK:
        left, top, right, bottom = _pixel_box(face, text, anchor)
        mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, None, (left, top)


def _pixel_box(face: ImageFont.FreeTypeFont, text: str, anchor: str) -> tuple[int, int, int, int]:
    """``face.getbbox`` in whole pixels: Pillow types it as float for stroked text, but without
    a stroke every edge is a whole pixel, so rounding changes nothing."""
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    return round(left), round(top), round(right), round(bottom)


def _mixed_layers(
    runs: tuple[tuple[Slot, str], ...], face: ImageFont.FreeTypeFont, anchor: str
) -> Layers:
    """Runs from several fonts on one baseline: glyph masks, emoji colour sprites."""
    pieces: list[tuple[bool, Image.Image, int, int]] = []  # (is colour, image, x, y)
    x = 0.0
    with _LOCK:
        for slot, run in runs:
            if slot == "emoji":
                for char in run:
                    sprite, (dx, dy), advance = _emoji_sprite(char, _size(face))
                    pieces.append((True, sprite, round(x) + dx, dy))
                    x += advance
                continue
            run_face = _face_for(slot, face)
            mask, _, (left, top) = _plain_layers(run, run_face, "ls")
            pieces.append((False, mask, round(x) + left, top))
            x += run_face.getlength(run)
        shift_x = {"l": 0.0, "m": -x / 2, "r": -x}[anchor[0]]
        shift_y = _baseline_shift(face, anchor[1])
    left = min(p[2] for p in pieces)
    top = min(p[3] for p in pieces)
    right = max(p[2] + p[1].width for p in pieces)
    bottom = max(p[3] + p[1].height for p in pieces)
    mask = Image.new("L", (right - left, bottom - top), 0)
    colour = None
    for is_colour, piece, px, py in pieces:
        if is_colour:
            colour = colour or Image.new("RGBA", mask.size, (0, 0, 0, 0))
            colour.alpha_composite(piece, (px - left, py - top))
        else:
            mask.paste(255, (px - left, py - top), piece)
    return mask, colour, (left + round(shift_x), top + shift_y)


@lru_cache(maxsize=8)
def _baseline_shift_cached(face: ImageFont.FreeTypeFont, vertical: str) -> int:
    return _pixel_box(face, "x", "l" + vertical)[1] - _pixel_box(face, "x", "ls")[1]


def _baseline_shift(face: ImageFont.FreeTypeFont, vertical: str) -> int:
    """How far the ``vertical`` anchor (``s`` baseline, ``m`` middle, ...) moves the text."""
    return 0 if vertical == "s" else _baseline_shift_cached(face, vertical)


@lru_cache(maxsize=512)
def _emoji_sprite(char: str, size: int) -> tuple[Image.Image, tuple[int, int], float]:
    """An emoji in colour at text ``size``: the image, its offset from the pen position on
    the baseline, and the advance."""
    face = _emoji_face()
    with _LOCK:
        left, top, right, bottom = _pixel_box(face, char, "ls")
        big = Image.new("RGBA", (max(right - left, 1), max(bottom - top, 1)), (0, 0, 0, 0))
        ImageDraw.Draw(big).text((-left, -top), char, font=face, anchor="ls", embedded_color=True)
        advance = face.getlength(char)
    scale = size * _EMOJI_SCALE / _EMOJI_PPEM
    width, height = max(1, round(big.width * scale)), max(1, round(big.height * scale))
    sprite = big.resize((width, height), Image.Resampling.LANCZOS)
    return sprite, (round(left * scale), round(top * scale)), advance * scale
