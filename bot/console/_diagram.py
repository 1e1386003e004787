"""A text picture of a position for the terminal: rows 5 to 1 top to bottom, as White sees it.

Sides are named as the ruleset names them (:func:`bot.jarmo.side_name`): W and B for White and
Black, G and B for ludos's Green and Blue.
"""

from __future__ import annotations

from bot.jarmo import SIDES, Piece, Position, Side, side_name

COLUMNS = "ABCDE"
ROWS = range(5, 0, -1)
_KIND_MARK = {"archer": "", "marked": "*", "guard": "+"}


def piece_symbol(piece: Piece | None, ruleset: str = "classic") -> str:
    """``W`` / ``B`` for an archer (``G`` / ``B`` in ludos), with ``*`` when marked or ``+``
    for a guard; ``.`` if empty."""
    if piece is None:
        return "."
    return side_name(piece.side, ruleset)[0] + _KIND_MARK.get(piece.kind, "?")


def board_diagram(position: Position) -> str:
    """The board as a few lines of text, with camps, captures, reserves and the last action."""
    names = {side: side_name(side, position.ruleset) for side in SIDES}
    lines = ["     " + "   ".join(COLUMNS)]
    for row in ROWS:
        cells = "".join(
            f"{piece_symbol(position.piece_at(f'{c}{row}'), position.ruleset):<4}" for c in COLUMNS
        )
        camp = {5: f"  {names['black']} camp", 1: f"  {names['white']} camp"}.get(row, "")
        lines.append(f"  {row}  {cells.rstrip():<18}{camp}".rstrip())
    lines.append(_counts(position, names))
    if any(p.kind != "archer" for p in position.pieces):
        white, black = names["white"], names["black"]
        lines.append(
            f"{white[0]}/{black[0]}: {white}/{black} archer · *: marked (has captured) · +: guard"
        )
    return "\n".join(lines)


def _counts(position: Position, names: dict[Side, str]) -> str:
    parts = []
    for side in SIDES:
        lost = position.captured.get(side, 0)
        text = f"{names[side]} lost {lost}"
        reserve = position.reserve.get(side, 0)
        if reserve:
            text += f", {reserve} in reserve"
        parts.append(text)
    last = f" · last action {position.last.notation}" if position.last else ""
    return " · ".join(parts) + last
