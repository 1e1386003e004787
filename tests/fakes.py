"""Fakes shared by every test folder (``from tests.fakes import ...``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


class FakeClock:
    """A UTC clock that only moves when the test says so, or by ``tick_seconds`` on every
    reading (so that, say, every game ends at its own moment)."""

    def __init__(self, start: datetime = START, *, tick_seconds: float = 0.0) -> None:
        self.now = start
        self._tick = timedelta(seconds=tick_seconds)

    def __call__(self) -> datetime:
        self.now += self._tick
        return self.now

    def advance(self, seconds: float) -> datetime:
        """Move the clock ``seconds`` on; returns the new time."""
        self.now += timedelta(seconds=seconds)
        return self.now

    def set(self, moment: datetime) -> datetime:
        """Put the clock at ``moment``; returns it."""
        self.now = moment
        return moment
