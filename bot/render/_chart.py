"""A small line chart of a player's rating over their latest games (PNG).

Drawn at twice the size and scaled down, so the line is smooth without relying on anti-aliased
drawing; the same values always give the same bytes (no timestamps, fixed fonts and colours).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render._fonts import clean, draw_text, fit, font, length
from bot.render._words import ENGLISH, ImageWords

CHART_WIDTH, CHART_HEIGHT = 560, 220
_SCALE = 2  # drawn at twice the size, then reduced
_BACKGROUND = (35, 38, 44)  # the board images' frame colour, so the two sit well together
_GRID = (64, 69, 79)
_AXIS_TEXT = (160, 166, 176)
_TITLE = (240, 241, 243)
_LINE = (255, 176, 32)
_UP, _DOWN = (92, 200, 120), (236, 96, 96)
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 24, 40, 30  # plot margins at 1x


def render_rating_chart(
    values: Sequence[float], *, title: str = "", words: ImageWords = ENGLISH
) -> bytes:
    """PNG of ``values`` (ratings, oldest first) as a line with its scale and the last value,
    labelled in ``words``.

    Raises ``ValueError`` with fewer than two values or a value that is not finite.
    """
    if len(values) < 2:
        raise ValueError(f"a chart needs at least two values, got {len(values)}")
    if not all(math.isfinite(v) for v in values):
        raise ValueError("chart values must be finite numbers")
    s = _SCALE
    image = Image.new("RGB", (CHART_WIDTH * s, CHART_HEIGHT * s), _BACKGROUND)
    low, high, step = _scale(min(values), max(values))
    _grid(image, low, high, step)
    points = _points(values, low, high)
    draw = ImageDraw.Draw(image)
    draw.line(points, fill=_LINE, width=3 * s, joint="curve")
    for x, y in points[-1:]:
        colour = _UP if values[-1] >= values[0] else _DOWN
        draw.ellipse((x - 5 * s, y - 5 * s, x + 5 * s, y + 5 * s), fill=colour)
    _titles(image, values, title, words)
    image = image.reduce(_SCALE)  # a box filter: smooth enough at 2x, and 6x faster than Lanczos
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _scale(low: float, high: float) -> tuple[float, float, float]:
    """A rounded range covering ``low``..``high`` and a tidy step for 3-5 grid lines."""
    span = max(high - low, 10.0)
    raw = span / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    bottom = math.floor(low / step) * step
    top = max(math.ceil(high / step) * step, bottom + step)
    return bottom, top, step


def _plot_box() -> tuple[int, int, int, int]:
    s = _SCALE
    return _LEFT * s, _TOP * s, (CHART_WIDTH - _RIGHT) * s, (CHART_HEIGHT - _BOTTOM) * s


def _points(values: Sequence[float], low: float, high: float) -> list[tuple[float, float]]:
    left, top, right, bottom = _plot_box()
    dx = (right - left) / (len(values) - 1)
    return [
        (left + i * dx, bottom - (value - low) / (high - low) * (bottom - top))
        for i, value in enumerate(values)
    ]


def _grid(image: Image.Image, low: float, high: float, step: float) -> None:
    left, top, right, bottom = _plot_box()
    draw = ImageDraw.Draw(image)
    face = font(12 * _SCALE)
    lines = round((high - low) / step)
    for i in range(lines + 1):
        value = low + i * step
        y = bottom - i * (bottom - top) / lines
        draw.line((left, y, right, y), fill=_GRID, width=_SCALE)
        draw_text(image, (left - 8 * _SCALE, y), f"{value:.0f}", face, _AXIS_TEXT, anchor="rm")


def _titles(image: Image.Image, values: Sequence[float], title: str, words: ImageWords) -> None:
    s = _SCALE
    left, _, right, bottom = _plot_box()
    face, bold = font(13 * s), font(14 * s, bold=True)
    change = round(values[-1]) - round(values[0])
    summary = clean(
        words.chart_summary.format(
            rating=f"{values[-1]:.0f}",
            change=f"{change:+d}",
            games=words.games_count(len(values) - 1),
        )
    )
    draw_text(image, (right, 24 * s), summary, bold, _UP if change >= 0 else _DOWN, anchor="rs")
    room = right - left - length(summary, bold) - 16 * s
    if title and room > 0:
        draw_text(image, (left, 24 * s), fit(clean(title), bold, room), bold, _TITLE)
    older, latest = clean(words.chart_older), clean(words.chart_latest)
    draw_text(image, (left, bottom + 20 * s), older, face, _AXIS_TEXT, anchor="ls")
    draw_text(image, (right, bottom + 20 * s), latest, face, _AXIS_TEXT, anchor="rs")
