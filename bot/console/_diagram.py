"""A text picture of a position for the terminal: rows 5 to 1 top to bottom, as White sees it.

Sides are named as the ruleset names them (:func:`bot.jarmo.side_name`), in the players'
language: W and B for White and Black, G and B for ludos's Green and Blue in English.
"""

from __future__ import annotations

from bot.console._words import console_catalogue
from bot.i18n import Catalogue
from bot.jarmo import SIDES, Piece, Position, Side, side_name
from bot.words import shared_catalogue

COLUMNS = "ABCDE"
ROWS = range(5, 0, -1)
_KIND_MARK = {"archer": "", "marked": "*", "guard": "+"}


def piece_symbol(piece: Piece | None, ruleset: str = "classic", language: str | None = None) -> str:
    """``W`` / ``B`` for an archer (``G`` / ``B`` in ludos), with ``*`` when marked or ``+``
    for a guard; ``.`` if empty. The letter is the first of the side's name in ``language``."""
    if piece is None:
        return "."
    name = shared_catalogue(language).gettext(side_name(piece.side, ruleset))
    return name[0] + _KIND_MARK.get(piece.kind, "?")


def board_diagram(position: Position, language: str | None = None) -> str:
    """The board as a few lines of text, with camps, captures, reserves and the last action,
    in ``language`` (English without a translation)."""
    words = console_catalogue(language)
    _ = words.gettext
    shared = shared_catalogue(language)
    names = {side: shared.gettext(side_name(side, position.ruleset)) for side in SIDES}
    lines = ["     " + "   ".join(COLUMNS)]
    for row in ROWS:
        cells = "".join(
            f"{piece_symbol(position.piece_at(f'{c}{row}'), position.ruleset, language):<4}"
            for c in COLUMNS
        )
        camp_of = {5: names["black"], 1: names["white"]}.get(row)
        camp = "  " + _("{side} camp").format(side=camp_of) if camp_of else ""
        lines.append(f"  {row}  {cells.rstrip():<18}{camp}".rstrip())
    lines.append(_counts(position, names, words))
    if any(p.kind != "archer" for p in position.pieces):
        white, black = names["white"], names["black"]
        lines.append(
            _("{w}/{b}: {white}/{black} archer · *: marked (has captured) · +: guard").format(
                w=white[0], b=black[0], white=white, black=black
            )
        )
    return "\n".join(lines)


def _counts(position: Position, names: dict[Side, str], words: Catalogue) -> str:
    _ = words.gettext
    parts = []
    for side in SIDES:
        lost = position.captured.get(side, 0)
        reserve = position.reserve.get(side, 0)
        text = _("{side} lost {lost}, {reserve} in reserve") if reserve else _("{side} lost {lost}")
        parts.append(text.format(side=names[side], lost=lost, reserve=reserve))
    counts = " · ".join(parts)
    if position.last is None:
        return counts
    return _("{counts} · last action {action}").format(counts=counts, action=position.last.notation)
