"""A game review's evaluation graph (PNG): White's expected game points after each move, from
0 (Black wins) to 1 (White wins), with the mistakes and blunders marked.

Drawn like the rating chart (``_chart.py``): at twice the size, then reduced; the same values
always give the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.render._fonts import clean, draw_text, fit, font
from bot.render._words import ENGLISH, ImageWords

GRAPH_WIDTH, GRAPH_HEIGHT = 560, 240
_SCALE = 2
_BACKGROUND = (35, 38, 44)
_GRID = (64, 69, 79)
_AXIS_TEXT = (160, 166, 176)
_TITLE = (240, 241, 243)
_WHITE_AREA = (214, 216, 220)
_BLACK_AREA = (20, 22, 26)
_LOWER_TEXT = (104, 110, 120)
_LINE = (255, 176, 32)
#: The colour of each marked kind of move (the labels of ``bot.ai.review``).
MARKS: Mapping[str, tuple[int, int, int]] = {"mistake": (255, 140, 40), "blunder": (236, 64, 64)}
_LEFT, _RIGHT, _TOP, _BOTTOM = 24, 24, 44, 30


def render_review_graph(
    values: Sequence[float],
    marks: Mapping[int, str],
    *,
    sides: tuple[str, str] = ("White", "Black"),
    title: str = "",
    words: ImageWords = ENGLISH,
) -> bytes:
    """PNG of ``values`` (White's expected game points after 0, 1, 2, ... plies, each 0..1),
    with a dot on each ply of ``marks`` (ply -> ``"mistake"`` or ``"blunder"``). ``sides`` are
    the sides' English colour names, put in ``words``.

    Raises ``ValueError`` with fewer than two values or one outside 0..1.
    """
    if len(values) < 2:
        raise ValueError(f"a graph needs at least two values, got {len(values)}")
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in values):
        raise ValueError("graph values must lie between 0 and 1")
    s = _SCALE
    image = Image.new("RGB", (GRAPH_WIDTH * s, GRAPH_HEIGHT * s), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = _plot_box()
    points = _points(values)
    middle = (top + bottom) / 2
    draw.rectangle((left, top, right, bottom), fill=_BLACK_AREA)
    draw.polygon([(left, bottom), *points, (right, bottom)], fill=_WHITE_AREA)
    draw.line((left, middle, right, middle), fill=_GRID, width=s)
    draw.line(points, fill=_LINE, width=2 * s, joint="curve")
    for ply, kind in sorted(marks.items()):
        if 0 < ply < len(points) and kind in MARKS:
            x, y = points[ply]
            draw.ellipse((x - 5 * s, y - 5 * s, x + 5 * s, y + 5 * s), fill=MARKS[kind])
    _texts(image, len(values) - 1, sides, title, words)
    image = image.reduce(_SCALE)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _plot_box() -> tuple[int, int, int, int]:
    s = _SCALE
    return _LEFT * s, _TOP * s, (GRAPH_WIDTH - _RIGHT) * s, (GRAPH_HEIGHT - _BOTTOM) * s


def _points(values: Sequence[float]) -> list[tuple[float, float]]:
    left, top, right, bottom = _plot_box()
    dx = (right - left) / (len(values) - 1)
    return [(left + i * dx, bottom - v * (bottom - top)) for i, v in enumerate(values)]


def _texts(
    image: Image.Image, plies: int, sides: tuple[str, str], title: str, words: ImageWords
) -> None:
    s = _SCALE
    left, top, right, bottom = _plot_box()
    face, bold = font(12 * s), font(14 * s, bold=True)
    legend_x = right
    for kind in ("blunder", "mistake"):
        name = clean(words.review_blunder if kind == "blunder" else words.review_mistake)
        draw_text(image, (legend_x, 24 * s), name, face, MARKS[kind], anchor="rs")
        legend_x -= (len(name) * 8 + 24) * s
    if title:
        room = legend_x - left - 8 * s
        if room > 0:
            draw_text(image, (left, 24 * s), fit(clean(title), bold, room), bold, _TITLE)
    white, black = (clean(words.review_ahead.format(side=words.colour(side))) for side in sides)
    # Grey reads on either area, whichever the line leaves under each label.
    draw_text(image, (left + 6 * s, top + 16 * s), white, face, _AXIS_TEXT)
    draw_text(image, (left + 6 * s, bottom - 6 * s), black, face, _LOWER_TEXT)
    start = clean(words.start)
    end = clean(words.move_number.format(number=plies))
    draw_text(image, (left, bottom + 20 * s), start, face, _AXIS_TEXT, anchor="ls")
    draw_text(image, (right, bottom + 20 * s), end, face, _AXIS_TEXT, anchor="rs")
