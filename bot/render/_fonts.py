"""The bundled DejaVu fonts, glyph fallback, truncation with an ellipsis, thread-safe drawing."""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

ELLIPSIS = "…"
MISSING = "?"  # stands in for a character the font cannot draw (emoji, CJK, ...)

# FreeType faces are not safe to use from two threads at once, and the bot renders from a
# thread pool, so every measurement and every rasterisation goes through this lock.
_LOCK = threading.Lock()


@lru_cache(maxsize=16)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels, loaded from the package (never from the system)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("bot.render").joinpath("fonts", name).read_bytes()
    # The basic layout engine needs no libraqm, so the same text gives the same pixels on
    # every machine that has this Pillow, with or without the optional shaping libraries.
    return ImageFont.truetype(BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def _notdef_mask() -> tuple[tuple[int, int], bytes]:
    # A private-use code point no font maps: whatever it draws is the "missing glyph" box.
    return _mask(font(32), "\U0010fffd")


def _mask(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    # Both fonts cover the same characters, so asking the regular one is enough.
    with _LOCK:
        return _mask(font(32), char) != _notdef_mask()


@lru_cache(maxsize=256)
def clean(text: str) -> str:
    """``text`` with control/format characters dropped and undrawable ones replaced by ``?``.

    Discord names may hold emoji, CJK or right-to-left marks the bundled font lacks; a question
    mark keeps the name's length recognisable instead of showing empty boxes.
    """
    out: list[str] = []
    for char in " ".join(text.split()):
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        if char == " " or _drawable(char):
            out.append(char)
        elif category.startswith("M"):
            continue  # a combining mark the font lacks: its base already shows
        elif char not in "\ufe0e\ufe0f":
            out.append(MISSING)
    return "".join(out)


@lru_cache(maxsize=1024)
def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut to at most ``width`` pixels, ending in an ellipsis when it was cut."""
    with _LOCK:
        if face.getlength(text) <= width:
            return text
        low, high = 0, len(text)
        while low < high:  # the longest prefix that still fits with the ellipsis
            mid = (low + high + 1) // 2
            if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
                low = mid
            else:
                high = mid - 1
        return text[:low].rstrip() + ELLIPSIS


@lru_cache(maxsize=1024)
def length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """Advance width of ``text`` in pixels."""
    with _LOCK:
        return face.getlength(text)


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    anchor: str = "ls",
) -> None:
    """Draw ``text`` (already cleaned) on ``image`` with its ``anchor`` at ``xy`` (rounded)."""
    mask, (left, top) = _text_mask(text, face, anchor)
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


@lru_cache(maxsize=1024)
def _text_mask(
    text: str, face: ImageFont.FreeTypeFont, anchor: str
) -> tuple[Image.Image, tuple[int, int]]:
    """The anti-aliased coverage of ``text`` and its offset from the anchor point.

    Names, labels and numbers repeat from one render (and replay frame) to the next, so
    rasterising each once is a real saving; pasting a colour through the mask gives the same
    pixels as drawing the text.
    """
    with _LOCK:
        left, top, right, bottom = face.getbbox(text, anchor=anchor)
        mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, (left, top)
