"""Every background job runs under one ``Jobs``, and stopping the bot stops them all within its
limit: a job that ignores its cancellation for a while is left to end on its own, not waited
for; a one-off job that keeps failing gives up after its tries."""

from __future__ import annotations

import asyncio
import time

import bot.client as bot_client
from bot.client import JarmoBot
from bot.config import BotConfig
from bot.service.jobs import Job, Jobs, run_job

LIMIT_SECONDS = 10.0  # a deployment gives a stopping bot 10 s; also the conditions' limit


class StubbornJob:
    """A job whose pass, once cancelled, goes on until ``release`` is set."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = asyncio.Event()
        self.release = asyncio.Event()
        self.finished = asyncio.Event()

    async def once(self) -> None:
        self.started.set()
        try:
            await asyncio.Event().wait()  # a pass that would never end
        except asyncio.CancelledError:
            self.cancelled.set()
            await self.release.wait()  # ignoring the cancellation for a while
            self.finished.set()
            raise


async def test_stopping_does_not_wait_past_its_limit_for_a_job_that_ignores_cancellation() -> None:
    stubborn, quick = StubbornJob(), asyncio.Event()
    jobs = Jobs(stopped=lambda: False)
    jobs.start(Job("stubborn", stubborn.once))
    jobs.start(Job("quick", quick.wait))
    await asyncio.wait_for(stubborn.started.wait(), LIMIT_SECONDS)

    stuck = await asyncio.wait_for(jobs.stop(0.05), LIMIT_SECONDS)
    assert stuck == ["jarmo-job: stubborn"] and stubborn.cancelled.is_set()
    assert [task.get_name() for task in jobs.running] == ["jarmo-job: stubborn"]
    assert await asyncio.wait_for(jobs.stop(LIMIT_SECONDS * 10), LIMIT_SECONDS) == []

    stubborn.release.set()
    await asyncio.wait_for(stubborn.finished.wait(), LIMIT_SECONDS)
    running = list(jobs.running)
    await asyncio.wait_for(asyncio.gather(*running, return_exceptions=True), LIMIT_SECONDS)
    assert not jobs.running


async def test_a_job_waits_for_the_bot_to_be_ready_unless_told_not_to() -> None:
    ready, ran_early, ran_late = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def mark(event: asyncio.Event) -> None:
        event.set()

    jobs = Jobs(stopped=lambda: False, ready=ready.wait)
    late = jobs.start(Job("after ready", lambda: mark(ran_late)))
    jobs.start(Job("at once", lambda: mark(ran_early)), when_ready=False)
    await asyncio.wait_for(ran_early.wait(), LIMIT_SECONDS)
    assert not ran_late.is_set() and not late.done()
    ready.set()
    await asyncio.wait_for(late, LIMIT_SECONDS)
    assert ran_late.is_set()


async def test_a_one_off_job_that_keeps_failing_gives_up_after_its_tries() -> None:
    passes: list[int] = []
    delays: list[float] = []

    async def failing() -> None:
        passes.append(len(passes))
        raise OSError("Discord is down")

    async def no_wait(seconds: float) -> None:
        delays.append(seconds)

    job = Job("renaming a thread", failing, tries=3)
    await asyncio.wait_for(run_job(job, stopped=lambda: False, sleep=no_wait), LIMIT_SECONDS)
    assert len(passes) == 3 and delays == [1.0, 2.0]  # capped backoff between the tries


async def test_the_bot_closes_within_its_limit_while_a_job_ignores_cancellation() -> None:
    assert bot_client.JOB_STOP_SECONDS + bot_client.STORE_CLOSE_SECONDS < LIMIT_SECONDS
    bot = JarmoBot(BotConfig(), serve=False)
    bot.job_stop_seconds = 0.05
    stubborn = StubbornJob()
    async with bot:  # what run_bot does: close() on the way out
        task = bot.jobs.start(Job("stubborn", stubborn.once), when_ready=False)
        await asyncio.wait_for(stubborn.started.wait(), LIMIT_SECONDS)
        began = time.monotonic()
        await asyncio.wait_for(bot.close(), LIMIT_SECONDS)
        assert time.monotonic() - began < LIMIT_SECONDS
    assert stubborn.cancelled.is_set() and not task.done()  # left to end on its own
    stubborn.release.set()
    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), LIMIT_SECONDS)


async def test_a_job_started_after_every_job_stopped_does_nothing() -> None:
    passes: list[str] = []

    async def one_pass() -> None:
        passes.append("pass")

    jobs = Jobs(stopped=lambda: False, ready=asyncio.Event().wait)  # never ready
    await jobs.stop(LIMIT_SECONDS)
    late = jobs.start(Job("renaming a thread", one_pass))
    await asyncio.wait_for(late, LIMIT_SECONDS)
    assert passes == []
