"""A text picture of a position for the terminal: rows 5 to 1 top to bottom, as White sees it."""

from __future__ import annotations

from bot.jarmo import Piece, Position

COLUMNS = "ABCDE"
ROWS = range(5, 0, -1)
_KIND_MARK = {"archer": "", "marked": "*", "guard": "+"}
_LEGEND = "W/B: White/Black archer · *: marked (has captured) · +: guard"


def piece_symbol(piece: Piece | None) -> str:
    """``W`` / ``B`` for an archer, with ``*`` when marked or ``+`` for a guard; ``.`` if empty."""
    if piece is None:
        return "."
    return piece.side[0].upper() + _KIND_MARK.get(piece.kind, "?")


def board_diagram(position: Position) -> str:
    """The board as a few lines of text, with camps, captures, reserves and the last action."""
    lines = ["     " + "   ".join(COLUMNS)]
    for row in ROWS:
        cells = "".join(f"{piece_symbol(position.piece_at(f'{c}{row}')):<4}" for c in COLUMNS)
        camp = {5: "  Black camp", 1: "  White camp"}.get(row, "")
        lines.append(f"  {row}  {cells.rstrip():<18}{camp}".rstrip())
    lines.append(_counts(position))
    if any(p.kind != "archer" for p in position.pieces):
        lines.append(_LEGEND)
    return "\n".join(lines)


def _counts(position: Position) -> str:
    parts = []
    for side in ("white", "black"):
        lost = position.captured.get(side, 0)
        text = f"{side.capitalize()} lost {lost}"
        reserve = position.reserve.get(side, 0)
        if reserve:
            text += f", {reserve} in reserve"
        parts.append(text)
    last = f" · last action {position.last.notation}" if position.last else ""
    return " · ".join(parts) + last
