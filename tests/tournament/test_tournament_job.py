"""The background job that moves tournaments on runs under the same mechanism as every other
job: a store error is logged and retried after a capped, growing delay; the job never ends."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.service import JarmoService
from bot.service.backoff import MAX_DELAY_SECONDS
from bot.service.jobs import Job, run_job
from bot.service.tournaments.draw import Pairing
from bot.service.venues import NewMatch
from bot.store import SqliteStore, TournamentRecord
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    play_match,
    sign_up,
    stronger_wins,
)

WAIT_SECONDS = 10.0  # a limit for the conditions below, never a synchronisation


async def finish_round_one(service: JarmoService, store: SqliteStore, tournament_id: int) -> None:
    """Play every match of round 1 without advancing the event."""
    for pairing in await store.tournaments.pairings(tournament_id):
        assert pairing.match_id is not None and pairing.second_id is not None
        match = await store.games.match(pairing.match_id)
        winner = stronger_wins(1, Pairing(pairing.first_id, pairing.second_id))
        await play_match(service, match.channel_id, pairing.first_id, pairing.second_id, winner)


async def test_the_job_survives_a_store_error_and_advances_once_the_store_recovers(
    service: JarmoService, store: SqliteStore, host: RecordingHost, caplog: pytest.LogCaptureFixture
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    await finish_round_one(service, store, tournament_id)

    stored_running = store.tournaments.running
    calls = 0

    async def running_after_one_failure() -> list[TournamentRecord]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionResetError("the database connection was lost")
        return await stored_running()

    store.tournaments.running = running_after_one_failure  # type: ignore[method-assign]  # fails once
    delays: list[float] = []

    async def no_wait(seconds: float) -> None:
        delays.append(seconds)

    stopping = False
    job = asyncio.create_task(
        run_job(service.tournaments.rounds.job(), stopped=lambda: stopping, sleep=no_wait)
    )

    opened_before = len(host.opened)
    next_match_opened = asyncio.Event()
    open_place = host.open

    async def open_and_tell(match: NewMatch) -> int | None:
        next_match_opened.set()
        return await open_place(match)

    host.open = open_and_tell  # type: ignore[method-assign]  # says when a match opens

    try:
        with caplog.at_level(logging.ERROR, "bot.service.jobs"):
            await asyncio.wait_for(next_match_opened.wait(), WAIT_SECONDS)
        assert not job.done()  # the failure did not end the job: it waits for the next result
    finally:
        stopping = True
        job.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await job
    assert (await store.tournaments.get(tournament_id)).current_round == 2
    assert len(host.opened) > opened_before
    assert calls >= 2
    assert delays == [1.0]  # one failure, one short wait, then the recovered pass
    assert "tournaments failed; trying again in 1 s" in caplog.text


async def test_delays_grow_with_failures_in_a_row_up_to_the_cap() -> None:
    failures = 0
    delays: list[float] = []
    recovered = asyncio.Event()

    async def failing_then_fine() -> None:
        nonlocal failures
        if failures < 12:
            failures += 1
            raise OSError("store down")
        recovered.set()

    async def no_wait(seconds: float) -> None:
        delays.append(seconds)

    job = Job("flaky", failing_then_fine)  # no pause: the job ends after its first success
    await asyncio.wait_for(run_job(job, stopped=lambda: False, sleep=no_wait), WAIT_SECONDS)
    assert recovered.is_set()
    assert delays[:4] == [1.0, 2.0, 4.0, 8.0]
    assert max(delays) == MAX_DELAY_SECONDS and len(delays) == 12


async def test_a_failure_while_stopping_ends_the_job_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def store_gone() -> None:
        raise OSError("closed")

    with caplog.at_level(logging.DEBUG, "bot.service.jobs"):
        await asyncio.wait_for(
            run_job(Job("closing", store_gone), stopped=iter([False, True]).__next__),
            WAIT_SECONDS,
        )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
