"""How an ended game is shown: who won, why, and the score, as data the renderer words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.jarmo.position import SIDES, Outcome, Side, Termination, other_side

OffBoardEnd = Literal["resigned", "timeout", "stopped", "aborted"]
OFF_BOARD_ENDS: tuple[OffBoardEnd, ...] = ("resigned", "timeout", "stopped", "aborted")
_BOARD_ENDS = {
    Termination.CAMP: "all pieces in camp",
    Termination.REPETITION: "repetition",
    Termination.PLY_LIMIT: "move limit reached",
    Termination.NO_MOVES: "no legal move left",
}


@dataclass(frozen=True, slots=True)
class ResultBanner:
    """The end of a game as its final image shows it.

    ``reason`` is a board ending (:class:`~bot.jarmo.position.Termination`) or one decided off
    the board: ``"resigned"`` and ``"timeout"`` (the side that is not ``winner`` lost),
    ``"stopped"`` (ended by agreement and scored as it stood) or ``"aborted"`` (nothing
    counts). ``winner`` is ``None`` for a draw and for an aborted game.
    """

    reason: Termination | OffBoardEnd
    winner: Side | None
    points: dict[Side, int]

    def __post_init__(self) -> None:
        if not isinstance(self.reason, Termination) and self.reason not in OFF_BOARD_ENDS:
            raise ValueError(f"unknown reason a game ended: {self.reason!r}")
        if self.winner is not None and self.winner not in SIDES:
            raise ValueError(f"winner must be 'white', 'black' or None, not {self.winner!r}")
        if self.reason in ("resigned", "timeout") and self.winner is None:
            raise ValueError(f"a game that ended by {self.reason!r} has a winner")
        if set(self.points) != set(SIDES):
            raise ValueError(f"points must give both sides, not {sorted(self.points)}")

    @classmethod
    def from_outcome(cls, outcome: Outcome) -> ResultBanner:
        """The banner of a game that ended on the board."""
        return cls(outcome.termination, outcome.winner, outcome.points)

    @classmethod
    def from_record(cls, reason: str, winner: Side | None, points: dict[Side, int]) -> ResultBanner:
        """The banner from stored fields: ``reason`` is a ``Termination`` value or one of
        ``OFF_BOARD_ENDS``. Raises ``ValueError`` for anything else."""
        ending = reason if reason in OFF_BOARD_ENDS else Termination(reason)
        return cls(ending, winner, dict(points))


def headline(result: ResultBanner, side_names: dict[Side, str]) -> str:
    """``"White wins 7–4"``, ``"Draw 5–5"`` or ``"Aborted"``."""
    if result.reason == "aborted":
        return "Aborted"
    points = result.points
    if result.winner is None:
        return f"Draw {points['white']}–{points['black']}"
    loser = other_side(result.winner)
    return f"{side_names[result.winner]} wins {points[result.winner]}–{points[loser]}"


def reason_text(result: ResultBanner, side_names: dict[Side, str]) -> str:
    """Why the game ended, e.g. ``"Black resigned"`` or ``"aborted, nothing counts"``."""
    if isinstance(result.reason, Termination):
        return _BOARD_ENDS[result.reason]
    loser = side_names[other_side(result.winner)] if result.winner else ""
    return {
        "resigned": f"{loser} resigned",
        "timeout": f"{loser} lost on time",
        "stopped": "stopped by agreement, scored as it stood",
        "aborted": "aborted by a moderator, nothing counts",
    }[result.reason]


def loser_tag(result: ResultBanner) -> str:
    """The label on the losing side's bar, when the loss was not on the board."""
    return {"resigned": "RESIGNED", "timeout": "OUT OF TIME"}.get(str(result.reason), "")
