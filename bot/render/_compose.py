"""One frame in full colour: cached background, last-move marks, pieces, status.

The images themselves are drawn on the palette (``_indexed``); this full-colour frame is what
the palette is fitted to, and the reference the palette frames must match pixel for pixel.
The board painting here is shared: it draws into any crop of the background, given where the
crop sits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from bot.jarmo.position import Piece, Position
from bot.render import _pieces
from bot.render._board import background
from bot.render._result import ResultBanner
from bot.render._status import draw_status
from bot.render._theme import Perspective, Theme, point_center, theme_for
from bot.render._words import ENGLISH, ImageWords

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Sprite:
    """A sprite and the image position of its top-left corner."""

    image: Image.Image
    x: int
    y: int

    @property
    def box(self) -> Box:
        return self.x, self.y, self.x + self.image.width, self.y + self.image.height


def compose(
    position: Position,
    perspective: Perspective,
    players: tuple[str, str],
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> Image.Image:
    """The RGB image of ``position`` (ended as ``result`` says, if given); a fresh image the
    caller owns."""
    theme = theme_for(position.ruleset)
    image = background(theme, position.lines, perspective).copy()
    under, over = marks(position, theme, perspective)
    paint(image, (0, 0), under, pieces(position, theme, perspective), over)
    draw_status(image, position, theme, perspective, players, result, words)
    return image


def paint(
    canvas: Image.Image,
    at: tuple[int, int],
    *layers: Iterable[Sprite],
) -> None:
    """Paste ``layers`` of sprites in order onto ``canvas``, a crop of the image whose top-left
    corner is at ``at``."""
    for layer in layers:
        for sprite in layer:
            position = (sprite.x - at[0], sprite.y - at[1])
            canvas.paste(sprite.image, position, sprite.image)


def pieces(position: Position, theme: Theme, perspective: Perspective) -> list[Sprite]:
    """The pieces' sprites, where they stand."""
    return [
        centred(_pieces.piece(theme, piece.side, piece.kind), piece, perspective)
        for piece in position.pieces
    ]


def centred(image: Image.Image, piece: Piece | str, perspective: Perspective) -> Sprite:
    """``image`` centred on a piece's point (or on a point by name)."""
    x, y = point_center(piece if isinstance(piece, str) else piece.point, perspective)
    return Sprite(image, x - image.width // 2, y - image.height // 2)


def marks(
    position: Position, theme: Theme, perspective: Perspective, *, highlights: bool = True
) -> tuple[list[Sprite], list[Sprite]]:
    """The last action's marks: those under the pieces (the origin, halos and the arrow, only
    with ``highlights``) and the badges over them (a capture must read as a capture)."""
    under: list[Sprite] = []
    over: list[Sprite] = []
    last = position.last
    if last is None:
        return under, over
    if highlights:  # under the pieces, so the marks never hide what stands there
        if last.origin:
            under.append(centred(_pieces.origin_marker(theme.last_move), last.origin, perspective))
        if last.target:
            colour = theme.capture if last.capture else theme.last_move
            under.append(centred(_pieces.halo(colour), last.target, perspective))
        if last.placed:
            under.append(centred(_pieces.halo(theme.placed), last.placed, perspective))
        if last.origin and last.target:
            x0, y0 = point_center(last.origin, perspective)
            x1, y1 = point_center(last.target, perspective)
            sprite, (dx, dy) = _pieces.arrow(theme, x1 - x0, y1 - y0)
            under.append(Sprite(sprite, x0 + dx, y0 + dy))
    if last.target and last.capture and last.origin:
        corner = _away_from(last.origin, last.target, perspective)
        over.append(_badge(_pieces.badge(theme.capture, "x"), last.target, perspective, corner))
    if last.placed:
        over.append(_badge(_pieces.badge(theme.placed, "+"), last.placed, perspective, (1, -1)))
    return under, over


def _away_from(origin: str, target: str, perspective: Perspective) -> tuple[int, int]:
    """The corner of the target that faces away from the arrow, so the arrow never hides it."""
    x0, y0 = point_center(origin, perspective)
    x1, y1 = point_center(target, perspective)
    return max(
        ((1, -1), (-1, -1), (1, 1), (-1, 1)), key=lambda c: c[0] * (x1 - x0) + c[1] * (y1 - y0)
    )


def _badge(
    image: Image.Image, point: str, perspective: Perspective, corner: tuple[int, int]
) -> Sprite:
    x, y = point_center(point, perspective)
    x, y = x + corner[0] * _pieces.BADGE_OFFSET, y + corner[1] * _pieces.BADGE_OFFSET
    return Sprite(image, x - image.width // 2, y - image.height // 2)
