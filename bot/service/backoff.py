"""Waiting longer after each failure, so that a job that keeps failing never spins."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Generic, TypeVar

K = TypeVar("K")

FIRST_DELAY_SECONDS = 1.0
MAX_DELAY_SECONDS = 300.0


def delay_after(
    failures: int, *, first: float = FIRST_DELAY_SECONDS, cap: float = MAX_DELAY_SECONDS
) -> float:
    """Seconds to wait after ``failures`` failures in a row: 1, 2, 4 … up to ``cap``."""
    if failures <= 0:
        return 0.0
    return min(cap, first * 2.0 ** min(failures - 1, 32))


@dataclass
class Backoff:
    """Consecutive failures of one periodic job."""

    failures: int = 0

    def failed(self) -> float:
        """Count a failure; the seconds to wait before the next attempt."""
        self.failures += 1
        return delay_after(self.failures)

    def succeeded(self) -> None:
        """A success resets the delay."""
        self.failures = 0


@dataclass
class ItemBackoff(Generic[K]):
    """Per-item failures of a job over many items (games, announcements): an item that fails
    waits its turn, and the other items go on."""

    _failures: dict[K, int] = field(default_factory=dict)
    _not_before: dict[K, datetime] = field(default_factory=dict)

    def failed(self, item: K, now: datetime) -> datetime:
        """Count a failure of ``item`` at ``now``; when it may be tried again."""
        self._failures[item] = self._failures.get(item, 0) + 1
        retry = now + timedelta(seconds=delay_after(self._failures[item]))
        self._not_before[item] = retry
        return retry

    def succeeded(self, item: K) -> None:
        """``item`` worked: forget its failures."""
        self._failures.pop(item, None)
        self._not_before.pop(item, None)

    def ready(self, item: K, now: datetime) -> bool:
        """Whether ``item`` may be tried at ``now``."""
        return self._not_before.get(item, now) <= now

    def not_before(self, item: K) -> datetime | None:
        """When ``item`` may be tried again, if it is waiting after a failure."""
        return self._not_before.get(item)
