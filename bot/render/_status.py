"""The header (ruleset, move number, turn or result) and the two player bars (name, points,
captures)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.jarmo.position import Position, Side, other_side
from bot.render import _fonts, _pieces
from bot.render._result import ResultBanner, headline, loser_tag, reason_text
from bot.render._theme import (
    BAR_H,
    BOARD_H,
    BOARD_TOP,
    HEADER_H,
    SUPERSAMPLE,
    WIDTH,
    Perspective,
    Theme,
)

_LIT_TAGS = ("TO MOVE", "WINNER")  # drawn in the accent colour, with the bar outlined
_PAD = 16
_ICON_X = _PAD + 26
_NAME_X = _ICON_X + 32
_SCORE_RIGHT = WIDTH - _PAD - 14
_TAG_RIGHT = WIDTH - 112
_ICON_R = 9  # the small captured / reserve pieces


def draw_status(
    image: Image.Image,
    position: Position,
    theme: Theme,
    perspective: Perspective,
    players: tuple[str, str],
    result: ResultBanner | None = None,
) -> None:
    """Draw the header and both player bars onto ``image`` (a private copy).

    ``result`` is how the game ended; without one, a position that is over on the board shows
    its own outcome and any other shows whose turn it is.
    """
    if result is None and position.outcome is not None:
        result = ResultBanner.from_outcome(position.outcome)
    _header(image, position, theme, result)
    names = dict(zip(("white", "black"), players, strict=True))
    far, near = other_side(perspective), perspective
    _bar(image, HEADER_H, far, names[far], position, theme, result)
    _bar(image, BOARD_TOP + BOARD_H, near, names[near], position, theme, result)


def result_text(position: Position, theme: Theme, result: ResultBanner | None = None) -> str:
    """``"White wins 7–4"`` / ``"Draw 5–5"`` / ``"Aborted"`` for an ended game (``result``, or
    the position's own outcome), else ``"White to move"``."""
    if result is None and position.outcome is not None:
        result = ResultBanner.from_outcome(position.outcome)
    if result is None:
        return f"{theme.side_names[position.turn]} to move"
    return headline(result, theme.side_names)


def _header(
    image: Image.Image, position: Position, theme: Theme, result: ResultBanner | None
) -> None:
    middle = HEADER_H // 2
    right = result_text(position, theme, result)
    bold = _fonts.font(20, bold=True)
    colour = theme.active if result is None else theme.frame_text
    _fonts.draw_text(image, (WIDTH - _PAD, middle), right, bold, colour, anchor="rm")
    parts = []
    if result is not None:  # first, so a cut for room takes the ply rather than the reason
        why = reason_text(result, theme.side_names)
        parts.append(why[:1].upper() + why[1:])
    parts.append(position.ruleset.capitalize())
    if position.layout != "bow":
        parts.append(f"{position.layout} lines")
    # Players count moves: "move 21" is the position after the 21st move of the game.
    parts.append(f"move {position.ply}" if position.ply else "start")
    regular = _fonts.font(16)
    room = WIDTH - 3 * _PAD - _fonts.length(right, bold)
    left = _fonts.fit(" · ".join(p for p in parts if p), regular, room)
    _fonts.draw_text(image, (_PAD, middle), left, regular, theme.frame_muted, anchor="lm")


def _bar(
    image: Image.Image,
    top: int,
    side: Side,
    name: str,
    position: Position,
    theme: Theme,
    result: ResultBanner | None,
) -> None:
    tag = _tag_for(position, side, result)
    if tag in _LIT_TAGS:
        frame = _active_frame(theme)
        image.paste(frame, (_PAD // 2, top + 5), frame)
    icon = _pieces.piece(theme, side, "archer", 15, on_dark=True)
    image.paste(icon, (_ICON_X - icon.width // 2, top + 29 - icon.height // 2), icon)

    score_face, name_face = _fonts.font(30, bold=True), _fonts.font(22, bold=True)
    points = str(position.points[side])
    _fonts.draw_text(
        image, (_SCORE_RIGHT - 34, top + 40), points, score_face, theme.frame_text, anchor="rs"
    )
    _fonts.draw_text(
        image, (_SCORE_RIGHT, top + 40), "pts", _fonts.font(15), theme.frame_muted, anchor="rs"
    )
    name_right = _TAG_RIGHT - (_tag(tag, theme).width + 12 if tag else 0)
    shown = _fonts.fit(
        _fonts.clean(name) or theme.side_names[side], name_face, name_right - _NAME_X
    )
    _fonts.draw_text(image, (_NAME_X, top + 37), shown, name_face, theme.frame_text)
    if tag:
        sprite = _tag(tag, theme)
        image.paste(sprite, (_TAG_RIGHT - sprite.width, top + 17), sprite)
    _tallies(image, top + 58, side, position, theme)


def _tag_for(position: Position, side: Side, result: ResultBanner | None) -> str:
    if result is None:
        return "TO MOVE" if position.turn == side else ""
    if result.reason == "aborted":
        return ""
    if result.winner is None:
        return "DRAW"
    return "WINNER" if result.winner == side else loser_tag(result)


def _tallies(
    image: Image.Image, baseline: int, side: Side, position: Position, theme: Theme
) -> None:
    """Side name, then enemy pieces this side has captured and (ludos) its reserve, as icons."""
    small = _fonts.font(15)
    x: float = _NAME_X
    groups: list[tuple[str, Side | None, int]] = [(theme.side_names[side], None, 0)]
    enemy = other_side(side)
    if position.captured[enemy]:
        groups.append(("captured", enemy, position.captured[enemy]))
    if position.reserve[side]:
        groups.append(("reserve", side, position.reserve[side]))
    for i, (label, icon_side, count) in enumerate(groups):
        text = ("  ·  " if i else "") + label
        _fonts.draw_text(image, (x, baseline), text, small, theme.frame_muted)
        x += _fonts.length(text, small) + (4 if icon_side else 0)
        if icon_side is None:
            continue
        icon = _pieces.piece(theme, icon_side, "archer", _ICON_R, on_dark=True)
        for _ in range(count):
            image.paste(icon, (round(x), baseline - 5 - icon.height // 2), icon)
            x += icon.width + 1


@lru_cache(maxsize=4)
def _active_frame(theme: Theme) -> Image.Image:
    """An anti-aliased rounded outline around the bar of the side to move."""
    w, h, s = WIDTH - _PAD, BAR_H - 10, SUPERSAMPLE
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (s, s, (w - 1) * s, (h - 1) * s), radius=12 * s, width=3 * s, outline=(*theme.active, 255)
    )
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def _tag(text: str, theme: Theme) -> Image.Image:
    """A small filled pill with ``text``: TO MOVE / WINNER in the accent colour, others muted."""
    face = _fonts.font(13, bold=True)
    w, h, s = round(_fonts.length(text, face)) + 18, 24, SUPERSAMPLE
    colour = theme.active if text in _LIT_TAGS else theme.frame_muted
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius=h * s // 2, fill=(*colour, 255)
    )
    pill = big.resize((w, h), Image.Resampling.LANCZOS)
    _fonts.draw_text(pill, (w / 2, h / 2), text, face, (*theme.frame, 255), anchor="mm")
    return pill
