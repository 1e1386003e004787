"""The deadline scheduler (issue 9): finds the reminders and timeouts that are due and applies
them through the service, in time order, once.

Once-only comes from the database, not from this object: a reminder is claimed by a write
guarded by the game's version, deadline and reminder count (``Store.mark_reminders_sent``), and
a timeout is an ``end_game`` guarded by the game's version. A scheduler that restarts, or a
second one over the same file, re-reads the clocks and finds nothing left to do. Messages are
the caller's business: ``run_due`` returns what happened, and the front end announces it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from bot.service.models import Report
from bot.service.timecontrol import next_due, reminder_times, reminders_due
from bot.store import RunningClock, StoreError

if TYPE_CHECKING:
    from bot.service.service import JarmoService

log = logging.getLogger(__name__)
MAX_SLEEP_SECONDS = 30.0  # look again at least this often, whatever the next deadline


@dataclass(frozen=True, slots=True)
class DeadlineEvent:
    """Something the clock did: a reminder sent to the player to move, or a game lost on time.

    ``user_id`` is the player to move (reminded, or out of time); ``report`` is set for a
    timeout and holds the final board, the result and the match standings.
    """

    kind: Literal["reminder", "timeout"]
    due_at: datetime
    game_id: int
    guild_id: int
    channel_id: int
    user_id: int
    deadline_at: datetime
    report: Report | None = None


def due_at(clock: RunningClock, now: datetime) -> datetime | None:
    """When the event that ``clock`` has due at ``now`` fell due, or ``None`` if nothing is.

    Past its deadline only the timeout counts (a reminder then would only be noise); before it,
    the latest due reminder stands for any earlier one that was missed while the bot was down.
    """
    if clock.deadline_at <= now:
        return clock.deadline_at
    count = reminders_due(clock, now)
    if count > clock.reminders_sent:
        return reminder_times(clock.deadline_at, clock.time_per_move_seconds)[count - 1]
    return None


class DeadlineScheduler:
    """Applies due reminders and timeouts; tells its caller how long it may sleep."""

    def __init__(self, service: JarmoService) -> None:
        self._service = service

    async def run_due(self, now: datetime) -> list[DeadlineEvent]:
        """Apply every reminder and timeout due at ``now``, earliest first; return those that
        this call applied (an event another process or an earlier run applied is skipped)."""
        self._service.deadlines_changed.clear()  # a change from here on wakes the next wait
        clocks = await self._service.running_clocks()
        due = sorted(
            ((at, clock) for clock in clocks if (at := due_at(clock, now)) is not None),
            key=lambda item: (item[0], item[1].game_id),
        )
        events = []
        for _, clock in due:
            event = await self._apply(clock, now)
            if event is not None:
                events.append(event)
        return events

    async def _apply(self, clock: RunningClock, now: datetime) -> DeadlineEvent | None:
        try:
            if clock.deadline_at <= now:
                return await self._service.time_out(clock, now=now)
            return await self._service.remind(clock, now=now)
        except StoreError:  # e.g. a corrupt game: report it, and let the other games go on
            log.exception("the clock of game %d could not be applied", clock.game_id)
            return None

    async def next_due(self) -> datetime | None:
        """When the next reminder or timeout falls due, or ``None`` if no clock runs."""
        clocks = await self._service.running_clocks()
        return min((next_due(clock) for clock in clocks), default=None)

    async def wait(self, *, limit: float = MAX_SLEEP_SECONDS) -> None:
        """Sleep until the next event is due, a move changes the deadlines, or ``limit``
        seconds pass, whichever comes first."""
        upcoming = await self.next_due()
        delay = limit
        if upcoming is not None:
            seconds = (upcoming - self._service.now()).total_seconds()
            delay = min(max(seconds, 0.0), limit)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._service.deadlines_changed.wait(), delay)
