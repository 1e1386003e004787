"""Anti-aliased sprites (pieces, highlights, arrows, badges), drawn supersampled and cached.

Pasting a ready RGBA sprite is far cheaper than drawing shapes per render. The cached sprites
are only ever read (pasted from), so sharing them between threads is safe.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.jarmo.position import PieceKind, Side
from bot.render._theme import PIECE_R, RGB, SUPERSAMPLE, Theme

Point = tuple[float, float]
EDGE_W = 3  # outline width at 1x
HALO_R = PIECE_R + 7
BADGE_R = 13
BADGE_OFFSET = round(PIECE_R * 0.74)  # badge centre, diagonally off the piece centre
ORIGIN_ALPHA = 150


def _render(size: int, paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """A ``size`` x ``size`` RGBA sprite; ``paint`` draws at SUPERSAMPLE around the centre given.

    ``size`` is even, so the centre is a pixel corner and a disc drawn with :func:`_disc` is
    exactly symmetric: the same piece looks the same from either side of the board.
    """
    big = Image.new("RGBA", (size * SUPERSAMPLE, size * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), size * SUPERSAMPLE // 2)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _disc(draw: ImageDraw.ImageDraw, c: int, r: float, fill: tuple[int, ...]) -> None:
    """A disc around the pixel corner ``(c, c)`` (Pillow's boxes include their last pixel)."""
    r = round(r)
    draw.ellipse((c - r, c - r, c + r - 1, c + r - 1), fill=fill)


def _shield(c: float, r: float) -> list[Point]:
    """A heater shield of half-width about ``r`` around ``(c, c)``: the guard's silhouette."""
    top, shoulder, half = -0.84 * r, 0.02 * r, 0.84 * r
    outline = [(-half, top), (half, top), (half, shoulder)]
    steps = 12
    for i in range(1, steps + 1):  # quadratic curve from the shoulder down to the point
        t = i / steps
        x = (1 - t) ** 2 * half + 2 * (1 - t) * t * (0.8 * half)
        y = (1 - t) ** 2 * shoulder + 2 * (1 - t) * t * (0.62 * r) + t * t * (0.98 * r)
        outline.append((x, y))
    outline += [(-x, y) for x, y in reversed(outline[3:-1])]
    outline.append((-half, shoulder))
    return [(c + x, c + y) for x, y in outline]


def _scaled(points: list[Point], c: float, k: float) -> list[Point]:
    return [(c + (x - c) * k, c + (y - c) * k) for x, y in points]


def _band(c: float, half: float, reach: float) -> list[Point]:
    """A band of half-width ``half`` through ``(c, c)``, rising from bottom-left to top-right."""
    s = math.sqrt(0.5)
    ax, ay, nx, ny = reach * s, -reach * s, half * s, half * s
    return [
        (c - ax - nx, c - ay - ny),
        (c + ax - nx, c + ay - ny),
        (c + ax + nx, c + ay + ny),
        (c - ax + nx, c - ay + ny),
    ]


@lru_cache(maxsize=64)
def piece(
    theme: Theme, side: Side, kind: PieceKind, radius: int = PIECE_R, on_dark: bool = False
) -> Image.Image:
    """The sprite of one piece, ``2 * radius + 4`` pixels square, centred.

    ``on_dark`` gives it a light outline, for the icons in the dark player bars.
    """
    size = 2 * radius + 4
    outline = theme.frame_muted if on_dark else theme.piece_edge[side]

    def paint(draw: ImageDraw.ImageDraw, c: int) -> None:
        r, edge = radius * SUPERSAMPLE, max(EDGE_W * radius / PIECE_R, 1.5) * SUPERSAMPLE
        fill, ring = theme.piece_fill[side], theme.piece_ring[side]
        if kind == "guard":
            outer = _shield(c, r * 1.04)
            draw.polygon(outer, fill=outline)
            draw.polygon(_scaled(outer, c, 1 - edge / r), fill=fill)
            if side == "black":
                draw.polygon(_scaled(outer, c, 0.6), fill=ring)
                draw.polygon(_scaled(outer, c, 0.6 - 0.9 * edge / r), fill=fill)
            return
        _disc(draw, c, r, outline)
        _disc(draw, c, r - edge, fill)
        if side == "black":
            _disc(draw, c, 0.58 * r, ring)
            _disc(draw, c, 0.58 * r - 0.9 * edge, fill)

    sprite = _render(size, paint)
    return _with_stripe(sprite, theme, side, radius) if kind == "marked" else sprite


def _with_stripe(sprite: Image.Image, theme: Theme, side: Side, radius: int) -> Image.Image:
    """Lay a diagonal band across a round piece, clipped to the inside of its outline."""
    size, big = sprite.width, sprite.width * SUPERSAMPLE
    c, r = big // 2, round((radius - EDGE_W) * SUPERSAMPLE)
    clip = Image.new("L", (big, big), 0)
    ImageDraw.Draw(clip).ellipse((c - r, c - r, c + r - 1, c + r - 1), fill=255)
    out = sprite.copy()
    # Thin edge lines in the outline colour keep the band visible on a white piece too.
    for half, colour in (
        (0.3 * r + 1.5 * SUPERSAMPLE, theme.piece_edge[side]),
        (0.3 * r, theme.stripe),
    ):
        mask = Image.new("L", (big, big), 0)
        ImageDraw.Draw(mask).polygon(_band(c, half, 2 * r), fill=255)
        mask = ImageChops.multiply(mask, clip).resize((size, size), Image.Resampling.LANCZOS)
        out.paste((*colour, 255), (0, 0), mask)
    return out


@lru_cache(maxsize=8)
def halo(colour: RGB) -> Image.Image:
    """A disc a little larger than a piece, drawn under it: a coloured ring shows around it."""
    return _render(2 * HALO_R + 4, lambda d, c: _disc(d, c, HALO_R * SUPERSAMPLE, (*colour, 255)))


@lru_cache(maxsize=4)
def origin_marker(colour: RGB) -> Image.Image:
    """A translucent disc on the point a piece has just left."""
    r = PIECE_R - 4

    def paint(draw: ImageDraw.ImageDraw, c: int) -> None:
        _disc(draw, c, r * SUPERSAMPLE, (*colour, 255))
        _disc(draw, c, (r - 4) * SUPERSAMPLE, (*colour, ORIGIN_ALPHA))

    return _render(2 * r + 4, paint)


@lru_cache(maxsize=8)
def badge(colour: RGB, symbol: str) -> Image.Image:
    """A small round badge with a white ``x`` (capture) or ``+`` (placed piece)."""

    def paint(draw: ImageDraw.ImageDraw, c: int) -> None:
        s = SUPERSAMPLE
        _disc(draw, c, BADGE_R * s, (255, 255, 255, 255))
        _disc(draw, c, (BADGE_R - 2) * s, (*colour, 255))
        arm, w = 5.5 * s, round(3 * s)
        if symbol == "x":
            draw.line((c - arm, c - arm, c + arm, c + arm), fill="white", width=w)
            draw.line((c - arm, c + arm, c + arm, c - arm), fill="white", width=w)
        else:
            arm *= 1.3
            draw.line((c - arm, c, c + arm, c), fill="white", width=w)
            draw.line((c, c - arm, c, c + arm), fill="white", width=w)

    return _render(2 * BADGE_R + 4, paint)


@lru_cache(maxsize=64)
def arrow(theme: Theme, dx: int, dy: int) -> tuple[Image.Image, tuple[int, int]]:
    """An arrow for a step of ``(dx, dy)`` pixels, and where to paste it relative to the origin.

    It runs from the origin's centre to the edge of the destination's halo, so it never covers
    the piece that moved.
    """
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    tip = length - HALO_R + 2
    shaft, head_len, head_half = 5.0, 24.0, 15.0
    along = [
        (0, -shaft),
        (tip - head_len, -shaft),
        (tip - head_len, -head_half),
        (tip, 0),
        (tip - head_len, head_half),
        (tip - head_len, shaft),
        (0, shaft),
    ]
    points = [(a * ux - b * uy, a * uy + b * ux) for a, b in along]
    left = math.floor(min(x for x, _ in points)) - 3
    top = math.floor(min(y for _, y in points)) - 3
    width = math.ceil(max(x for x, _ in points)) - left + 3
    height = math.ceil(max(y for _, y in points)) - top + 3
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    shifted = [((x - left) * SUPERSAMPLE, (y - top) * SUPERSAMPLE) for x, y in points]
    ImageDraw.Draw(big).polygon(
        shifted,
        fill=(*theme.last_move, 235),
        outline=(*theme.arrow_edge, 235),
        width=2 * SUPERSAMPLE,
    )
    return big.resize((width, height), Image.Resampling.LANCZOS), (left, top)
