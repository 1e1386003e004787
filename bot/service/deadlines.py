"""The deadline scheduler: finds the reminders and timeouts that are due and applies
them through the service, in time order, once.

Once-only comes from the database, not from this object: a reminder is claimed by a write
guarded by the game's version, deadline and reminder count (``ClockStore.mark_reminders_sent``), and
a timeout is a ``GameStore.end`` guarded by the game's version. A scheduler that restarts, or a
second one over the same file, re-reads the clocks and finds nothing left to do. Messages are
the caller's business: ``run_due`` returns what happened, and the front end announces it.

With several processes, each scheduler looks only at the games of the servers it ``owns`` (its
shards): the database checks above keep it once even if two look at the same game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from bot.service.backoff import ItemBackoff
from bot.service.models import Report
from bot.service.shards import ShardSet
from bot.service.timecontrol import next_due, reminder_times, reminders_due
from bot.store import CorruptGame, OutboxEntry, ReminderPost, RunningClock, TimeoutPost

if TYPE_CHECKING:
    from bot.service.service import JarmoService

log = logging.getLogger(__name__)
MAX_SLEEP_SECONDS = 30.0  # look again at least this often, whatever the next deadline
DeadlineKind = Literal["reminder", "timeout"]
_VACATIONS = "vacations"  # the backoff's key for the vacations' ends, all of them together


@dataclass(frozen=True, slots=True)
class DeadlineEvent:
    """Something the clock did: a reminder sent to the player to move, or a game lost on time.

    ``user_id`` is the player to move (reminded, or out of time); ``report`` is set for a
    timeout and holds the final board, the result and the match standings.
    """

    kind: DeadlineKind
    due_at: datetime
    game_id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    deadline_at: datetime
    report: Report | None = None
    pinged: bool = True  # a reminder to a player who turned pings off mentions nobody


def event_post(event: DeadlineEvent) -> ReminderPost | TimeoutPost:
    """What the outbox keeps of ``event`` to post it later (the report is rebuilt then)."""
    if event.kind == "timeout":
        return TimeoutPost(event.due_at, event.user_id, event.deadline_at)
    return ReminderPost(event.due_at, event.user_id, event.deadline_at, pinged=event.pinged)


def event_from_post(
    entry: OutboxEntry,
    post: ReminderPost | TimeoutPost,
    report: Report | None = None,
    *,
    channel_id: int | None = None,
) -> DeadlineEvent:
    """The event ``post`` (``entry``'s) announces, in the game's ``channel_id`` (by default
    the one the entry is posted in); ``ValueError`` for an entry about no game."""
    if entry.game_id is None:
        raise ValueError(f"announcement {entry.key} is about no game")
    return DeadlineEvent(
        kind="timeout" if isinstance(post, TimeoutPost) else "reminder",
        due_at=post.due_at,
        game_id=entry.game_id,
        guild_id=entry.guild_id,
        channel_id=entry.channel_id if channel_id is None else channel_id,
        user_id=post.user_id,
        deadline_at=post.deadline_at,
        report=report,
        pinged=post.pinged if isinstance(post, ReminderPost) else True,
    )


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
    """Applies due reminders and timeouts; tells its caller how long it may sleep.

    ``shards`` are the shards whose servers this process works for; by default, all. Only
    their clocks are read (the database filters them), so each process of a cluster reads its
    own share."""

    def __init__(self, service: JarmoService, *, shards: ShardSet | None = None) -> None:
        self._cases = service.clocks
        self._vacations = service.vacations
        self._kit = service.kit
        self._shards = shards or ShardSet.every()
        # A damaged game waits for a moderator's abort; its clock is left alone until then.
        self._damaged: set[int] = set()
        self._failing: ItemBackoff[int] = ItemBackoff()  # game id -> retry after a failure
        self._vacations_failing: ItemBackoff[str] = ItemBackoff()  # the vacations' ends

    async def run_due(self, now: datetime) -> list[DeadlineEvent]:
        """Apply every reminder and timeout due at ``now``, earliest first; return those that
        this call applied (an event another process or an earlier run applied is skipped).

        A game whose clock cannot be applied never stops the others: a damaged one is left
        out from then on, and one that fails otherwise is tried again later, waiting longer
        after each failure."""
        self._kit.signals.deadlines_changed.clear()  # a change from here on wakes the next wait
        await self._end_vacations(now)  # first: an ended vacation gives clocks back
        clocks = await self._clocks()
        due = sorted(
            (
                (at, clock)
                for clock in clocks
                if (at := due_at(clock, now)) is not None
                and self._failing.ready(clock.game_id, now)
            ),
            key=lambda item: (item[0], item[1].game_id),
        )
        events = []
        for _, clock in due:
            event = await self._apply(clock, now)
            if event is not None:
                events.append(event)
        return events

    async def _end_vacations(self, now: datetime) -> None:
        """End the vacations whose days ran out (every process tries; the store lets one)."""
        if not self._vacations_failing.ready(_VACATIONS, now):
            return
        try:
            await self._vacations.end_due(now)
        except Exception:  # the clocks go on; a later pass tries again
            retry = self._vacations_failing.failed(_VACATIONS, now)
            log.exception("the vacations due could not be ended; trying again at %s", retry)
            return
        self._vacations_failing.succeeded(_VACATIONS)

    async def run_due_now(self) -> list[DeadlineEvent]:
        """:meth:`run_due` at the service's current time."""
        return await self.run_due(self._kit.now())

    async def _clocks(self) -> list[RunningClock]:
        clocks = await self._cases.running(self._shards)
        return [clock for clock in clocks if clock.game_id not in self._damaged]

    async def _apply(self, clock: RunningClock, now: datetime) -> DeadlineEvent | None:
        try:
            if clock.deadline_at <= now:
                event = await self._cases.time_out(clock, now=now)
            else:
                event = await self._cases.remind(clock, now=now)
        except CorruptGame:  # logged once by the store; the other games go on
            self._damaged.add(clock.game_id)
            return None
        except Exception:
            retry = self._failing.failed(clock.game_id, now)
            log.exception(
                "the clock of game %d could not be applied; trying again at %s",
                clock.game_id,
                retry.isoformat(timespec="seconds"),
            )
            return None
        self._failing.succeeded(clock.game_id)
        return event

    async def next_due(self) -> datetime | None:
        """When the next reminder, timeout or vacation's end falls due, or ``None`` if no clock
        runs and nobody is away."""
        vacation_end = await self._vacations.next_end()
        times = []
        if vacation_end is not None:
            retry_ends = self._vacations_failing.not_before(_VACATIONS)
            times.append(max(vacation_end, retry_ends) if retry_ends else vacation_end)
        for clock in await self._clocks():
            due = next_due(clock)
            retry = self._failing.not_before(clock.game_id)
            times.append(max(due, retry) if retry is not None else due)
        return min(times, default=None)

    async def wait(self, *, limit: float = MAX_SLEEP_SECONDS) -> None:
        """Sleep until the next event is due, a move changes the deadlines, or ``limit``
        seconds pass, whichever comes first."""
        upcoming = await self.next_due()
        delay = limit
        if upcoming is not None:
            seconds = (upcoming - self._kit.now()).total_seconds()
            delay = min(max(seconds, 0.0), limit)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._kit.signals.deadlines_changed.wait(), delay)
