"""Correspondence time controls as plain arithmetic: reading ``30m`` / ``1d`` /
``none``, writing durations back, when reminders fall due, and what a board shows of the clock.

Nothing here touches the store or Discord, so it is tested with tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store import GameClock, GameRecord, MatchRecord, RunningClock

MIN_TIME_PER_MOVE = 60  # seconds: 1 minute
MAX_TIME_PER_MOVE = 14 * 86_400  # 14 days
NO_LIMIT = "none"
SUGGESTIONS = ("5m", "30m", "1h", "2h", "12h", "1d", "3d", "7d", NO_LIMIT)
UNITS = {"d": 86_400, "h": 3_600, "m": 60}
REMINDER_AT = 0.5  # of the period left: the first reminder
LATE_REMINDER_AT = 0.1  # of the period left: the second one, for periods over an hour
LATE_REMINDER_MIN_PERIOD = 3_600  # seconds; shorter periods get one reminder only

_SPEC = re.compile(r"(\d{1,5})\s*(m|min|mins|minutes?|h|hr|hrs|hours?|d|days?)")
_NO_LIMIT_WORDS = {"none", "off", "unlimited"}


class TimeControlError(ValueError):
    """Text that is not a time per move; the message says what would be."""

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(
            f"{text!r} is not a time per move. Use minutes, hours or days such as 30m, 2h, 1d "
            f"or 3d (from 1 minute to 14 days), or {NO_LIMIT} for no limit."
        )


def parse_time_per_move(text: str) -> int | None:
    """Seconds per move for ``5m``, ``2h``, ``1d``, ``3d`` …, or ``None`` for ``none``.

    Case and spaces do not matter; the result lies from 1 minute to 14 days. Raises
    ``TimeControlError`` for anything else.
    """
    cleaned = text.strip().lower()
    if cleaned in _NO_LIMIT_WORDS:
        return None
    found = _SPEC.fullmatch(cleaned)
    if found is None:
        raise TimeControlError(text)
    seconds = int(found[1]) * UNITS[found[2][0]]
    if not MIN_TIME_PER_MOVE <= seconds <= MAX_TIME_PER_MOVE:
        raise TimeControlError(text)
    return seconds


def format_time_per_move(seconds: int | None) -> str:
    """The short form :func:`parse_time_per_move` reads back: ``1d``, ``90m``, ``none``."""
    if seconds is None:
        return NO_LIMIT
    for unit, size in UNITS.items():
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"  # not reachable from parsed text; kept exact rather than rounded


# -- reminders ---------------------------------------------------------------------------------


def reminder_fractions(period_seconds: int) -> tuple[float, ...]:
    """The fractions of the period left at which reminders go out, in the order they fall due."""
    if period_seconds > LATE_REMINDER_MIN_PERIOD:
        return (REMINDER_AT, LATE_REMINDER_AT)
    return (REMINDER_AT,)


def reminder_times(deadline: datetime, period_seconds: int) -> tuple[datetime, ...]:
    """When each reminder for the move due at ``deadline`` falls due."""
    return tuple(
        deadline - timedelta(seconds=period_seconds * fraction)
        for fraction in reminder_fractions(period_seconds)
    )


def next_due(clock: RunningClock) -> datetime:
    """When ``clock`` next needs the scheduler: its next unsent reminder, else its deadline."""
    times = reminder_times(clock.deadline_at, clock.time_per_move_seconds)
    if clock.reminders_sent < len(times):
        return min(times[clock.reminders_sent], clock.deadline_at)
    return clock.deadline_at


def reminders_due(clock: RunningClock, now: datetime) -> int:
    """How many reminders should have been sent by ``now`` (at least ``reminders_sent``)."""
    times = reminder_times(clock.deadline_at, clock.time_per_move_seconds)
    return max(clock.reminders_sent, sum(1 for at in times if at <= now))


# -- what the players see ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockView:
    """The clock of a shown position: the limit per move and either the deadline of the player
    to move (``deadline_at``) or, while paused, the time they have left."""

    time_per_move_seconds: int
    deadline_at: datetime | None  # None while paused
    time_left: timedelta  # at the moment the view was made
    paused: bool


def clock_view(record: GameRecord, match: MatchRecord, now: datetime) -> ClockView | None:
    """The clock to show with ``record``, or ``None`` when it has none or has ended."""
    period = match.time_per_move_seconds
    clock: GameClock = record.clock
    left = clock.time_left(now)
    if period is None or not record.is_active or left is None:
        return None
    return ClockView(period, clock.deadline_at, left, clock.paused)
