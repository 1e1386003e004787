"""Time-per-move text, durations and the reminder schedule: pure arithmetic, as tables."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.service.timecontrol import (
    TimeControlError,
    format_time_per_move,
    next_due,
    parse_time_per_move,
    reminder_fractions,
    reminder_times,
    reminders_due,
)
from bot.store import RunningClock
from bot.words import duration_text
from tests.wording import voice

T = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("5m", 300),
        ("1h", 3_600),
        ("1d", 86_400),
        ("3d", 259_200),
        ("none", None),
        ("30m", 1_800),
        ("2h", 7_200),
        ("12h", 43_200),
        (" 2H ", 7_200),
        ("90 min", 5_400),
        ("1 day", 86_400),
        ("NONE", None),
        ("1m", 60),  # the lower bound
        ("14d", 1_209_600),  # the upper bound
        ("336h", 1_209_600),
    ],
)
def test_parse(text: str, seconds: int | None) -> None:
    assert parse_time_per_move(text) == seconds


@pytest.mark.parametrize(
    "text", ["0m", "15d", "337h", "30s", "1w", "", "abc", "-5m", "1.5h", "5", "m5", "1h30m"]
)
def test_parse_refuses(text: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        parse_time_per_move(text)
    message = str(caught.value)
    assert "30m" in message and "1 minute to 14 days" in message and "none" in message
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("text", ["5m", "1h", "1d", "3d", "none", "30m", "2h", "12h", "90m"])
def test_format_round_trips(text: str) -> None:
    assert format_time_per_move(parse_time_per_move(text)) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (59, "less than a minute"),
        (60, "1 minute"),
        (300, "5 minutes"),
        (3_600, "1 hour"),
        (5_400, "1 hour 30 minutes"),
        (86_400, "1 day"),
        (3 * 86_400 + 4 * 3_600 + 59, "3 days 4 hours"),
        (86_400 + 60, "1 day 1 minute"),
        (7_199.5, "2 hours"),
        (89, "1 minute"),
    ],
)
def test_duration_text(seconds: int, text: str) -> None:
    assert duration_text(seconds, voice()) == text
    assert duration_text(timedelta(seconds=seconds), voice()) == text


@pytest.mark.parametrize(
    ("period", "fractions"),
    [
        (60, (0.5,)),
        (300, (0.5,)),
        (3_600, (0.5,)),  # exactly an hour is not longer than an hour
        (3_660, (0.5, 0.1)),
        (86_400, (0.5, 0.1)),
    ],
)
def test_second_reminder_only_for_periods_over_an_hour(
    period: int, fractions: tuple[float, ...]
) -> None:
    assert reminder_fractions(period) == fractions


def clock(period: int, reminders_sent: int = 0) -> RunningClock:
    return RunningClock(1, 1, 1, 10, 0, T + timedelta(seconds=period), reminders_sent, period)


def test_reminder_times_count_back_from_the_deadline() -> None:
    deadline = T + timedelta(days=1)
    assert reminder_times(deadline, 86_400) == (
        T + timedelta(hours=12),
        T + timedelta(hours=21, minutes=36),
    )


@pytest.mark.parametrize(
    ("period", "sent", "after", "due", "upcoming"),
    [
        (3_600, 0, 0, 0, 1_800),
        (3_600, 0, 1_799, 0, 1_800),
        (3_600, 0, 1_800, 1, 1_800),
        (3_600, 1, 3_000, 1, 3_600),  # no second reminder for an hour: next is the deadline
        (86_400, 0, 43_200, 1, 43_200),
        (86_400, 1, 43_200, 1, 77_760),
        (86_400, 0, 80_000, 2, 43_200),  # both missed: due together
        (86_400, 2, 80_000, 2, 86_400),
    ],
)
def test_due_counts_and_next_due(
    period: int, sent: int, after: int, due: int, upcoming: int
) -> None:
    c = clock(period, sent)
    assert reminders_due(c, T + timedelta(seconds=after)) == due
    assert next_due(c) == T + timedelta(seconds=upcoming)
