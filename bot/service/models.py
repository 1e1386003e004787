"""The service's inputs and outputs: plain data that any front end (Discord, console) can show."""

from __future__ import annotations

from dataclasses import dataclass

from bot.jarmo import Game, Outcome
from bot.service._views import BoardPicture
from bot.service.stats_models import RatingShift
from bot.service.timecontrol import ClockView
from bot.store import ChallengeRecord, GameRecord, MatchRecord, TurnPing


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a user id and the name to show for them."""

    user_id: int
    display_name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Place:
    """Where the action happens: games and challenges live in one channel of one server, or
    of no server (``guild_id`` ``None``: a DM, a group DM, or a server without the bot)."""

    guild_id: int | None
    channel_id: int


@dataclass(frozen=True, slots=True)
class ChallengeRequest:
    """What the challenger asked for; ``None`` means the configured default."""

    opponent: Actor | None  # None: an open challenge, that anyone in the channel may accept
    games: int = 1
    ruleset: str | None = None
    side: str = "random"  # the challenger's side in game 1: white, black or random
    time_per_move: str | None = None  # "30m", "1d", "none", ...
    level: str | None = None  # the computer's strength when the opponent is the computer
    rating_range: str | None = None  # an open challenge's "1000-1300": who may accept it


@dataclass(frozen=True, slots=True)
class BoardView:
    """A position as the players see it: the game, its match, names, and its picture."""

    game: GameRecord
    match: MatchRecord
    white_name: str
    black_name: str
    image: BoardPicture  # drawn by the front end, in its reader's words
    clock: ClockView | None = None  # the player to move's time; None without a limit
    computer_id: int | None = None  # the computer opponent's user id, when one is attached

    @property
    def live(self) -> Game:
        """The rules engine's game: the position shown, its history and legal moves."""
        return self.game.engine

    @property
    def turn_user_id(self) -> int | None:
        """Whose move it is, or ``None`` once the game has ended."""
        if not self.game.is_active or self.live.over:
            return None
        return self.game.player_id(self.live.turn)

    @property
    def human_to_move(self) -> int | None:
        """The player to move when that is a person, to address with "your move"; ``None``
        once the game has ended or while the computer thinks."""
        turn = self.turn_user_id
        return None if turn == self.computer_id else turn


@dataclass(frozen=True, slots=True)
class GameSummary:
    """How a game ended, in the players' terms."""

    game: GameRecord
    status: str  # finished / resigned / stopped / aborted / timeout
    outcome: Outcome | None  # the board result, when the game ended on the board
    winner_id: int | None  # None for a draw or an abort
    points_by_player: dict[int, int]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of a match in the standings."""

    index: int
    white_id: int
    black_id: int
    status: str
    points_by_player: dict[int, int] | None  # None while the game is being played


@dataclass(frozen=True, slots=True)
class CountedResult:
    """How a tournament counts a match that was stopped before its end (a moderator forced
    the round, or a player withdrew): the winner (``None``: drawn), each player's game points
    by id, whether it was won by forfeit, and the moderator who forced it (``None``: none
    did)."""

    winner_id: int | None
    points: dict[int, int]
    forfeit: bool = False
    forced_by: int | None = None


@dataclass(frozen=True, slots=True)
class MatchStandings:
    """The state of a channel's current (or last) match. ``counted``: for an aborted
    tournament match, the result its tournament counts (the table's)."""

    match: MatchRecord
    names: dict[int, str]
    games: list[GameLine]
    totals: dict[int, int]
    leader_id: int | None  # None when level
    games_left: int
    turn_user_id: int | None  # whose move it is in the running game, if any
    over: bool
    winner_id: int | None  # the match winner once over; None for a draw or abort
    rating_changes: tuple[RatingShift, ...] = ()  # once over: each rated player's change
    counted: CountedResult | None = None


@dataclass(frozen=True, slots=True)
class Report:
    """Everything a front end shows after an action that changed a game."""

    actor_id: int
    action: str | None  # the canonical move, or None for resign / stop / abort
    board: BoardView  # the position after the action
    ended: GameSummary | None = None  # set when the action ended the game
    standings: MatchStandings | None = None  # set when a game ended
    next_board: BoardView | None = None  # the next game of the match, sides swapped
    # The outbox key of this report when the store keeps it for delivery (the computer's
    # moves): whoever posts it settles it with ``AnnouncementCases.posted``.
    announcement: str | None = None
    # How the player to move is told: the board mentions them (``mention``), or not (a
    # direct message tells them, or nothing does).
    turn_ping: TurnPing = "mention"
    # The actor is yet to hear that a direct message to them was refused (they closed DMs).
    dm_refused: bool = False


@dataclass(frozen=True, slots=True)
class DamagedGameAborted:
    """A moderator ended a damaged game: it was set aside for the operator; nothing counts."""

    game_id: int
    actor_id: int


@dataclass(frozen=True, slots=True)
class ChallengeView:
    """A pending or answered challenge, with the names to show (``challenged_name`` is empty
    for an open challenge, which names nobody)."""

    challenge: ChallengeRecord
    challenger_name: str
    challenged_name: str


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """The service's knobs (filled from the bot's configuration)."""

    challenge_expiry_seconds: int = 600
    default_ruleset: str = "classic"
    max_plies: int = 200
    time_per_move_seconds: int | None = None  # the default time limit per move
    vacation_days_per_year: int = 14  # each player's vacation time per calendar year
