"""A tournament's posts go through the outbox: a process that stops between storing
a change and posting it loses nothing, and nothing is posted twice; a match's welcome never
comes before its thread, nor a round's post before its matches' threads (unless they never
come); a permanent Discord failure is given up at once. Through the service on an SQLite file,
restarting by closing the store and opening it again."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import JarmoService
from bot.service.delivery import (
    MAX_ATTEMPTS,
    AnnouncementDelivery,
    Delivery,
    RoundNotice,
    Undeliverable,
    WelcomeNotice,
)
from bot.store import open_store
from tests.fakes import FakeClock
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    make_service,
    play_current_round,
    sign_up,
)

DAY = timedelta(days=1).total_seconds()


@asynccontextmanager
async def process(
    path: Path, clock: FakeClock, host: RecordingHost | None = None
) -> AsyncIterator[JarmoService]:
    """One run of the bot: a service over the file, with ``host`` attached (or a new one)."""
    async with open_store(path) as store:
        service = make_service(store, clock)
        service.tournaments.attach(host or RecordingHost())
        yield service


def keys(*hosts: RecordingHost) -> Counter[str]:
    return Counter(d.entry.key for host in hosts for d in host.posted)


async def test_a_stop_after_each_change_posts_every_post_once_after_the_restart(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "jarmo.sqlite3"
    async with process(path, clock) as service:
        tournament_id = await sign_up(service, 4, format="round-robin")
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
        # ... and the process stops before anything of round 1 was posted.

    second = RecordingHost()
    async with process(path, clock, second) as service:
        await second.deliver(service)
        (round_one,) = second.rounds
        assert round_one.number == 1 and sorted(round_one.channels.values()) == [1001, 1002]
        assert sorted(w.channel_id for w in second.welcomes) == [1001, 1002]
        for _ in range(2):
            await play_current_round(service, tournament_id)  # rounds 2 and 3 paired, posted
        tournament = await service.kit.store.tournaments.get(tournament_id)
        for pairing in await service.kit.store.tournaments.pairings(tournament_id):
            if pairing.round == tournament.current_round and pairing.match_id is not None:
                match = await service.kit.store.games.match(pairing.match_id)
                await service.play.abort(
                    type(LOBBY)(LOBBY.guild_id, match.channel_id), MODERATOR, can_manage=True
                )
        await service.tournaments.rounds.advance_all()
        assert (await service.kit.store.tournaments.get(tournament_id)).status == "finished"
        # ... and the process stops before the final table was posted.

    third = RecordingHost()
    async with process(path, clock, third) as service:
        await third.deliver(service)
        (table,) = third.tables
        assert table.final and table.rounds == 3
        await third.deliver(service)

    posted = keys(second, third)
    assert set(posted.values()) == {1}  # nothing twice
    assert sorted(k.split(":")[0] for k in posted) == sorted(
        ["round_paired"] * 3 + ["match_welcome"] * 6 + ["final_table"]
    )
    assert [r.number for r in second.rounds] == [1, 2, 3]


async def test_a_rounds_post_waits_for_the_threads_of_its_matches(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "jarmo.sqlite3"
    refusing = RecordingHost(refuse=True)  # Discord opens no threads: no match starts
    async with process(path, clock, refusing) as service:
        await sign_up(service, 4, format="round-robin")
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
        await refusing.deliver(service)
        assert refusing.posted == []  # no welcome without a thread, no round without places

    host = RecordingHost()
    async with process(path, clock, host) as service:
        await host.deliver(service)
        assert host.posted == []  # still no places
        await service.tournaments.rounds.advance_all()  # the restarted bot opens them
        assert len(host.welcomes) == 0 and len(host.opened) == 2
        await host.deliver(service)
        assert len(host.welcomes) == 2  # the welcomes go as soon as their threads exist
        clock.advance(60)  # past the round's wait before its next attempt
        await host.deliver(service)
        (posted,) = host.rounds
        assert sorted(posted.channels.values()) == [1001, 1002]
        first_welcome = min(
            host.posted.index(d) for d in host.posted if isinstance(d, WelcomeNotice)
        )
        first_round = next(d for d in host.posted if isinstance(d, RoundNotice))
        assert host.posted.index(first_round) > first_welcome


async def test_a_round_whose_threads_never_come_is_posted_as_it_stands_at_the_last_attempt(
    tmp_path: Path, clock: FakeClock
) -> None:
    refusing = RecordingHost(refuse=True)
    async with process(tmp_path / "jarmo.sqlite3", clock, refusing) as service:
        await sign_up(service, 4, format="round-robin")
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
        for attempt in range(1, MAX_ATTEMPTS + 1):
            await refusing.deliver(service)
            assert len(refusing.rounds) == (attempt == MAX_ATTEMPTS)
            clock.advance(DAY)
        (posted,) = refusing.rounds
        assert posted.channels == {} and len(posted.pairings) == 2
        await refusing.deliver(service)
        assert len(refusing.rounds) == 1
        assert await service.kit.store.outbox.next_due() is None


async def test_a_permanent_discord_failure_is_given_up_at_once(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    async def channel_gone(delivery: Delivery) -> None:
        raise Undeliverable(f"channel {delivery.entry.channel_id}: 404 Unknown Channel")

    async with process(tmp_path / "jarmo.sqlite3", clock) as service:
        await sign_up(service, 4, format="round-robin")
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
        with caplog.at_level(logging.WARNING, logger="bot.service.delivery"):
            assert await AnnouncementDelivery(service, channel_gone).deliver_due() == []
        dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
        assert sorted(m.split(":")[0] for m in dropped) == [
            "dropped announcement match_welcome",
            "dropped announcement match_welcome",
            "dropped announcement round_paired",
        ]
        assert await service.kit.store.outbox.next_due() is None  # never tried again
        working = RecordingHost()
        clock.advance(DAY)
        await working.deliver(service)
        assert working.posted == []


async def test_a_service_without_a_host_writes_no_posts(tmp_path: Path, clock: FakeClock) -> None:
    async with open_store(tmp_path / "jarmo.sqlite3") as store:
        service = make_service(store, clock)
        await sign_up(service, 3, format="round-robin")
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
        # No host: no match starts, so nothing happens that anyone would post.
        assert await store.outbox.next_due() is None
