"""One frame in full colour: cached background, last-move marks, pieces, status."""

from __future__ import annotations

from PIL import Image

from bot.jarmo.position import Position
from bot.render import _pieces
from bot.render._board import background
from bot.render._result import ResultBanner
from bot.render._status import draw_status
from bot.render._theme import Perspective, point_center, theme_for


def compose(
    position: Position,
    perspective: Perspective,
    players: tuple[str, str],
    result: ResultBanner | None = None,
) -> Image.Image:
    """The RGB image of ``position`` (ended as ``result`` says, if given); a fresh image the
    caller owns."""
    theme = theme_for(position.ruleset)
    image = background(theme, position.lines, perspective).copy()
    last = position.last
    if last is not None:  # under the pieces, so the marks never hide what stands there
        if last.origin:
            _paste(image, _pieces.origin_marker(theme.last_move), last.origin, perspective)
        if last.target:
            colour = theme.capture if last.capture else theme.last_move
            _paste(image, _pieces.halo(colour), last.target, perspective)
        if last.placed:
            _paste(image, _pieces.halo(theme.placed), last.placed, perspective)
        if last.origin and last.target:
            x0, y0 = point_center(last.origin, perspective)
            x1, y1 = point_center(last.target, perspective)
            sprite, (dx, dy) = _pieces.arrow(theme, x1 - x0, y1 - y0)
            image.paste(sprite, (x0 + dx, y0 + dy), sprite)
    for piece in position.pieces:
        _paste(image, _pieces.piece(theme, piece.side, piece.kind), piece.point, perspective)
    if last is not None:  # badges go on top: a capture must read as a capture
        if last.target and last.capture and last.origin:
            corner = _away_from(last.origin, last.target, perspective)
            _badge(image, _pieces.badge(theme.capture, "x"), last.target, perspective, corner)
        if last.placed:
            _badge(image, _pieces.badge(theme.placed, "+"), last.placed, perspective, (1, -1))
    draw_status(image, position, theme, perspective, players, result)
    return image


def _paste(image: Image.Image, sprite: Image.Image, point: str, perspective: Perspective) -> None:
    x, y = point_center(point, perspective)
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _away_from(origin: str, target: str, perspective: Perspective) -> tuple[int, int]:
    """The corner of the target that faces away from the arrow, so the arrow never hides it."""
    x0, y0 = point_center(origin, perspective)
    x1, y1 = point_center(target, perspective)
    return max(
        ((1, -1), (-1, -1), (1, 1), (-1, 1)), key=lambda c: c[0] * (x1 - x0) + c[1] * (y1 - y0)
    )


def _badge(
    image: Image.Image,
    sprite: Image.Image,
    point: str,
    perspective: Perspective,
    corner: tuple[int, int],
) -> None:
    x, y = point_center(point, perspective)
    x, y = x + corner[0] * _pieces.BADGE_OFFSET, y + corner[1] * _pieces.BADGE_OFFSET
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)
