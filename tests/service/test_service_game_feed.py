"""The live board's feed of game changes, spectator counts and link secret, on both backends:
every committed change of a game's version reaches the subscribers of that game (on PostgreSQL
also those of another process on the database), nothing that rolled back does, a slow reader
holds only the newest change, and what the web server and the bots share is kept in the store."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.service import JarmoService, ServiceConfig
from bot.service.game_feed import GameChange, GameFeed, GameSubscription
from bot.service.spectators import STALE_AFTER
from bot.store import (
    GameEnding,
    GameRecord,
    MatchOver,
    StaleGame,
    Store,
    open_any,
)
from bot.store._changes import PgGameChanges
from tests.fakes import FakeClock
from tests.postgres import PostgresServer
from tests.store.store_helpers import ALICE, BOB, T0, challenge, fork, new_game, quiet_move

WAIT_S = 10.0  # the longest a change may take to arrive on a busy machine
PERIOD = 3600  # seconds a move, for the games whose clocks a vacation stops


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The test's fresh database, once per backend."""
    if request.param == "sqlite":
        return tmp_path / "jarmo.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.fresh_database()


@pytest.fixture
async def store(target: Path | str) -> AsyncIterator[Any]:
    async with open_any(target) as opened:
        yield opened


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[JarmoService]:
    started = JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))
    await started.feed.start()
    yield started
    await started.feed.stop()


async def start_game(store: Store, channel: int = 10) -> GameRecord:
    """A timed match of one game between ALICE (White) and BOB, accepted at T0."""
    posted = await store.challenges.create(
        challenge(channel=channel, time_per_move_seconds=PERIOD), now=T0
    )
    _, game = await store.challenges.accept(
        posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
    )
    return game


async def move(store: Store, record: GameRecord, seed: int = 1) -> GameRecord:
    """One quiet move by the player to move."""
    game = fork(record.engine)
    mover = record.player_id(game.turn)
    played = quiet_move(game, random.Random(seed))
    return await store.games.record_move(
        record.id, expected_version=record.version, player_id=mover, move=played, game=game,
        now=T0 + timedelta(minutes=record.version + 1),
    )  # fmt: skip


async def next_change(changes: GameSubscription) -> GameChange:
    return await asyncio.wait_for(changes.next(), WAIT_S)


class Heard:
    """Every change the store tells of, straight from its ``changes`` role, and a way to wait
    for one."""

    def __init__(self, store: Store) -> None:
        self.changes: list[tuple[int, int]] = []
        self._arrived = asyncio.Event()
        self.stop = store.changes.listen(self._changed, lambda: None)

    def _changed(self, game_id: int, version: int) -> None:
        self.changes.append((game_id, version))
        self._arrived.set()

    async def until(self, change: tuple[int, int]) -> None:
        async with asyncio.timeout(WAIT_S):
            while change not in self.changes:
                self._arrived.clear()
                await self._arrived.wait()


async def test_a_move_a_takeback_an_ending_and_a_vacation_each_reach_a_subscriber(
    store: Store, service: JarmoService
) -> None:
    start = await start_game(store)
    with service.feed.subscribe(start.id) as changes:
        first = await move(store, start)
        assert await next_change(changes) == GameChange(start.id, first.version)
        second = await move(store, first, seed=2)
        assert await next_change(changes) == GameChange(start.id, second.version)

        back = await store.games.take_back(
            start.id, expected_version=second.version, game=fork(first.engine),
            now=T0 + timedelta(minutes=5),
        )  # fmt: skip
        assert await next_change(changes) == GameChange(start.id, back.version)

        # Bob is to move: his vacation stops his clock, which changes the game.
        assert back.player_id(back.engine.turn) == BOB
        assert await store.vacations.start(
            BOB, now=T0 + timedelta(minutes=6), ends_at=T0 + 3 * timedelta(days=1)
        )
        away = await store.games.get(start.id)
        assert away.version == back.version + 1
        assert await next_change(changes) == GameChange(start.id, away.version)

        end = await store.games.end(
            start.id,
            GameEnding(
                status="resigned", winner="white", points=away.engine.points(),
                termination="resigned", game=away.engine, then=MatchOver("forfeited", ALICE),
            ),
            expected_version=away.version,
            now=T0 + timedelta(minutes=7),
        )  # fmt: skip
        assert await next_change(changes) == GameChange(start.id, end.game.version)


async def test_a_write_that_rolls_back_or_finds_the_game_changed_tells_nothing(
    store: Store, service: JarmoService
) -> None:
    start = await start_game(store)
    heard = Heard(store)
    game = fork(start.engine)
    played = quiet_move(game, random.Random(1))
    # Bob is not to move: the move's update runs, then the write rolls back.
    with pytest.raises(ValueError, match="was played by"):
        await store.games.record_move(
            start.id, expected_version=0, player_id=BOB, move=played, game=game, now=T0
        )
    with pytest.raises(StaleGame):
        await store.games.record_move(
            start.id, expected_version=7, player_id=ALICE, move=played, game=game, now=T0
        )
    with service.feed.subscribe(start.id) as changes:
        first = await move(store, start)
        await heard.until((start.id, first.version))
        # Changes arrive in commit order: nothing was told before the move.
        assert heard.changes == [(start.id, first.version)]
        assert await next_change(changes) == GameChange(start.id, 1)
    heard.stop()


async def test_an_unsubscribed_reader_gets_nothing_and_other_games_are_not_told(
    store: Store, service: JarmoService
) -> None:
    watched, other = await start_game(store, channel=10), await start_game(store, channel=11)
    heard = Heard(store)
    with service.feed.subscribe(watched.id) as changes, service.feed.subscribe(other.id) as left:
        pass
    assert service.feed.subscribed() == 0
    with service.feed.subscribe(other.id) as others:
        moved = await move(store, watched)
        await heard.until((watched.id, moved.version))
        later = await move(store, other)
        assert await next_change(others) == GameChange(other.id, later.version)
    heard.stop()
    for ended in (changes, left):
        with pytest.raises(RuntimeError):
            await ended.next()


async def test_a_slow_reader_gets_only_the_newest_change(
    store: Store, service: JarmoService
) -> None:
    record = await start_game(store)
    heard = Heard(store)
    with service.feed.subscribe(record.id) as slow, service.feed.subscribe(record.id) as quick:
        for seed in range(1, 6):
            record = await move(store, record, seed)
            assert (await next_change(quick)).version == record.version
        await heard.until((record.id, 5))
        assert await next_change(slow) == GameChange(record.id, 5)
        record = await move(store, record, 6)
        assert await next_change(slow) == GameChange(record.id, 6)
    heard.stop()


@pytest.mark.parametrize("target", ["postgresql"], indirect=True)
async def test_a_change_written_by_another_process_reaches_this_ones_subscribers(
    target: str, store: Store, service: JarmoService
) -> None:
    start = await start_game(store)
    async with open_any(target) as elsewhere:
        with service.feed.subscribe(start.id) as changes:
            moved = await move(elsewhere, await elsewhere.games.get(start.id))
            assert await next_change(changes) == GameChange(start.id, moved.version)
            # The one-statement move, once the other process knows the game's clock.
            again = await move(elsewhere, moved, seed=2)
            assert await next_change(changes) == GameChange(start.id, again.version)


@pytest.mark.parametrize("target", ["postgresql"], indirect=True)
async def test_after_the_listening_connection_drops_it_listens_again_and_catches_up(
    target: str, store: Store, service: JarmoService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.store._changes")
    start = await start_game(store)
    listening = store.changes
    assert isinstance(listening, PgGameChanges) and listening.connected.is_set()
    # It connects again only once the test has written: the change falls into the gap.
    written, connect = asyncio.Event(), listening._connect

    async def connect_once_written() -> Any:
        await written.wait()
        return await connect()

    listening._connect = connect_once_written
    with service.feed.subscribe(start.id) as changes:
        admin = await asyncpg.connect(target)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'jarmo-bot' AND query LIKE 'LISTEN%'"
                " AND datname = current_database()"
            )
        finally:
            await admin.close()
        await asyncio.wait_for(listening.disconnected.wait(), WAIT_S)
        moved = await move(store, start)  # while nobody listens
        written.set()
        assert await next_change(changes) == GameChange(start.id, moved.version)
        await asyncio.wait_for(listening.connected.wait(), WAIT_S)
        again = await move(store, moved, seed=2)
        assert await next_change(changes) == GameChange(start.id, again.version)
    messages = [record.getMessage() for record in caplog.records]
    assert any("listening for game changes dropped" in message for message in messages)
    assert "listening for game changes again" in messages


async def test_a_feed_not_started_on_sqlite_still_tells_this_process(tmp_path: Path) -> None:
    async with open_any(tmp_path / "jarmo.sqlite3") as store:
        feed = GameFeed(store.changes)
        start = await start_game(store)
        with feed.subscribe(start.id) as changes:
            moved = await move(store, start)
            assert await next_change(changes) == GameChange(start.id, moved.version)


async def test_spectator_counts_are_kept_per_game_and_go_stale(
    service: JarmoService, clock: FakeClock
) -> None:
    spectators = service.spectators
    assert await spectators.count(7) == 0
    await spectators.report(7, 3)
    await spectators.report(8, 5)
    assert (await spectators.count(7), await spectators.count(8)) == (3, 5)
    clock.advance(STALE_AFTER.total_seconds() - 1)
    await spectators.report(8, 4)
    assert (await spectators.count(7), await spectators.count(8)) == (3, 4)
    clock.advance(2)  # game 7 was last reported more than two minutes ago
    assert (await spectators.count(7), await spectators.count(8)) == (0, 4)
    await spectators.report(8, 0)
    assert await spectators.count(8) == 0
    with pytest.raises(ValueError):
        await spectators.report(8, -1)


async def test_the_web_secret_is_made_once_per_database(target: Path | str) -> None:
    async with open_any(target) as store:
        first = JarmoService(store)
        secret = await first.web_secret()
        assert len(secret) == 32 and await first.web_secret() == secret
    async with open_any(target) as store:
        assert await JarmoService(store).web_secret() == secret


@pytest.mark.parametrize("target", ["postgresql"], indirect=True)
async def test_processes_asking_for_the_web_secret_at_once_agree(target: str) -> None:
    async with open_any(target) as one, open_any(target) as two:
        secrets = await asyncio.gather(
            *(JarmoService(store).web_secret() for store in (one, two, one, two))
        )
    assert len(set(secrets)) == 1
