"""What the tournament use cases take and return: plain values any front end can show."""

from __future__ import annotations

from dataclasses import dataclass

from bot import store as st
from bot.service.models import BoardView
from bot.service.tournaments import draw


@dataclass(frozen=True, slots=True)
class TournamentRequest:
    """What the organiser asked for; ``None`` means the configured default (``rounds``: as
    many as the format allows for the players who sign up)."""

    name: str
    format: str  # "round-robin" or "swiss"
    rounds: int | None = None
    games: int = 2
    ruleset: str | None = None
    time_per_move: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament, its entries in seed order and its players' names."""

    tournament: st.TournamentRecord
    entries: tuple[st.EntryRecord, ...]
    names: dict[int, str]

    @property
    def player_count(self) -> int:
        """How many players are entered."""
        return len(self.entries)


@dataclass(frozen=True, slots=True)
class RoundView:
    """One round's boards: the pairings (a bye has no second player), where each match is
    played (``channels`` by board) and the players' names."""

    tournament: st.TournamentRecord
    number: int
    pairings: tuple[st.PairingRecord, ...]
    channels: dict[int, int]
    names: dict[int, str]


@dataclass(frozen=True, slots=True)
class TableView:
    """The table after the rounds played, and how many rounds the event has."""

    tournament: st.TournamentRecord
    standings: draw.Standings
    names: dict[int, str]
    rounds: int

    @property
    def final(self) -> bool:
        """Whether this is the final table."""
        return self.tournament.status == "finished"


@dataclass(frozen=True, slots=True)
class ForcedMatch:
    """A match a moderator's force decided: where it is played, its players (``first``
    starts) and the result the table counts for it."""

    channel_id: int
    first_id: int
    second_id: int
    result: st.PairingResult

    @property
    def points(self) -> dict[int, int]:
        """Each player's game points as counted, by id."""
        return {self.first_id: self.result.first_points, self.second_id: self.result.second_points}


@dataclass(frozen=True, slots=True)
class ForcedRound:
    """A round a moderator (``moderator_id``) ended: the round, and each match that was still
    being played and is now decided (a pairing never started has no place to tell)."""

    round: RoundView
    moderator_id: int
    matches: tuple[ForcedMatch, ...]


@dataclass(frozen=True, slots=True)
class MatchWelcome:
    """A tournament match's first post in its own channel (``channel_id``): the board, for
    both players."""

    tournament: st.TournamentRecord
    channel_id: int
    first_id: int
    second_id: int
    board: BoardView


__all__ = [
    "ForcedMatch",
    "ForcedRound",
    "MatchWelcome",
    "RoundView",
    "TableView",
    "TournamentRequest",
    "TournamentView",
]
