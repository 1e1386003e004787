"""Background work, one way for every job: a pass, then a pause, over and over. A failing pass
is logged and tried again after a delay that doubles with each failure in a row up to a cap
(:class:`Backoff`), so no job spins and none ends for good on one error."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.backoff import Backoff

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Job:
    """One piece of background work: ``once`` does a pass, ``pause`` waits for the next one
    (a timer, or a wake-up with a timer); without ``pause`` the job ends after its first
    successful pass."""

    name: str
    once: Callable[[], Awaitable[object]]
    pause: Callable[[], Awaitable[object]] | None = None


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
            log.exception("%s failed; trying again in %.0f s", job.name, delay)
            await sleep(delay)
        else:
            backoff.succeeded()
