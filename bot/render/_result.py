"""How an ended game is shown: who won, why, and the score, as data the renderer words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.jarmo.position import SIDES, Outcome, Side, Termination, other_side
from bot.render._words import ENGLISH, ImageWords

OffBoardEnd = Literal["resigned", "timeout", "stopped", "aborted"]
OFF_BOARD_ENDS: tuple[OffBoardEnd, ...] = ("resigned", "timeout", "stopped", "aborted")


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


def headline(result: ResultBanner, side_names: dict[Side, str], words: ImageWords = ENGLISH) -> str:
    """``"White wins 7–4"``, ``"Draw 5–5"`` or ``"Aborted"`` (``side_names`` are the theme's
    colours, which ``words`` translates)."""
    if result.reason == "aborted":
        return words.aborted
    points = result.points
    if result.winner is None:
        return words.draw.format(white=points["white"], black=points["black"])
    loser = other_side(result.winner)
    return words.wins.format(
        side=words.colour(side_names[result.winner]),
        winner=points[result.winner],
        loser=points[loser],
    )


def reason_text(
    result: ResultBanner, side_names: dict[Side, str], words: ImageWords = ENGLISH
) -> str:
    """Why the game ended, e.g. ``"Black resigned"`` or ``"aborted, nothing counts"``."""
    if result.reason is Termination.CAMP:
        # The camp ending also comes when one side has nothing left on the board; every piece
        # on the board scores, so that side is the one without a point.
        emptied = next((side for side in SIDES if result.points[side] == 0), None)
        if emptied is not None:
            return words.no_pieces_left.format(side=words.colour(side_names[emptied]))
    if isinstance(result.reason, Termination):
        return words.board_ends[result.reason]
    loser = words.colour(side_names[other_side(result.winner)]) if result.winner else ""
    return {
        "resigned": words.resigned,
        "timeout": words.lost_on_time,
        "stopped": words.stopped,
        "aborted": words.aborted_reason,
    }[result.reason].format(side=loser)


def loser_tag(result: ResultBanner, words: ImageWords = ENGLISH) -> str:
    """The label on the losing side's bar, when the loss was not on the board."""
    return {"resigned": words.tag_resigned, "timeout": words.tag_out_of_time}.get(
        str(result.reason), ""
    )
