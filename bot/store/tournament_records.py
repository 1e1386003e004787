"""What the tournament role stores and hands out: the event, its entries and its pairings, and
the errors of its version-checked writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from bot.store.errors import StoreError

TournamentFormat = Literal["round-robin", "swiss"]
TournamentStatus = Literal["signup", "running", "finished"]


@dataclass(frozen=True, slots=True)
class NewTournament:
    """A tournament about to open for sign-up; the store assigns the id and ``created_at``."""

    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    format: TournamentFormat
    rounds: int  # 0: as many as the format allows for the players who sign up
    game_count: int  # games per match: 2, 4 or 6
    ruleset: str
    layout: str
    max_plies: int
    time_per_move_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A stored tournament. ``current_round`` is 0 during sign-up; every change of round checks
    it, so it is the event's version."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    format: TournamentFormat
    rounds: int
    game_count: int
    ruleset: str
    layout: str
    max_plies: int
    time_per_move_seconds: int | None
    status: TournamentStatus
    current_round: int
    message_id: int | None
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """A player entered in a tournament; ``seed`` is their place in the order of joining."""

    user_id: int
    seed: int
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class NewPairing:
    """One board of a round: a match between ``first`` and ``second`` (``first`` starts), or a
    bye for ``first`` when ``second`` is ``None``. A pairing may be stored decided already (a
    bye, or a walkover against a withdrawn player)."""

    first_id: int
    second_id: int | None
    decided: bool = False
    winner_id: int | None = None
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class PairingRecord:
    """A stored pairing and, once ``decided``, its result (``winner_id`` ``None``: drawn);
    ``forced_by``: the moderator who decided it before its match was over (``None``: not
    forced)."""

    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int | None
    match_id: int | None
    decided: bool
    winner_id: int | None
    first_points: int
    second_points: int
    forfeit: bool
    forced_by: int | None = None

    @property
    def is_bye(self) -> bool:
        """Whether this is a bye rather than a match."""
        return self.second_id is None

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The one or two players of this board."""
        return (self.first_id,) if self.second_id is None else (self.first_id, self.second_id)


@dataclass(frozen=True, slots=True)
class PairingResult:
    """How a pairing ended: the winner (``None``: drawn), each side's game points, and the
    moderator who forced it (``None``: not forced)."""

    winner_id: int | None
    first_points: int = 0
    second_points: int = 0
    forfeit: bool = False
    forced_by: int | None = None


class TournamentClosed(StoreError):
    """The tournament is not open for sign-up (it started or finished)."""

    def __init__(self, tournament_id: int, status: str) -> None:
        self.tournament_id = tournament_id
        self.status = status
        super().__init__(f"tournament {tournament_id} is {status}")


class ChannelHasTournament(StoreError):
    """The channel already has a tournament in sign-up or running."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"channel {channel_id} already has an open tournament")


class StaleTournament(StoreError):
    """The tournament moved on meanwhile: it is not at the round (or status) the write expected."""

    def __init__(self, tournament_id: int, expected_round: int) -> None:
        self.tournament_id = tournament_id
        self.expected_round = expected_round
        super().__init__(f"tournament {tournament_id} is no longer at round {expected_round}")
