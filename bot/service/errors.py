"""Errors a player can cause. Each says what happened and what to do; nothing was changed."""

from __future__ import annotations

from bot import store as st


class UserError(Exception):
    """Base of every failure shown to the player (privately) rather than logged as a fault."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class NoGameHere(UserError):
    """The channel has no game (or match, or challenge) that the command needs."""


class NotAPlayer(UserError):
    """The user does not play in this channel's game."""


class NotYourTurn(UserError):
    """It is the opponent's move."""


class BadMove(UserError):
    """The move text could not be read, or the rules forbid it (the engine's reason is kept)."""


class ChallengeUnavailable(UserError):
    """The challenge was answered, withdrawn or has expired, or cannot be made at all."""


class ChannelBusy(UserError):
    """The channel already has a game or a pending challenge."""


class NotAllowed(UserError):
    """The user lacks the permission or role the command needs."""


class GameChanged(UserError):
    """Another action was applied first; the player should look at the board and try again."""


class GamePaused(UserError):
    """The players paused the clock: no moves until one of them resumes it."""


class TimeUp(UserError):
    """The player to move ran out of time; the game is being ended on time."""


class ClockUnavailable(UserError):
    """The game has no clock to pause or resume, or it is already paused (or running)."""


class GameDamaged(UserError):
    """The channel's game is stored in a state that cannot be loaded; a moderator can end it."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason  # for the operator's log and the quarantine, never shown to users
        super().__init__(
            "The record of this channel's game is damaged, so it cannot be played or shown. "
            "A member who can manage the channel can end it with /jarmo abort (nothing counts); "
            "then a new game can start here."
        )


class Busy(UserError):
    """The database stayed locked for too long; nothing was changed."""

    def __init__(self) -> None:
        super().__init__(
            "The bot's database is busy right now, so nothing was changed. "
            "Please try again in a moment."
        )


def as_user_error(error: BaseException) -> UserError | None:
    """The player-facing form of an error a player can meet through no fault of theirs (a
    damaged game, a busy database), or ``None`` for a fault to log and apologise for."""
    if isinstance(error, UserError):
        return error
    if isinstance(error, st.CorruptGame):
        return GameDamaged(error.game_id, error.reason)
    if isinstance(error, st.StoreBusy):
        return Busy()
    return None
