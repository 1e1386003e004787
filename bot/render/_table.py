"""A tournament's standings as a PNG: rank, player, match and game points, the tie-breaks and
each round's result against the opponent's rank.

The image draws no words of its own: headings, marks and the legend come in ``words``, in the
reader's language. Rows and cells are read by shape (the service's ``Standing`` and
``RoundCell`` fit), so this module needs nothing from the layers above it. Everything is drawn
at final size on whole pixels (straight lines only), so it is crisp without supersampling; the
same values always give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

from bot.render._fonts import clean, draw_text, fit, font, length
from bot.render._theme import CLASSIC, RGB

PAD = 16
TITLE_H, HEAD_H, ROW_H = 64, 30, 28
LEGEND_TEXT, LEGEND_LINE, LEGEND_PAD = 12, 17, 9
RANK_W, NUMBER_W, ROUND_W = 44, 54, 66
NAME_MIN_W, NAME_MAX_W = 150, 260
TEXT, HEADING = 15, 13

_FRAME, _FRAME_TEXT, _MUTED = CLASSIC.frame, CLASSIC.frame_text, CLASSIC.frame_muted
_ACCENT = CLASSIC.active
_ROW = ((250, 246, 236), (236, 222, 193))  # the board's camp and board colours, alternating
_INK, _FAINT = (35, 38, 44), (130, 118, 98)
_RULE = CLASSIC.board_edge
_OUTCOME_INK: dict[str, RGB] = {
    "win": (30, 120, 60),
    "forfeit-win": (30, 120, 60),
    "draw": (110, 90, 40),
    "loss": (180, 40, 40),
    "forfeit-loss": (180, 40, 40),
    "bye": (110, 90, 40),
}
_SIGN = {"win": "+", "forfeit-win": "+", "draw": "=", "loss": "\u2212", "forfeit-loss": "\u2212"}


class TableWording(Protocol):
    """The words the image draws (bot.words.tournaments builds them in the reader's language).
    ``round_heading`` is a template with ``{number}``."""

    @property
    def title(self) -> str: ...
    @property
    def subtitle(self) -> str: ...
    @property
    def rank(self) -> str: ...
    @property
    def player(self) -> str: ...
    @property
    def match_points(self) -> str: ...
    @property
    def game_points(self) -> str: ...
    @property
    def buchholz(self) -> str: ...
    @property
    def sonneborn_berger(self) -> str: ...
    @property
    def round_heading(self) -> str: ...
    @property
    def bye(self) -> str: ...
    @property
    def forfeit(self) -> str: ...
    @property
    def withdrawn(self) -> str: ...
    @property
    def legend(self) -> str: ...


class TableCell(Protocol):
    """One player's round: ``outcome`` is win, draw, loss, bye, forfeit-win or forfeit-loss."""

    @property
    def outcome(self) -> str: ...
    @property
    def opponent(self) -> int | None: ...
    @property
    def started(self) -> bool: ...


class TableRow(Protocol):
    """One player's line of the table, by player id."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def match_points(self) -> int: ...
    @property
    def game_points(self) -> int: ...
    @property
    def buchholz(self) -> int: ...
    @property
    def sonneborn_berger(self) -> float: ...  # a whole number or a half
    @property
    def rounds(self) -> Sequence[TableCell | None]: ...
    @property
    def withdrawn(self) -> bool: ...


def render_standings_table(
    rows: Sequence[TableRow], *, names: Mapping[int, str], words: TableWording, rounds: int
) -> bytes:
    """PNG of the table: ``rows`` best first, ``names`` by player id (a missing or undrawable
    name shows as its id), ``rounds`` columns of results (later rounds stay empty).

    Raises ``ValueError`` for no rows or a negative number of rounds.
    """
    if not rows or rounds < 0:
        raise ValueError("a standings table needs at least one row and rounds >= 0")
    shown = {row.player: _name(row.player, names) for row in rows}
    marked = [f"{shown[row.player]} ({clean(words.withdrawn)})" for row in rows if row.withdrawn]
    columns = _Columns(_name_width([*shown.values(), *marked], words.player), rounds)
    legend = _wrap(clean(words.legend), font(LEGEND_TEXT), columns.width - 2 * PAD)
    height = TITLE_H + HEAD_H + ROW_H * len(rows) + LEGEND_PAD * 2 + LEGEND_LINE * len(legend)
    image = Image.new("RGB", (columns.width, height), _ROW[0])
    _title(image, words)
    _headings(image, columns, words, rounds)
    ranks = {row.player: row.rank for row in rows}
    for index, row in enumerate(rows):
        _row(image, columns, index, row, shown[row.player], ranks, words)
    _legend(image, legend)
    return _png(image)


class _Columns:
    """Left edges of every column, in pixels."""

    def __init__(self, name_w: int, rounds: int) -> None:
        self.rank = PAD
        self.name = self.rank + RANK_W
        self.numbers = [self.name + name_w + i * NUMBER_W for i in range(4)]
        self.rounds = [self.numbers[-1] + NUMBER_W + i * ROUND_W for i in range(rounds)]
        self.width = (self.rounds[-1] + ROUND_W if rounds else self.numbers[-1] + NUMBER_W) + PAD


def _name(player: int, names: Mapping[int, str]) -> str:
    return clean(names.get(player, "")) or str(player)


def _name_width(names: Iterable[str], heading: str) -> int:
    face = font(TEXT, bold=True)
    widest = max([length(n, face) for n in names] + [length(clean(heading), face)])
    return int(min(max(widest + 12, NAME_MIN_W), NAME_MAX_W))


def _title(image: Image.Image, words: TableWording) -> None:
    ImageDraw.Draw(image).rectangle((0, 0, image.width, TITLE_H - 1), fill=_FRAME)
    ImageDraw.Draw(image).rectangle((0, TITLE_H - 4, image.width, TITLE_H - 1), fill=_ACCENT)
    room = image.width - 2 * PAD
    bold, face = font(22, bold=True), font(HEADING)
    draw_text(image, (PAD, 32), fit(clean(words.title), bold, room), bold, _FRAME_TEXT)
    draw_text(image, (PAD, 52), fit(clean(words.subtitle), face, room), face, _MUTED)


def _headings(image: Image.Image, columns: _Columns, words: TableWording, rounds: int) -> None:
    top = TITLE_H
    ImageDraw.Draw(image).rectangle((0, top, image.width, top + HEAD_H - 1), fill=_FRAME)
    face = font(HEADING, bold=True)
    middle = top + HEAD_H / 2
    draw_text(
        image,
        (columns.rank + RANK_W - 12, middle),
        _fitted(words.rank, face, RANK_W - 12),
        face,
        _FRAME_TEXT,
        "rm",
    )
    draw_text(image, (columns.name, middle), clean(words.player), face, _FRAME_TEXT, "lm")
    numbers = (words.match_points, words.game_points, words.buchholz, words.sonneborn_berger)
    for left, heading in zip(columns.numbers, numbers, strict=True):
        text = _fitted(heading, face, NUMBER_W - 8)
        draw_text(image, (left + NUMBER_W - 8, middle), text, face, _FRAME_TEXT, "rm")
    for number, left in enumerate(columns.rounds, 1):
        text = _fitted(words.round_heading.format(number=number), face, ROUND_W - 8)
        draw_text(image, (left + ROUND_W / 2, middle), text, face, _MUTED, "mm")


def halves(value: float) -> str:
    """A score that is whole or ends in a half: '7', '6½' (a half is written as one glyph)."""
    whole = int(value)
    return f"{whole}\u00bd" if value - whole else str(whole)


def _fitted(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    return fit(clean(text), face, width)


def _row(
    image: Image.Image,
    columns: _Columns,
    index: int,
    row: TableRow,
    name: str,
    ranks: Mapping[int, int],
    words: TableWording,
) -> None:
    top = TITLE_H + HEAD_H + index * ROW_H
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, top, image.width, top + ROW_H - 1), fill=_ROW[index % 2])
    draw.line((0, top + ROW_H - 1, image.width, top + ROW_H - 1), fill=_RULE)
    middle = top + ROW_H / 2
    face, bold = font(TEXT), font(TEXT, bold=True)
    ink = _FAINT if row.withdrawn else _INK
    draw_text(image, (columns.rank + RANK_W - 12, middle), str(row.rank), bold, ink, "rm")
    name_w = columns.numbers[0] - columns.name - 8
    if row.withdrawn:
        mark = f" ({clean(words.withdrawn)})"
        name = fit(name, bold, max(name_w - length(mark, face), name_w / 2))
        draw_text(image, (columns.name, middle), name, bold, ink, "lm")
        after = columns.name + length(name, bold)
        draw_text(
            image,
            (after, middle),
            fit(mark, face, name_w - (after - columns.name)),
            face,
            _FAINT,
            "lm",
        )
    else:
        draw_text(image, (columns.name, middle), fit(name, bold, name_w), bold, ink, "lm")
    values = (row.match_points, row.game_points, row.buchholz, row.sonneborn_berger)
    for left, value, numeral in zip(columns.numbers, values, (bold, face, face, face), strict=True):
        draw_text(image, (left + NUMBER_W - 8, middle), halves(value), numeral, ink, "rm")
    for left, cell in zip(columns.rounds, row.rounds, strict=False):
        if cell is not None:
            _cell(image, left, middle, cell, ranks, words)


def _cell(
    image: Image.Image,
    left: int,
    middle: float,
    cell: TableCell,
    ranks: Mapping[int, int],
    words: TableWording,
) -> None:
    face = font(TEXT)
    ink = _OUTCOME_INK.get(cell.outcome, _INK)
    if cell.outcome == "bye" or cell.opponent is None:
        draw_text(
            image,
            (left + ROUND_W / 2, middle),
            _fitted(words.bye, face, ROUND_W - 6),
            face,
            ink,
            "mm",
        )
        return
    text = f"{_SIGN.get(cell.outcome, '')}{ranks.get(cell.opponent, '?')}"
    if cell.outcome.startswith("forfeit"):  # not played: no one started, so no dot
        text += clean(words.forfeit)
        draw_text(image, (left + 8, middle), fit(text, face, ROUND_W - 12), face, ink, "lm")
        return
    x, y = left + 12, round(middle)
    dot = (x - 4, y - 4, x + 4, y + 4)  # who started the match: filled, else a ring
    ImageDraw.Draw(image).ellipse(dot, fill=_INK if cell.started else None, outline=_INK, width=1)
    draw_text(image, (x + 10, middle), fit(text, face, ROUND_W - 24), face, ink, "lm")


def _wrap(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines that fit ``width``, broken between its " · " parts where it can."""
    lines: list[str] = []
    for part in text.split(" · "):
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and length(joined, face) <= width:
            lines[-1] = joined
        else:
            lines.append(fit(part, face, width))
    return lines


def _legend(image: Image.Image, lines: list[str]) -> None:
    face = font(LEGEND_TEXT)
    top = image.height - LEGEND_PAD - LEGEND_LINE * len(lines)
    for i, line in enumerate(lines):
        draw_text(image, (PAD, top + LEGEND_LINE * (i + 0.5)), line, face, _FAINT, "lm")


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The table's own colours, each text colour blended into its background in eight steps
    (anti-aliased edges), and an even spread for emoji in names. Mapping to a fixed palette
    makes encoding about three times faster and the file about a third of RGB's size."""
    inks = dict.fromkeys((_INK, _FAINT, *_OUTCOME_INK.values()))
    pairs = [(ink, back) for back in _ROW for ink in inks]
    pairs += [(_FRAME_TEXT, _FRAME), (_MUTED, _FRAME)]
    colours: list[RGB] = [_ACCENT, _RULE, *(c for pair in pairs for c in pair)]
    for ink, back in pairs:
        colours += [_mix(ink, back, step / 8) for step in range(1, 8)]
    unique = list(dict.fromkeys(colours))
    steps = (0, 51, 102, 153, 204, 255)
    even = [(r, g, b) for r in steps for g in steps for b in steps[::2]]
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in (unique + even)[:256] for v in colour])
    image.load()  # settled now: threads only read it
    return image


def _mix(top: RGB, under: RGB, alpha: float) -> RGB:
    r, g, b = (round(t * alpha + u * (1 - alpha)) for t, u in zip(top, under, strict=True))
    return r, g, b


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    mapped = image.quantize(palette=_palette(), dither=Image.Dither.NONE)
    mapped.save(buffer, "PNG", compress_level=3, optimize=False)
    return buffer.getvalue()
