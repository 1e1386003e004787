"""Frames drawn straight on the theme's palette, from parts quantised once and cached.

Quantising a whole frame took as long as drawing it. Most of a frame repeats: the board, each
piece on each point, a player's bar. So the board is quantised once per layout and side, a
piece on its point once (with the board under it), a bar once per content; only the header
and the crop around the last action's marks are quantised per frame. Quantising is per pixel
(nearest colour, no dithering), so the result is pixel for pixel the quantised full-colour
frame, which the tests check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from bot.jarmo.position import PieceKind, Position, Side
from bot.render._board import background
from bot.render._compose import Box, Sprite, marks, paint, pieces
from bot.render._encode import quantize
from bot.render._result import ResultBanner
from bot.render._status import Bar, bar_strip, bars, header_strip
from bot.render._theme import BOARD_H, BOARD_TOP, HEADER_H, Perspective, Theme, theme_for
from bot.render._words import ImageWords

BAR_CACHE = 128  # bars of about 46 KB each: the players of many games at once


@dataclass(frozen=True, slots=True, eq=False)
class _Board:
    """One theme, layout and side's board in full colour and on the palette, and the
    pieces standing on its points (quantised on first use; a race only repeats work)."""

    theme: Theme
    short: bool
    rgb: Image.Image
    indexed: Image.Image
    tiles: dict[tuple[str, Side, PieceKind], Image.Image] = field(default_factory=dict)

    def tile(self, sprite: Sprite, key: tuple[str, Side, PieceKind]) -> Image.Image:
        """The board under ``sprite`` with the sprite on it, on the palette."""
        found = self.tiles.get(key)
        if found is None:
            crop = self.rgb.crop(sprite.box)
            crop.paste(sprite.image, (0, 0), sprite.image)
            found = self.tiles[key] = quantize(crop, self.theme, short=self.short)
        return found


@lru_cache(maxsize=16)
def _board(
    theme: Theme, lines: tuple[tuple[str, str], ...], perspective: Perspective, short: bool
) -> _Board:
    rgb = background(theme, lines, perspective)
    return _Board(theme, short, rgb, quantize(rgb, theme, short=short))


@lru_cache(maxsize=BAR_CACHE)
def _bar(bar: Bar, short: bool) -> Image.Image:
    return quantize(bar_strip(bar), bar.theme, short=short)


def indexed_frame(
    position: Position,
    perspective: Perspective,
    players: tuple[str, str],
    result: ResultBanner | None,
    words: ImageWords,
    *,
    replay: bool = False,
    short: bool = False,
) -> Image.Image:
    """``position`` on its theme's palette (a fresh ``P`` image the caller owns).

    A ``replay`` frame keeps what changes from one move to the next small: no highlights under
    the pieces (only the capture and placement badges), the move in the header instead of
    whose turn it is, and no turn cues in the bars. ``short`` draws on the theme's short
    palette (a replay's).
    """
    theme = theme_for(position.ruleset)
    board = _board(theme, position.lines, perspective, short)
    image = board.indexed.copy()
    standing = pieces(position, theme, perspective)
    for piece, sprite in zip(position.pieces, standing, strict=True):
        image.paste(board.tile(sprite, (piece.point, piece.side, piece.kind)), sprite.box[:2])
    drawn = [(header_strip(position, theme, result, words, replay=replay), (0, 0))]
    under, over = marks(position, theme, perspective, highlights=not replay)
    if under or over:
        region = _union(s.box for s in (*under, *over))
        crop = board.rgb.crop(region)
        touching = [s for s in standing if _meets(s.box, region)]
        paint(crop, region[:2], under, touching, over)
        drawn.append((crop, region[:2]))
    for part, (_, at) in zip(_quantized([p for p, _ in drawn], theme, short), drawn, strict=True):
        image.paste(part, at)
    far, near = bars(position, theme, perspective, players, result, words, turn_cues=not replay)
    image.paste(_bar(far, short), (0, HEADER_H))
    image.paste(_bar(near, short), (0, BOARD_TOP + BOARD_H))
    return image


def _quantized(parts: list[Image.Image], theme: Theme, short: bool) -> list[Image.Image]:
    """``parts`` on the palette, quantised in one go: each call to Pillow's quantiser sets up
    a colour cache that costs more than mapping a header's pixels."""
    stack = Image.new("RGB", (max(p.width for p in parts), sum(p.height for p in parts)))
    tops = [sum(p.height for p in parts[:i]) for i in range(len(parts))]
    for part, top in zip(parts, tops, strict=True):
        stack.paste(part, (0, top))
    mapped = quantize(stack, theme, short=short)
    return [
        mapped.crop((0, top, p.width, top + p.height)) for p, top in zip(parts, tops, strict=True)
    ]


def _union(boxes: Iterable[Box]) -> Box:
    found = list(boxes)
    return (
        min(b[0] for b in found),
        min(b[1] for b in found),
        max(b[2] for b in found),
        max(b[3] for b in found),
    )


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
