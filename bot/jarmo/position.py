"""Read-only snapshots of a game, for renderers and other readers that must not change it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

Side = Literal["white", "black"]
PieceKind = Literal["archer", "marked", "guard"]
SIDES: Final[tuple[Side, Side]] = ("white", "black")


def other_side(side: Side) -> Side:
    """The opponent of ``side``."""
    return "black" if side == "white" else "white"


class Termination(Enum):
    """Why a game ended on the board (resignation and the like are the service's business)."""

    CAMP = "camp"  # a side has every piece it still has on the board in the enemy camp (or none)
    REPETITION = "repetition"  # ludos: both sides shuffled back and forth
    PLY_LIMIT = "ply_limit"
    NO_MOVES = "no_moves"  # the side to move has no legal action


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the reason, the points and the winner (``None`` for a draw)."""

    termination: Termination
    points: dict[Side, int]
    winner: Side | None


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece on the board."""

    point: str  # canonical point name, e.g. "C2"
    side: Side
    kind: PieceKind


@dataclass(frozen=True, slots=True)
class LastAction:
    """The most recent action, as a renderer highlights it.

    ``origin``/``target`` are set for a step, ``placed`` for a redeploy / place (alone or after
    a ludos step). ``capture`` tells whether the step took an enemy piece.
    """

    notation: str
    origin: str | None
    target: str | None
    capture: bool
    placed: str | None


@dataclass(frozen=True, slots=True)
class Position:
    """Everything needed to draw a position, detached from the live game."""

    ruleset: str
    layout: str
    lines: tuple[tuple[str, str], ...]
    turn: Side
    ply: int
    pieces: tuple[Piece, ...]
    captured: dict[Side, int]  # own pieces the opponent has taken
    reserve: dict[Side, int]  # ludos: recovered pieces waiting to be placed
    points: dict[Side, int]
    last: LastAction | None
    outcome: Outcome | None  # None while the game is running

    def piece_at(self, point: str) -> Piece | None:
        """The piece on ``point`` (canonical name), or ``None``."""
        for piece in self.pieces:
            if piece.point == point:
                return piece
        return None
