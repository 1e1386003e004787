"""Records of the correspondence clock: a game's clock, and a running clock as the
deadline scheduler sees it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class GameClock:
    """The clock of one game. Without a time control every field keeps its default.

    At most one of ``deadline_at`` (the clock runs) and ``time_left_seconds`` (it is paused) is
    set; ``reminders_sent`` counts the reminders already sent for the current move.
    """

    deadline_at: datetime | None = None
    reminders_sent: int = 0
    time_left_seconds: float | None = None
    paused_at: datetime | None = None

    @property
    def running(self) -> bool:
        """Whether the player to move is on the clock right now."""
        return self.deadline_at is not None

    @property
    def paused(self) -> bool:
        """Whether both players agreed to stop the clock."""
        return self.time_left_seconds is not None

    def time_left(self, now: datetime) -> timedelta | None:
        """The time the player to move has left at ``now`` (never negative), or ``None`` when
        the game has no clock."""
        if self.time_left_seconds is not None:
            return timedelta(seconds=self.time_left_seconds)
        if self.deadline_at is None:
            return None
        return max(self.deadline_at - now, timedelta(0))


NO_CLOCK = GameClock()


@dataclass(frozen=True, slots=True)
class RunningClock:
    """An active game whose clock runs: what the scheduler needs to find its next event."""

    game_id: int
    match_id: int
    guild_id: int | None  # None: outside servers
    channel_id: int
    version: int
    deadline_at: datetime
    reminders_sent: int
    time_per_move_seconds: int


def deadline_after(start: datetime, time_per_move_seconds: int | None) -> datetime | None:
    """When a player on move from ``start`` runs out of time; ``None`` without a time limit."""
    if time_per_move_seconds is None:
        return None
    return start + timedelta(seconds=time_per_move_seconds)


def deadline_text(start: str, time_per_move_seconds: int | None) -> str | None:
    """:func:`deadline_after` on the store's time text (fixed-width ISO 8601 UTC)."""
    deadline = deadline_after(datetime.fromisoformat(start), time_per_move_seconds)
    return None if deadline is None else deadline.isoformat(timespec="microseconds")
