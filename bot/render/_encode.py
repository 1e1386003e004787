"""A fixed palette per theme, and PNG encoding through it.

Quantising to a palette worked out once per theme, without dithering, makes PNG encoding about
three times faster and files about three times smaller than RGB, and keeps every image of a
theme (and every frame of a replay) on the same colours, so output is byte-for-byte repeatable.
The theme's own 64 colours come first; an even spread of colours fills the rest of the 256, so
emoji in player names keep roughly their colours.
"""

from __future__ import annotations

import io
from dataclasses import fields
from functools import lru_cache

from PIL import Image

from bot.jarmo.position import (
    LastAction,
    Outcome,
    Piece,
    PieceKind,
    Position,
    Side,
    Termination,
)
from bot.render import _pieces
from bot.render._compose import compose
from bot.render._theme import COLUMNS, LUDOS, RGB, ROWS, Theme

COLOURS = 64  # the theme's colours, fitted to what the board draws
SPREAD_LEVELS = (6, 6, 5)  # red, green, blue steps of the even spread after them (180 colours)
PNG_COMPRESS_LEVEL = 2  # measured in bench/render.py: the speed/size sweet spot


def _all_knight_lines() -> tuple[tuple[str, str], ...]:
    """Every knight-move line: the calibration sees each angle a layout could draw."""
    lines = []
    for c, col in enumerate(COLUMNS):
        for r, row in enumerate(ROWS):
            for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2)):
                if 0 <= c + dc < 5 and 0 <= r + dr < 5:
                    lines.append((col + row, COLUMNS[c + dc] + ROWS[r + dr]))
    return tuple(lines)


def _calibration_positions(theme: Theme) -> list[Position]:
    """Made-up positions that between them show every sprite, mark, tag and kind of text."""
    kinds: tuple[PieceKind, PieceKind] = (
        ("archer", "guard") if theme is LUDOS else ("archer", "marked")
    )
    ruleset = "ludos" if theme is LUDOS else "classic"
    rows_of: tuple[tuple[Side, str], ...] = (("white", "12"), ("black", "45"))
    pieces = tuple(
        Piece(col + row, side, kinds[i % 2])
        for side, rows in rows_of
        for i, (col, row) in enumerate((c, r) for r in rows for c in COLUMNS)
    )

    def position(
        turn: Side, ply: int, outcome: Outcome | None, last: LastAction | None
    ) -> Position:
        return Position(
            ruleset=ruleset,
            layout="bow",
            lines=_all_knight_lines(),
            turn=turn,
            ply=ply,
            pieces=pieces,
            captured={"white": 3, "black": 2},
            reserve={"white": 1, "black": 2},
            points={"white": 12, "black": 10},
            last=last,
            outcome=outcome,
        )

    finished = Outcome(Termination.CAMP, {"white": 7, "black": 4}, "white")
    drawn = Outcome(Termination.PLY_LIMIT, {"white": 5, "black": 5}, None)
    return [
        position("white", 12, None, LastAction("C1xD3@B1", "C1", "D3", True, "B1")),
        position("black", 35, finished, LastAction("B3-C5", "B3", "C5", False, None)),
        position("white", 200, drawn, None),
    ]


def _key_colours(theme: Theme) -> list[RGB]:
    """The theme's own colours and the flat blends it paints: these must map to themselves.

    Median cut alone merges colours that cover few pixels (a capture halo, a placed piece's
    ring) into duller neighbours.
    """
    found: list[RGB] = [(255, 255, 255)]
    for field in fields(theme):
        value = getattr(theme, field.name)
        for colour in value.values() if isinstance(value, dict) else (value,):
            if isinstance(colour, tuple):
                found.append(colour)
    for under in (theme.board, *theme.camp.values()):
        found.append(_blend(theme.last_move, under, _pieces.ORIGIN_ALPHA))
    return list(dict.fromkeys(found))


def _blend(top: RGB, under: RGB, alpha: int) -> RGB:
    a, b, c = (
        round(t * alpha / 255 + u * (255 - alpha) / 255) for t, u in zip(top, under, strict=True)
    )
    return a, b, c


@lru_cache(maxsize=4)
def palette(theme: Theme) -> Image.Image:
    """The theme's palette image, derived once from calibration renders (deterministic)."""
    frames = [
        compose(p, perspective, ("Ada Lovelace", "Émile Zola 12345 ?…"))
        for p in _calibration_positions(theme)
        for perspective in ("white", "black")
    ]
    strip = Image.new("RGB", (frames[0].width, frames[0].height * len(frames)))
    for i, frame in enumerate(frames):
        strip.paste(frame, (0, i * frame.height))
    keys = _key_colours(theme)
    shades = strip.quantize(
        COLOURS - len(keys), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    image = Image.new("P", (1, 1))
    fitted = [v for colour in keys for v in colour]
    shade_palette = shades.getpalette()
    assert shade_palette is not None, "quantize() always returns a palette image"
    fitted += shade_palette[: 3 * (COLOURS - len(keys))]
    image.putpalette(fitted + _spread())
    image.load()  # settle the palette now: threads will only ever read this image
    return image


def _spread() -> list[int]:
    """An even grid of colours: the nearest of them is never far from any colour."""
    steps = [[round(i * 255 / (n - 1)) for i in range(n)] for n in SPREAD_LEVELS]
    return [v for r in steps[0] for g in steps[1] for b in steps[2] for v in (r, g, b)]


def quantize(image: Image.Image, theme: Theme) -> Image.Image:
    """``image`` mapped to the theme's palette, nearest colour, no dithering."""
    return image.quantize(palette=palette(theme), dither=Image.Dither.NONE)


def to_png(image: Image.Image, theme: Theme) -> bytes:
    """PNG bytes of ``image`` through the theme's palette."""
    buffer = io.BytesIO()
    quantize(image, theme).save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()
