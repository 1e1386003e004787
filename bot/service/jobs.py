"""Background work, one way for every job: a pass, then a pause, over and over. A failing pass
is logged and tried again after a delay that doubles with each failure in a row up to a cap
(:class:`Backoff`), so no job spins and none ends for good on one error. :class:`Jobs` runs a
process's jobs and stops them all within a time limit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.service.backoff import Backoff

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Job:
    """One piece of background work: ``once`` does a pass, ``pause`` waits for the next one
    (a timer, or a wake-up with a timer); without ``pause`` the job ends after its first
    successful pass, or gives up after ``tries`` failed ones (if set)."""

    name: str
    once: Callable[[], Awaitable[object]]
    pause: Callable[[], Awaitable[object]] | None = None
    tries: int | None = None


async def run_job(
    job: Job,
    *,
    stopped: Callable[[], bool],
    backoff: Backoff | None = None,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Run ``job`` until ``stopped()`` says so (or its single pass succeeded). A failure while
    stopping is the store going away under a slow job: it ends the job quietly."""
    backoff = backoff or Backoff()
    while not stopped():
        try:
            await job.once()
            if job.pause is None:
                return
            await job.pause()
        except Exception:
            if stopped():
                log.debug("%s stopped while shutting down", job.name, exc_info=True)
                return
            delay = backoff.failed()
            if job.tries is not None and backoff.failures >= job.tries:
                log.exception("%s failed %d times; giving up", job.name, backoff.failures)
                return
            log.exception("%s failed; trying again in %.0f s", job.name, delay)
            await sleep(delay)
        else:
            backoff.succeeded()


class Jobs:
    """A process's background jobs, each run by :func:`run_job` in a task of its own until
    ``stopped()``; ``ready`` (if given) is awaited before a job's first pass."""

    def __init__(
        self,
        *,
        stopped: Callable[[], bool],
        ready: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self._stopped = stopped
        self._ready = ready
        self._running: set[asyncio.Task[None]] = set()
        self._told_to_stop: set[asyncio.Task[None]] = set()
        self._closed = False  # every job was stopped: one started later does nothing

    def start(self, job: Job, *, when_ready: bool = True) -> asyncio.Task[None]:
        """Run ``job`` in the background (after ``ready``, unless ``when_ready`` is false)."""

        async def supervised() -> None:
            if when_ready and self._ready is not None and not self._closed:
                await self._ready()
            await run_job(job, stopped=lambda: self._closed or self._stopped())

        task = asyncio.create_task(supervised(), name=f"jarmo-job: {job.name}")
        self._running.add(task)
        task.add_done_callback(self._forget)
        return task

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._told_to_stop.discard(task)

    @property
    def running(self) -> frozenset[asyncio.Task[None]]:
        """The jobs not finished yet."""
        return frozenset(self._running)

    async def stop(
        self, within: float, *, only: Iterable[asyncio.Task[None]] | None = None
    ) -> list[str]:
        """Cancel every job (or those of ``only``) and wait for them at most ``within``
        seconds; the names of those still running then (a job that ignores its cancellation
        for a while must not hold up a shutdown: it is logged and left to end on its own, and
        a later ``stop`` does not wait for it again). Once every job is stopped, a job started
        later (by an interaction still finishing) ends without a pass."""
        if only is None:
            self._closed = True
        tasks = {task for task in (self._running if only is None else only) if not task.done()}
        tasks -= self._told_to_stop
        for task in tasks:
            task.cancel()
        self._told_to_stop |= tasks
        if not tasks:
            return []
        _, stuck = await asyncio.wait(tasks, timeout=within)
        for task in stuck:
            log.warning("background job %r did not stop within %.0f s", task.get_name(), within)
        return sorted(task.get_name() for task in stuck)
