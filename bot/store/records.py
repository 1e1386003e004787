"""Typed, frozen records the store hands out and takes in; never raw rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from bot.store.clocks import NO_CLOCK, GameClock

if TYPE_CHECKING:
    from bot.jarmo import Game

Side = Literal["white", "black"]
SidePreference = Literal["white", "black", "random"]
ChallengeStatus = Literal["pending", "accepted", "declined", "cancelled", "expired"]
ClosedChallengeStatus = Literal["declined", "cancelled", "expired"]
MatchState = Literal["running", "finished", "forfeited", "aborted"]
EndedMatchState = Literal["finished", "forfeited", "aborted"]
GameStatus = Literal["active", "finished", "resigned", "timeout", "stopped", "aborted"]
EndedGameStatus = Literal["finished", "resigned", "timeout", "stopped", "aborted"]

DEFAULT_RULESET = "classic"
DEFAULT_LAYOUT = "traditional"
DEFAULT_MAX_PLIES = 200


@dataclass(frozen=True, slots=True)
class ChallengeOptions:
    """What the challenger asked for; copied onto the match when the challenge is accepted."""

    game_count: int = 1  # one of the engine's MATCH_LENGTHS
    ruleset: str = DEFAULT_RULESET
    layout: str = DEFAULT_LAYOUT
    side: SidePreference = "random"  # the challenger's side in game 1
    max_plies: int = DEFAULT_MAX_PLIES
    vs_computer_level: str | None = None  # reserved for play against the computer
    time_per_move_seconds: int | None = None  # None: no time limit per move


@dataclass(frozen=True, slots=True)
class RatingRange:
    """The ratings, both ends included, of the players who may accept an open challenge."""

    lowest: int
    highest: int

    def holds(self, rating: float) -> bool:
        """Whether a player rated ``rating`` (as shown, rounded) may accept."""
        return self.lowest <= round(rating) <= self.highest


@dataclass(frozen=True, slots=True)
class NewChallenge:
    """A challenge about to be posted; the store assigns the id and ``created_at``."""

    guild_id: int | None  # None: outside servers
    channel_id: int
    challenger_id: int
    challenged_id: int | None  # None: an open challenge, naming no opponent
    options: ChallengeOptions
    expires_at: datetime  # timezone-aware UTC
    rating_range: RatingRange | None = None  # only for an open challenge; None: anyone


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A stored challenge."""

    id: int
    guild_id: int | None  # None: outside servers
    channel_id: int
    challenger_id: int
    challenged_id: int | None  # None: an open challenge, naming no opponent
    options: ChallengeOptions
    status: ChallengeStatus
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None  # when it left "pending"
    message_id: int | None  # the Discord message that shows it, once posted
    rating_range: RatingRange | None = None  # who may accept an open challenge; None: anyone

    def is_overdue(self, now: datetime) -> bool:
        """Whether a pending challenge has outlived its expiry time at ``now``."""
        return self.status == "pending" and now >= self.expires_at


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A stored match: a series of games between two players who swap sides every game."""

    id: int
    guild_id: int | None  # None: outside servers
    channel_id: int
    challenge_id: int | None
    first_white_id: int  # White in game 0
    first_black_id: int
    ruleset: str
    layout: str
    game_count: int
    max_plies: int
    state: MatchState
    winner_id: int | None  # None while running and for a drawn or aborted match
    created_at: datetime
    finished_at: datetime | None
    time_per_move_seconds: int | None = None  # None: no time limit per move

    @property
    def player_ids(self) -> tuple[int, int]:
        """Both players, game 0's White first."""
        return (self.first_white_id, self.first_black_id)

    def white_for(self, index: int) -> int:
        """The player with White in game ``index`` (0-based); sides swap every game."""
        return self.first_white_id if index % 2 == 0 else self.first_black_id

    def black_for(self, index: int) -> int:
        """The player with Black in game ``index`` (0-based)."""
        return self.first_black_id if index % 2 == 0 else self.first_white_id

    def opponent_of(self, user_id: int) -> int:
        """The other player; raises ``ValueError`` if ``user_id`` does not play in this match."""
        if user_id == self.first_white_id:
            return self.first_black_id
        if user_id == self.first_black_id:
            return self.first_white_id
        raise ValueError(f"user {user_id} does not play in match {self.id}")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game with its live engine object and its match, read with it.

    ``engine`` (the rules engine's game) has been checked against the stored action list (see
    ``GameStore.get``). It is a fresh object for each load, so the caller may play on it and
    hand it back to the store.
    ``match`` is the match row as it stood when the game was read (or written).
    """

    id: int
    match: MatchRecord
    index: int  # 0-based position in the match
    guild_id: int | None  # None: outside servers
    channel_id: int
    white_id: int
    black_id: int
    status: GameStatus
    # Counts the changes of the game's position and status (each move, the ending), from 0, and
    # never goes back: a view older than the last change is stale, even one with as many
    # actions. The clock's own writes leave it (they are guarded by its columns as well). The
    # ply count is ``len(engine.history)``.
    version: int
    engine: Game
    winner: Side | None  # None while active and for a draw
    points: dict[Side, int] | None  # None while active
    termination: str | None  # a Termination value, or "resigned", "timeout", ...
    started_at: datetime
    last_activity: datetime
    finished_at: datetime | None
    # Each player's turn pings (White's, Black's) as they stood when the game was read or
    # written: a move pings by them without reading them again.
    turn_pings: tuple[TurnPingSetting, TurnPingSetting]
    clock: GameClock = NO_CLOCK  # the correspondence clock

    @property
    def match_id(self) -> int:
        """The id of the game's match."""
        return self.match.id

    @property
    def is_active(self) -> bool:
        """Whether moves may still be recorded."""
        return self.status == "active"

    def player_id(self, side: Side) -> int:
        """The player who has ``side`` in this game."""
        return self.white_id if side == "white" else self.black_id

    def ping_setting(self, user_id: int) -> TurnPingSetting:
        """The turn pings of ``user_id``, who plays in this game (``ValueError`` otherwise)."""
        side = self.side_of(user_id)
        if side is None:
            raise ValueError(f"user {user_id} does not play in game {self.id}")
        return self.turn_pings[0 if side == "white" else 1]

    def side_of(self, user_id: int) -> Side | None:
        """The side ``user_id`` plays, or ``None`` for an onlooker."""
        if user_id == self.white_id:
            return "white"
        if user_id == self.black_id:
            return "black"
        return None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One stored action (ply) of a game; plies are numbered from 1."""

    game_id: int
    ply: int
    player_id: int
    move: str  # canonical notation
    played_at: datetime
    # The game's deadline and reminders sent before the action (None: not kept, or untimed).
    deadline_before: datetime | None = None
    reminders_before: int | None = None


@dataclass(frozen=True, slots=True)
class TakenBackRecord:
    """An action taken back by agreement: no longer in its game, kept for its history."""

    game_id: int
    version: int  # the game's version the takeback made
    ply: int
    player_id: int
    move: str
    played_at: datetime
    taken_back_at: datetime


@dataclass(frozen=True, slots=True)
class GameEnd:
    """Everything ``GameStore.end`` changed: the ended game, its match, and the next game."""

    game: GameRecord
    match: MatchRecord
    next_game: GameRecord | None  # set when the match goes on


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player known in one guild: the name to show. Statistics and ratings come from
    ``ResultStore.player_stats`` and ``RatingStore.player_ratings``."""

    guild_id: int | None  # None: outside servers
    user_id: int
    display_name: str | None  # last name seen; None only in rows from before schema 4


@dataclass(frozen=True, slots=True)
class DamagedGame:
    """A game whose stored record cannot be loaded, and why (for ``jarmo-bot doctor``)."""

    game_id: int
    guild_id: int | None  # None: outside servers
    channel_id: int
    status: str
    reason: str


# How a player is told it is their move: mentioned by the move's board, a direct message, or
# not at all.
TurnPing = Literal["mention", "dm", "off"]
TURN_PINGS: tuple[TurnPing, ...] = ("mention", "dm", "off")


@dataclass(frozen=True, slots=True)
class TurnPingSetting:
    """A player's choice of turn pings (in every server), and whether a direct message to them
    was refused and they are yet to be told."""

    mode: TurnPing = "mention"
    dm_refused: bool = False
