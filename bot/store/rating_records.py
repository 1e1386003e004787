"""Typed, frozen records for ratings, leaderboards, player statistics and game history.

The store keeps ratings but never computes them: ``Skill`` values arrive ready-made from the
service (see ``bot.service.ratings``) and are handed back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Final, Literal

from bot.store.records import GameStatus, Side

Outcome = Literal["win", "draw", "loss"]
# Statuses of games that ended with a result; an aborted game has none.
COUNTED_STATUSES: tuple[GameStatus, ...] = ("finished", "resigned", "timeout", "stopped")


class EveryPool(Enum):
    """Every rating pool at once: each server's and the friends pool (the games outside
    servers). A pool is otherwise named by its ``guild_id``, ``None`` for the friends pool."""

    EVERY_POOL = "every pool"


EVERY_POOL: Final = EveryPool.EVERY_POOL
# Which ratings a recomputation covers: one server's, the friends pool (None), or every pool.
RatingScope = int | None | Literal[EveryPool.EVERY_POOL]


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating as stored: the model's estimate (``mu``, ``sigma``) and the value shown."""

    mu: float
    sigma: float
    rating: float  # the shown, conservative value the leaderboard sorts by


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a game."""

    user_id: int
    games_before: int  # rated games in this ruleset before this one: checked when writing
    before: Skill
    after: Skill


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """What ``GameStore.end`` writes for a rated game: both players' changes in ``ruleset``."""

    ruleset: str
    changes: tuple[RatingChange, RatingChange]


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A player's rated play in one ruleset of one server (``guild_id`` ``None``: the friends
    pool)."""

    guild_id: int | None
    ruleset: str
    user_id: int
    skill: Skill
    games: int
    wins: int
    draws: int
    losses: int
    points: int  # board points summed over the rated games
    match_wins: int  # matches won whose last game was rated
    last_game_at: datetime
    display_name: str | None = None  # read from the players table; not part of the rating


@dataclass(frozen=True, slots=True)
class RankedRating:
    """A leaderboard row: ``rank`` is 1 for the top (rating desc, games desc, user id)."""

    rank: int
    rating: RatingRecord


@dataclass(frozen=True, slots=True)
class RatingHistoryRecord:
    """One player's rating change in one rated game."""

    game_id: int
    guild_id: int | None  # None: outside servers
    ruleset: str
    user_id: int
    before: Skill
    after: Skill
    at: datetime  # when the game ended


@dataclass(frozen=True, slots=True)
class Tally:
    """Results over some games, from one player's point of view."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0  # the player's board points
    points_against: int = 0  # the opponents' board points

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.wins + other.wins,
            self.draws + other.draws,
            self.losses + other.losses,
            self.points + other.points,
            self.points_against + other.points_against,
        )


@dataclass(frozen=True, slots=True)
class Streak:
    """The same result in the player's latest games: ``length`` of them, or none yet."""

    result: Outcome | None = None
    length: int = 0


@dataclass(frozen=True, slots=True)
class PlayerStatsRecord:
    """A player's games on one server (all rulesets, rated or not), by the side they had."""

    guild_id: int | None  # None: outside servers
    user_id: int
    display_name: str | None
    as_white: Tally
    as_black: Tally
    matches: int  # matches that ended with a result (finished or forfeited)
    match_wins: int
    match_losses: int
    streak: Streak

    @property
    def overall(self) -> Tally:
        """Both sides together."""
        return self.as_white + self.as_black


@dataclass(frozen=True, slots=True)
class GameResultRecord:
    """An ended game as history shows it (no engine object: cheap to list)."""

    id: int
    match_id: int
    index: int
    guild_id: int | None  # None: outside servers
    channel_id: int
    ruleset: str
    layout: str
    white_id: int
    black_id: int
    status: GameStatus
    winner: Side | None
    points: dict[Side, int]
    termination: str | None
    plies: int
    rated: bool
    finished_at: datetime

    def side_of(self, user_id: int) -> Side | None:
        """The side ``user_id`` played, or ``None`` if they did not play."""
        if user_id == self.white_id:
            return "white"
        if user_id == self.black_id:
            return "black"
        return None

    def opponent_of(self, user_id: int) -> int:
        """The other player (White's opponent for anyone who did not play)."""
        return self.white_id if user_id == self.black_id else self.black_id

    def result_for(self, user_id: int) -> Outcome:
        """``user_id``'s result; raises ``ValueError`` if they did not play."""
        side = self.side_of(user_id)
        if side is None:
            raise ValueError(f"user {user_id} did not play game {self.id}")
        if self.winner is None:
            return "draw"
        return "win" if self.winner == side else "loss"


@dataclass(frozen=True, slots=True)
class RatedGameRecord:
    """A rated game's result, in the order ratings were applied (for recomputation)."""

    id: int
    guild_id: int | None  # None: outside servers
    ruleset: str
    white_id: int
    black_id: int
    winner: Side | None
    points: dict[Side, int]
    finished_at: datetime
    match_winner_id: int | None  # set when this game ended its match and someone won it


@dataclass(frozen=True, slots=True)
class RatingTables:
    """Every stored rating and rating-history row of one server (or of all servers)."""

    ratings: list[RatingRecord]
    history: list[RatingHistoryRecord]
