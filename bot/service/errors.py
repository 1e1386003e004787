"""Refusals: what a use case answers instead of acting. Nothing was changed.

Each refusal is a :class:`Refusal` with a :class:`Code` that names the situation and the fields
that fill in its message; the front ends' catalogues hold the words. The subclasses group codes
by kind, so that callers (and tests) can catch a kind without knowing every code.
"""

from __future__ import annotations

from enum import StrEnum

from bot import store as st
from bot.jarmo import JarmoError


class Code(StrEnum):
    """Every situation in which a use case refuses (the catalogues' keys)."""

    # where and who
    NO_GAME = "no-game"
    NO_MATCH = "no-match"
    NOT_A_PLAYER = "not-a-player"
    NOT_YOUR_TURN = "not-your-turn"
    COMPUTER_THINKING = "computer-thinking"
    CHANNEL_HAS_GAME = "channel-has-game"
    CHANNEL_HAS_CHALLENGE = "channel-has-challenge"
    # moves
    UNREADABLE_MOVE = "unreadable-move"
    ILLEGAL_MOVE = "illegal-move"
    # challenges
    SELF_CHALLENGE = "self-challenge"
    BOT_OPPONENT = "bot-opponent"
    UNKNOWN_LEVEL = "unknown-level"
    BAD_GAME_COUNT = "bad-game-count"
    UNKNOWN_RULESET = "unknown-ruleset"
    UNKNOWN_SIDE = "unknown-side"
    BAD_TIME_LIMIT = "bad-time-limit"
    COMPUTER_HAS_NO_CLOCK = "computer-has-no-clock"
    CHALLENGE_GONE = "challenge-gone"
    CHALLENGE_EXPIRED = "challenge-expired"
    CHALLENGE_ANSWERED = "challenge-answered"
    BAD_RATING_RANGE = "bad-rating-range"
    RATING_RANGE_NEEDS_OPEN_CHALLENGE = "rating-range-needs-open-challenge"
    OUTSIDE_RATING_RANGE = "outside-rating-range"
    OWN_OPEN_CHALLENGE = "own-open-challenge"
    # permissions
    ONLY_CHALLENGED_ANSWERS = "only-challenged-answers"
    ONLY_CHALLENGER_CANCELS = "only-challenger-cancels"
    ONLY_ASKED_ACCEPTS_PAUSE = "only-asked-accepts-pause"
    ONLY_ASKED_ACCEPTS_STOP = "only-asked-accepts-stop"
    COMPUTER_PLAYS_ON = "computer-plays-on"
    ABORT_NEEDS_MANAGER = "abort-needs-manager"
    HINT_NEEDS_COMPUTER = "hint-needs-computer"
    NOT_HERE = "not-here"
    # the game moved on
    CHANGED_MEANWHILE = "changed-meanwhile"
    GAME_ALREADY_ENDED = "game-already-ended"
    STOP_OFFER_OUTDATED = "stop-offer-outdated"
    PAUSE_OFFER_OUTDATED = "pause-offer-outdated"
    # clocks
    CLOCK_PAUSED = "clock-paused"
    TIME_UP = "time-up"
    NO_CLOCK = "no-clock"
    ALREADY_PAUSED = "already-paused"
    NOT_PAUSED = "not-paused"
    OPPONENT_HAS_TIME = "opponent-has-time"
    MOVER_CANNOT_CLAIM = "mover-cannot-claim"
    CLAIM_OUTDATED = "claim-outdated"
    # stats
    NO_RATINGS = "no-ratings"
    NO_STATS = "no-stats"
    NO_HISTORY = "no-history"
    NO_HISTORY_AGAINST = "no-history-against"
    GAME_NOT_IN_HISTORY = "game-not-in-history"
    # rematches and server settings
    REMATCH_ONLY_PLAYERS = "rematch-only-players"
    MATCH_NOT_OVER = "match-not-over"
    OPPONENT_LEFT = "opponent-left"
    SETTINGS_NEED_MANAGER = "settings-need-manager"
    WEB_PAGES_OFF = "web-pages-off"
    UNKNOWN_LANGUAGE = "unknown-language"
    # tournaments
    TOURNAMENT_NEEDS_MANAGER = "tournament-needs-manager"
    TOURNAMENT_NEEDS_SERVER = "tournament-needs-server"
    TOURNAMENT_IN_CHANNEL = "tournament-in-channel"
    NO_TOURNAMENT = "no-tournament"
    BAD_TOURNAMENT_FORMAT = "bad-tournament-format"
    BAD_TOURNAMENT_GAMES = "bad-tournament-games"
    BAD_TOURNAMENT_ROUNDS = "bad-tournament-rounds"
    BAD_TOURNAMENT_NAME = "bad-tournament-name"
    TOO_FEW_PLAYERS = "too-few-players"
    TOO_MANY_ROUNDS = "too-many-rounds"
    PLAYER_LEFT_SERVER = "player-left-server"
    SIGNUP_CLOSED = "signup-closed"
    TOURNAMENT_NOT_RUNNING = "tournament-not-running"
    NOT_IN_TOURNAMENT = "not-in-tournament"
    NO_SUCH_ROUND = "no-such-round"
    TOURNAMENT_NOT_IN_HISTORY = "tournament-not-in-history"
    # reviews
    NO_GAME_TO_REVIEW = "no-game-to-review"
    REVIEW_GAME_RUNNING = "review-game-running"
    REVIEW_GAME_ABORTED = "review-game-aborted"
    REVIEW_OTHER_SERVER = "review-other-server"
    # vacations
    NO_VACATION_DAYS_LEFT = "no-vacation-days-left"
    ALREADY_ON_VACATION = "already-on-vacation"
    NOT_ON_VACATION = "not-on-vacation"
    # takebacks
    NO_MOVE_TO_TAKE_BACK = "no-move-to-take-back"
    OPPONENT_ALREADY_MOVED = "opponent-already-moved"
    TAKEBACK_PENDING = "takeback-pending"
    TAKEBACK_IN_TOURNAMENT = "takeback-in-tournament"
    TAKEBACKS_OFF = "takebacks-off"
    ONLY_ASKED_ANSWERS_TAKEBACK = "only-asked-answers-takeback"
    TAKEBACK_OUTDATED = "takeback-outdated"
    # faults that are nobody's doing
    GAME_DAMAGED = "game-damaged"
    DATABASE_BUSY = "database-busy"
    DATABASE_FULL = "database-full"


Field = str | int


class Refusal(Exception):
    """A use case refused; ``code`` says why and ``fields`` fill in the message.

    Fields are values, not words: ``player`` is a user id, ``side`` a side of ``ruleset``,
    ``status`` a stored status. A refusal that comes from the rules engine keeps the engine's
    error as ``cause`` (its reason code and points say what the rules forbid).
    """

    def __init__(self, code: Code, *, cause: JarmoError | None = None, **fields: Field) -> None:
        self.code = code
        self.fields = fields
        self.cause = cause
        super().__init__(code.value, fields)


class NoGameHere(Refusal):
    """The channel has no game (or match, or challenge) that the command needs."""


class NotAPlayer(Refusal):
    """The user does not play in this channel's game."""


class NotYourTurn(Refusal):
    """It is the opponent's move (or the computer's)."""


class BadMove(Refusal):
    """The move text could not be read, or the rules forbid it (``cause`` says which)."""


class ChallengeUnavailable(Refusal):
    """The challenge was answered, withdrawn or has expired, or cannot be made at all."""


class ChannelBusy(Refusal):
    """The channel already has a game or a pending challenge."""


class NotAllowed(Refusal):
    """The user lacks the permission or role the command needs."""


class BadSetting(Refusal):
    """A server setting was given a value it cannot take."""


class TournamentRefused(Refusal):
    """A tournament cannot do that now: sign-up is over, too few players, a bad option, ..."""


class ReviewRefused(Refusal):
    """The game cannot be reviewed: it is still in play, was aborted, or is another server's."""


class GameChanged(Refusal):
    """Another action was applied first; the player should look at the board and try again."""


class GamePaused(Refusal):
    """The players paused the clock: no moves until one of them resumes it."""


class TimeUp(Refusal):
    """The player to move ran out of time; the game is being ended on time."""


class ClockUnavailable(Refusal):
    """The game has no clock to pause or resume, or it is already paused (or running), or the
    player to move still has time, so there is no win on time to claim."""


class VacationRefused(Refusal):
    """A vacation cannot start (no days left, or already away) or end (not away)."""


class NoStats(Refusal):
    """There is nothing to show yet (no rated players, no games), or the game or tournament
    asked for is not in this server's history."""


class GameDamaged(Refusal):
    """The channel's game is stored in a state that cannot be loaded; a moderator can end it."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(Code.GAME_DAMAGED, game=game_id)
        self.game_id = game_id
        self.reason = reason  # for the operator's log and the quarantine, never shown to users


class Busy(Refusal):
    """The database stayed locked for too long; nothing was changed."""

    def __init__(self) -> None:
        super().__init__(Code.DATABASE_BUSY)


class Full(Refusal):
    """The database could not grow (its disk is full); nothing was changed. ``reason`` is the
    database's own message, for the operator's log."""

    def __init__(self, reason: str) -> None:
        super().__init__(Code.DATABASE_FULL)
        self.reason = reason


def as_refusal(error: BaseException) -> Refusal | None:
    """The refusal a player sees for an error they meet through no fault of theirs (a damaged
    game, a busy or full database), or ``None`` for a fault to log and apologise for."""
    if isinstance(error, Refusal):
        return error
    if isinstance(error, st.CorruptGame):
        return GameDamaged(error.game_id, error.reason)
    if isinstance(error, st.StoreBusy):
        return Busy()
    if isinstance(error, st.StoreFull):
        return Full(error.reason)
    return None
