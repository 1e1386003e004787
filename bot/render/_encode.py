"""A fixed palette per theme, and PNG encoding of images drawn on it.

Quantising to a palette worked out once per theme, without dithering, makes PNG encoding about
three times faster and files about three times smaller than RGB, and keeps every image of a
theme (and every frame of a replay) on the same colours, so output is byte-for-byte repeatable.
The theme's own 64 colours come first; an even spread of colours fills the rest of the 256, so
emoji in player names keep roughly their colours. Replays use a short palette: the same 64, and
a coarser spread under 128 colours in all.
"""

from __future__ import annotations

import io
from dataclasses import fields
from functools import lru_cache

from PIL import Image

from bot.jarmo.layouts import DEFAULT_LAYOUT, get_layout
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
SHORT_SPREAD_LEVELS = (4, 4, 4)  # the replays' coarser spread (64 colours, some dropped)
SHORT_COLOURS = 127  # a replay's palette: 7-bit GIF codes, and one index left for "unchanged"
PNG_COMPRESS_LEVEL = 2  # measured in bench/render.py: the speed/size sweet spot


def _every_line() -> tuple[tuple[str, str], ...]:
    """Every knight-move line and the published board's short ones: the calibration sees each
    angle a layout could draw."""
    lines = list(get_layout(DEFAULT_LAYOUT).lines)
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
            layout="traditional",
            lines=_every_line(),
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
def _fitted(theme: Theme) -> tuple[RGB, ...]:
    """The theme's :data:`COLOURS` colours, fitted once to calibration renders (deterministic)."""
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
    shade_palette = shades.getpalette()
    assert shade_palette is not None, "quantize() always returns a palette image"
    values = shade_palette[: 3 * (COLOURS - len(keys))]
    shade_colours = [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]
    return (*keys, *shade_colours)


@lru_cache(maxsize=8)
def palette(theme: Theme, *, short: bool = False) -> Image.Image:
    """The theme's palette image: its own colours, then an even spread of others.

    The ``short`` one (for replays) has a coarser spread and fewer than 128 colours, so a GIF
    stores each pixel in 7 bits and still has an index free for "unchanged".
    """
    fitted = _fitted(theme)
    spread = _spread(SHORT_SPREAD_LEVELS if short else SPREAD_LEVELS)
    if short:
        spread = [c for c in spread if c not in fitted][: SHORT_COLOURS - len(fitted)]
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in (*fitted, *spread) for v in colour])
    image.load()  # settle the palette now: threads will only ever read this image
    return image


def _spread(levels: tuple[int, int, int]) -> list[RGB]:
    """An even grid of colours: the nearest of them is never far from any colour."""
    steps = [[round(i * 255 / (n - 1)) for i in range(n)] for n in levels]
    return [(r, g, b) for r in steps[0] for g in steps[1] for b in steps[2]]


def quantize(image: Image.Image, theme: Theme, *, short: bool = False) -> Image.Image:
    """``image`` mapped to the theme's (``short``) palette, nearest colour, no dithering."""
    return image.quantize(palette=palette(theme, short=short), dither=Image.Dither.NONE)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image``, already on its theme's palette."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()
