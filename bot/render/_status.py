"""The header (ruleset, move number, turn or result) and the two player bars (name, points,
captures)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.jarmo.layouts import DEFAULT_LAYOUT
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
from bot.render._words import ENGLISH, ImageWords

_PAD = 16
_ICON_X = _PAD + 26
_NAME_X = _ICON_X + 32
_SCORE_RIGHT = WIDTH - _PAD - 14
_TAG_RIGHT = WIDTH - 112
_ICON_R = 9  # the small captured / reserve pieces


@dataclass(frozen=True, slots=True)
class Bar:
    """Everything one player's bar shows, so that equal bars are drawn once (a cache key).

    ``lit`` outlines the bar and draws ``tag`` in the accent colour (the side to move, the
    winner); ``captured`` counts the enemy pieces this side took.
    """

    theme: Theme
    words: ImageWords
    side: Side
    name: str
    points: int
    tag: str
    lit: bool
    captured: int
    reserve: int


def bars(
    position: Position,
    theme: Theme,
    perspective: Perspective,
    players: tuple[str, str],
    result: ResultBanner | None,
    words: ImageWords,
    *,
    turn_cues: bool = True,
) -> tuple[Bar, Bar]:
    """The far player's bar (above the board) and the near one's (below it).

    Without ``turn_cues`` (a replay's frames) neither bar says whose turn it is, so a bar
    changes only when its points or tallies do.
    """
    if result is None and position.outcome is not None:
        result = ResultBanner.from_outcome(position.outcome)
    names = dict(zip(("white", "black"), players, strict=True))

    def bar(side: Side) -> Bar:
        tag, lit = _tag_for(position, side, result, words)
        if result is None and not turn_cues:
            tag, lit = "", False
        enemy = other_side(side)
        return Bar(
            theme, words, side, names[side], position.points[side], tag, lit,
            position.captured[enemy], position.reserve[side],
        )  # fmt: skip

    return bar(other_side(perspective)), bar(perspective)


def draw_status(
    image: Image.Image,
    position: Position,
    theme: Theme,
    perspective: Perspective,
    players: tuple[str, str],
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> None:
    """Draw the header and both player bars onto ``image`` (a private copy).

    ``result`` is how the game ended; without one, a position that is over on the board shows
    its own outcome and any other shows whose turn it is.
    """
    image.paste(header_strip(position, theme, result, words), (0, 0))
    far, near = bars(position, theme, perspective, players, result, words)
    image.paste(bar_strip(far), (0, HEADER_H))
    image.paste(bar_strip(near), (0, BOARD_TOP + BOARD_H))


def result_text(
    position: Position,
    theme: Theme,
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> str:
    """``"White wins 7–4"`` / ``"Draw 5–5"`` / ``"Aborted"`` for an ended game (``result``, or
    the position's own outcome), else ``"White to move"``."""
    if result is None and position.outcome is not None:
        result = ResultBanner.from_outcome(position.outcome)
    if result is None:
        return words.to_move.format(side=words.colour(theme.side_names[position.turn]))
    return headline(result, theme.side_names, words)


def header_strip(
    position: Position,
    theme: Theme,
    result: ResultBanner | None,
    words: ImageWords,
    *,
    replay: bool = False,
) -> Image.Image:
    """The header, ``WIDTH`` x ``HEADER_H`` (RGB): ruleset and move number on the left, the
    turn or the result on the right.

    A ``replay`` frame names the move just played on the left and leaves out the turn, so that
    from one frame to the next only a few characters change.
    """
    if result is None and position.outcome is not None:
        result = ResultBanner.from_outcome(position.outcome)
    image = Image.new("RGB", (WIDTH, HEADER_H), theme.frame)
    middle = HEADER_H // 2
    right = "" if replay and result is None else result_text(position, theme, result, words)
    bold = _fonts.font(20, bold=True)
    if right:
        colour = theme.active if result is None else theme.frame_text
        _fonts.draw_text(image, (WIDTH - _PAD, middle), right, bold, colour, anchor="rm")
    parts = []
    if result is not None:  # first, so a cut for room takes the ply rather than the reason
        why = reason_text(result, theme.side_names, words)
        parts.append(why[:1].upper() + why[1:])
    parts.append(position.ruleset.capitalize())
    if position.layout != DEFAULT_LAYOUT:  # a game stored on an older board says so
        parts.append(words.layout_lines.format(layout=position.layout))
    # Players count moves: "move 21" is the position after the 21st move of the game.
    parts.append(words.move_number.format(number=position.ply) if position.ply else words.start)
    if replay and position.last is not None:
        parts.append(position.last.notation)
    regular = _fonts.font(16)
    room = WIDTH - 3 * _PAD - _fonts.length(right, bold)
    left = _fonts.fit(_fonts.clean(" · ".join(p for p in parts if p)), regular, room)
    _fonts.draw_text(image, (_PAD, middle), left, regular, theme.frame_muted, anchor="lm")
    return image


def bar_strip(bar: Bar) -> Image.Image:
    """One player's bar, ``WIDTH`` x ``BAR_H`` (RGB): icon, name, points, tag and tallies."""
    theme, words = bar.theme, bar.words
    image = Image.new("RGB", (WIDTH, BAR_H), theme.frame)
    if bar.lit:
        frame = _active_frame(theme)
        image.paste(frame, (_PAD // 2, 5), frame)
    icon = _pieces.piece(theme, bar.side, "archer", 15, on_dark=True)
    image.paste(icon, (_ICON_X - icon.width // 2, 29 - icon.height // 2), icon)

    score_face, name_face = _fonts.font(30, bold=True), _fonts.font(22, bold=True)
    _fonts.draw_text(
        image, (_SCORE_RIGHT - 34, 40), str(bar.points), score_face, theme.frame_text, anchor="rs"
    )
    units = _fonts.clean(words.points)
    _fonts.draw_text(
        image, (_SCORE_RIGHT, 40), units, _fonts.font(15), theme.frame_muted, anchor="rs"
    )
    tag = _tag(_fonts.clean(bar.tag), bar.lit, theme) if bar.tag else None
    name_right = _TAG_RIGHT - (tag.width + 12 if tag else 0)
    colour = words.colour(theme.side_names[bar.side])
    shown = _fonts.clean(bar.name) or _fonts.clean(colour)
    shown = _fonts.fit(shown, name_face, name_right - _NAME_X)
    _fonts.draw_text(image, (_NAME_X, 37), shown, name_face, theme.frame_text)
    if tag:
        image.paste(tag, (_TAG_RIGHT - tag.width, 17), tag)
    _tallies(image, 58, bar)
    return image


def _tag_for(
    position: Position, side: Side, result: ResultBanner | None, words: ImageWords
) -> tuple[str, bool]:
    """The tag on ``side``'s bar, and whether it is lit."""
    if result is None:
        return (words.tag_to_move, True) if position.turn == side else ("", False)
    if result.reason == "aborted":
        return "", False
    if result.winner is None:
        return words.tag_draw, False
    if result.winner == side:
        return words.tag_winner, True
    return loser_tag(result, words), False


def _tallies(image: Image.Image, baseline: int, bar: Bar) -> None:
    """Side name, then enemy pieces this side has captured and (ludos) its reserve, as icons."""
    theme, words = bar.theme, bar.words
    small = _fonts.font(15)
    x: float = _NAME_X
    colour = words.colour(theme.side_names[bar.side])
    groups: list[tuple[str, Side | None, int]] = [(colour, None, 0)]
    if bar.captured:
        groups.append((words.captured, other_side(bar.side), bar.captured))
    if bar.reserve:
        groups.append((words.reserve, bar.side, bar.reserve))
    for i, (label, icon_side, count) in enumerate(groups):
        text = ("  ·  " if i else "") + _fonts.clean(label)
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


@lru_cache(maxsize=64)
def _tag(text: str, lit: bool, theme: Theme) -> Image.Image:
    """A small filled pill with ``text``: lit (to move, winner) in the accent colour, others
    muted."""
    face = _fonts.font(13, bold=True)
    w, h, s = round(_fonts.length(text, face)) + 18, 24, SUPERSAMPLE
    colour = theme.active if lit else theme.frame_muted
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius=h * s // 2, fill=(*colour, 255)
    )
    pill = big.resize((w, h), Image.Resampling.LANCZOS)
    _fonts.draw_text(pill, (w / 2, h / 2), text, face, (*theme.frame, 255), anchor="mm")
    return pill
