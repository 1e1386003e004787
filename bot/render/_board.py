"""The static part of every image: frame, board, camps, lines, points and coordinates.

It depends only on the theme, the layout's lines and the perspective, so it is drawn once,
supersampled for anti-aliasing, and cached. Callers get the cached image and must copy it
before drawing on it.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.jarmo.position import Side
from bot.render import _fonts
from bot.render._theme import (
    BOARD_H,
    BOARD_MARGIN_X,
    BOARD_TOP,
    COLUMNS,
    HEIGHT,
    PIECE_R,
    ROWS,
    SPACING,
    WIDTH,
    Perspective,
    Theme,
    point_center,
)

_SCALE = 3
PANEL_INSET = 8
CAMP_HALF_H = 46
CAMP_HALF_W = 2 * SPACING + 54
LINE_W = 3
DOT_R = 6


@lru_cache(maxsize=16)
def background(
    theme: Theme, lines: tuple[tuple[str, str], ...], perspective: Perspective
) -> Image.Image:
    """The cached background image (RGB, ``WIDTH`` x ``HEIGHT``); never draw on it in place."""
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.frame)
    image.paste(_board(theme, lines, perspective), (0, BOARD_TOP))
    _coordinates(image, theme, perspective)
    return image


def _board(
    theme: Theme, lines: tuple[tuple[str, str], ...], perspective: Perspective
) -> Image.Image:
    """The board panel without labels. Black's view is White's turned half round, so both
    sides get exactly the same pixels, whatever rounding Pillow does when drawing."""
    big = Image.new("RGB", (WIDTH * _SCALE, BOARD_H * _SCALE), theme.frame)
    draw = ImageDraw.Draw(big)
    _panel(draw, theme)
    _camps(draw, theme)
    for a, b in lines:
        draw.line(_big(a) + _big(b), fill=theme.line, width=LINE_W * _SCALE)
    r = DOT_R * _SCALE
    for col in COLUMNS:
        for row in ROWS:
            x, y = _big(col + row)
            draw.ellipse((x - r, y - r, x + r - 1, y + r - 1), fill=theme.dot)
    if perspective == "black":
        big = big.transpose(Image.Transpose.ROTATE_180)
    return big.resize((WIDTH, BOARD_H), Image.Resampling.LANCZOS)


def _big(point: str) -> tuple[int, int]:
    """``point``'s centre from White's side, in supersampled pixels of the board panel."""
    x, y = point_center(point, "white")
    return x * _SCALE, (y - BOARD_TOP) * _SCALE


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """A rectangle covering ``[x0, x1) x [y0, y1)`` in final pixels, in supersampled pixels
    (Pillow's rectangles include their last row and column)."""
    return x0 * _SCALE, y0 * _SCALE, x1 * _SCALE - 1, y1 * _SCALE - 1


def _panel(draw: ImageDraw.ImageDraw, theme: Theme) -> None:
    box = (PANEL_INSET, PANEL_INSET, WIDTH - PANEL_INSET, BOARD_H - PANEL_INSET)
    draw.rounded_rectangle(
        _box(*box), radius=16 * _SCALE, fill=theme.board, outline=theme.board_edge, width=2 * _SCALE
    )


def _camps(draw: ImageDraw.ImageDraw, theme: Theme) -> None:
    # A tinted band behind each camp row makes the goal rows obvious at a glance.
    camp_rows: tuple[tuple[Side, str], ...] = (("white", "1"), ("black", "5"))
    for side, row in camp_rows:
        x, y = (v / _SCALE for v in _big("C" + row))
        box = (x - CAMP_HALF_W, y - CAMP_HALF_H, x + CAMP_HALF_W, y + CAMP_HALF_H)
        draw.rounded_rectangle(
            _box(*box),
            radius=(PIECE_R + 6) * _SCALE,
            fill=theme.camp[side],
            outline=theme.camp_label[side],
            width=2 * _SCALE,
        )


def _coordinates(image: Image.Image, theme: Theme, perspective: Perspective) -> None:
    face = _fonts.font(18, bold=True)
    label_x = (PANEL_INSET + BOARD_MARGIN_X - CAMP_HALF_W + 2 * SPACING) / 2
    for row in ROWS:
        _, y = point_center("A" + row, perspective)
        _fonts.draw_text(image, (label_x, y), row, face, theme.coord, anchor="mm")
    _, bottom = point_center("A1" if perspective == "white" else "A5", perspective)
    label_y = (bottom + CAMP_HALF_H + BOARD_TOP + BOARD_H - PANEL_INSET) / 2
    for col in COLUMNS:
        x, _ = point_center(col + "1", perspective)
        _fonts.draw_text(image, (x, label_y), col, face, theme.coord, anchor="mm")
