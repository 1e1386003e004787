"""What ending applies to a game: one value the service builds and ``GameStore.end`` records.

A game ends with a status and a result, optionally with the move that ended it; then either the
match goes on with a fresh next game, or the match ends too. Contradictions (a drawn forfeit, a
match that both goes on and ends) cannot be built: the constructor refuses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.store.outbox import Announcement
from bot.store.rating_records import RatingUpdate
from bot.store.records import EndedGameStatus, EndedMatchState, Side

if TYPE_CHECKING:
    from bot.jarmo import Game

_ENDED_GAME: tuple[EndedGameStatus, ...] = ("finished", "resigned", "timeout", "stopped", "aborted")
_ENDED_MATCH: tuple[EndedMatchState, ...] = ("finished", "forfeited", "aborted")


@dataclass(frozen=True, slots=True)
class FinalMove:
    """The move that ended the game, and who played it (already played on the final game)."""

    player_id: int
    move: str  # canonical notation


@dataclass(frozen=True, slots=True)
class NextGame:
    """The match goes on: ``game`` (a fresh engine game) is created as the next one, sides
    swapped."""

    game: Game


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match ends with the game, as ``state``, won by ``winner_id`` (``None``: drawn or
    aborted)."""

    state: EndedMatchState
    winner_id: int | None = None

    def __post_init__(self) -> None:
        if self.state not in _ENDED_MATCH:
            raise ValueError(f"a match cannot end as {self.state!r}")
        if self.state == "aborted" and self.winner_id is not None:
            raise ValueError("an aborted match has no winner")


@dataclass(frozen=True, slots=True)
class GameEnding:
    """Everything that happens when a game ends, recorded in one transaction.

    * ``game``: the final position (it has played ``final_move``, if one is given); stored as the
      game's snapshot.
    * ``status``, ``winner`` (a side, or ``None`` for a draw), ``points`` and ``termination``:
      the game's result.
    * ``then``: the match goes on (:class:`NextGame`) or ends (:class:`MatchOver`).
    * ``ratings`` (computed by the caller from the ratings it read) marks the game rated and
      stores both players' new ratings, history and rated results (and the match win, if the
      match ends with a winner). ``None``: the game is not rated.
    * ``announce`` is written to the outbox with the ending.

    Raises ``ValueError`` for an ending that contradicts itself.
    """

    status: EndedGameStatus
    winner: Side | None
    points: dict[Side, int]
    termination: str
    game: Game
    then: NextGame | MatchOver
    final_move: FinalMove | None = None
    ratings: RatingUpdate | None = None
    announce: Sequence[Announcement] = ()

    def __post_init__(self) -> None:
        if self.status not in _ENDED_GAME:
            raise ValueError(f"a game cannot end as {self.status!r}")
        if self.winner not in ("white", "black", None):
            raise ValueError(f"the winner is a side or None, not {self.winner!r}")
        if set(self.points) != {"white", "black"}:
            raise ValueError(f"points need a white and a black entry, got {self.points!r}")
        if not isinstance(self.then, NextGame | MatchOver):
            raise ValueError(f"then is a NextGame or a MatchOver, not {self.then!r}")
