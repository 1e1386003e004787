"""Hand-made positions and pixel probes for the renderer tests."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

from PIL import GifImagePlugin, Image

from bot.jarmo import Game, LastAction, Outcome, Piece, PieceKind, Position, Side, get_layout
from bot.render._theme import point_center

KINDS: dict[str, PieceKind] = {"": "archer", "m": "marked", "g": "guard"}


def position(
    pieces: str = "",
    *,
    ruleset: str = "classic",
    layout: str = "traditional",
    turn: Side = "white",
    ply: int = 10,
    last: LastAction | None = None,
    outcome: Outcome | None = None,
    captured: dict[Side, int] | None = None,
    reserve: dict[Side, int] | None = None,
) -> Position:
    """A position from tokens such as ``"A1:w C2:wm D5:b E3:bg"`` (m marked, g guard)."""
    placed = []
    for token in pieces.split():
        point, _, code = token.partition(":")
        placed.append(Piece(point, "white" if code[0] == "w" else "black", KINDS[code[1:]]))
    points: dict[Side, int] = {"white": 0, "black": 0}
    for piece in placed:  # rules §5: 2 in the enemy camp, else 1
        enemy_row = "5" if piece.side == "white" else "1"
        points[piece.side] += 2 if piece.point[1] == enemy_row else 1
    return Position(
        ruleset=ruleset,
        layout=layout,
        lines=get_layout(layout).lines,
        turn=turn,
        ply=ply,
        pieces=tuple(placed),
        captured=captured or {"white": 0, "black": 0},
        reserve=reserve or {"white": 0, "black": 0},
        points=points,
        last=last,
        outcome=outcome,
    )


def step(
    origin: str, target: str, *, capture: bool = False, placed: str | None = None
) -> LastAction:
    """The ``LastAction`` of a step (optionally a capture, optionally a ludos place)."""
    notation = f"{origin}{'x' if capture else '-'}{target}" + (f"@{placed}" if placed else "")
    return LastAction(notation, origin, target, capture, placed)


def place(point: str) -> LastAction:
    """The ``LastAction`` of a redeploy / place."""
    return LastAction(f"@{point}", None, None, False, point)


def rgb(png: bytes) -> Image.Image:
    """Decode image bytes to RGB for probing."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def open_gif(data: bytes) -> GifImagePlugin.GifImageFile:
    """Open image bytes that must be an (animated) GIF."""
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImagePlugin.GifImageFile), f"{image.format}, not a GIF"
    return image


def at(
    image: Image.Image, point: str, perspective: Side = "white", offset: tuple[int, int] = (0, 0)
) -> tuple[int, int, int]:
    """The colour of the pixel at ``point``'s centre (plus ``offset``) in ``image``."""
    x, y = point_center(point, perspective)
    return pixel(image, (x + offset[0], y + offset[1]))


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    """The colour of the pixel at ``xy`` in an RGB ``image``."""
    value = image.getpixel(xy)
    assert isinstance(value, tuple), f"{image.mode} image has no channels"
    red, green, blue = value
    return red, green, blue


def close(actual: Sequence[int], expected: Sequence[int], tolerance: int = 14) -> bool:
    """True when every channel is within ``tolerance``."""
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=True))


def random_game(ruleset: str, plies: int) -> Game:
    """A seeded random game that lasts exactly ``plies`` plies."""
    for seed in range(1_000):
        rng = random.Random(seed)
        game = Game.new(ruleset=ruleset)
        while not game.over and game.ply < plies:
            game.play(rng.choice(game.legal_moves()))
        if game.ply == plies:
            return game
    raise AssertionError(f"no random {ruleset} game of {plies} plies")
