"""What only the PostgreSQL backend has: several bots on one database, a server that restarts
under a running bot, and its migrations."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import TypeVar

import asyncpg
import pytest

from bot.store import (
    Announcement,
    CorruptGame,
    GameRecord,
    PostgresStore,
    SchemaTooNew,
    StoreBusy,
    StoreUnavailable,
    check_server,
)
from bot.store._migrations import latest_version, revision
from bot.store.postgres import migrate_database, open_postgres
from tests.postgres import PostgresServer
from tests.store.store_helpers import ALICE, CHANNEL, T0, StartMatch, challenge, fork, quiet_move
from tests.store.test_store_concurrency import one_winner, race

T = TypeVar("T")
on_postgres = pytest.mark.parametrize("store_target", ["postgresql"], indirect=True)


@pytest.fixture
async def second_bot(store_target: str) -> AsyncIterator[PostgresStore]:
    """Another bot's store (its own pool of connections) on the test's database."""
    async with open_postgres(store_target) as other:
        yield other


@on_postgres
async def test_two_bots_racing_for_one_version_apply_exactly_one_move(
    store: PostgresStore, second_bot: PostgresStore, start_match: StartMatch
) -> None:
    _, record = await start_match()
    rng = random.Random(31)
    for version in range(8):
        base = await second_bot.games.get(record.id)
        assert base.version == version
        winner = one_winner(await race([store, second_bot], base, rng))
        assert (await store.games.get(record.id)).engine == winner.engine
    actions = await second_bot.games.actions(record.id)
    assert [a.ply for a in actions] == list(range(1, 9))


@on_postgres
async def test_two_bots_never_claim_the_same_announcement(
    store: PostgresStore, second_bot: PostgresStore, start_match: StartMatch
) -> None:
    records = [(await start_match(channel=CHANNEL + c))[1] for c in range(12)]
    for record in records:
        game = fork(record.engine)
        move = quiet_move(game, random.Random(record.id))
        await store.games.record_move(
            record.id,
            expected_version=0,
            player_id=ALICE,
            move=move,
            game=game,
            now=T0,
            announce=[Announcement(key=f"computer_move:{record.id}", kind="computer_move")],
        )
    claims = await asyncio.gather(
        *(bot.outbox.claim(now=T0, lease_seconds=60, limit=3) for bot in [store, second_bot] * 4)
    )
    keys = [entry.key for claim in claims for entry in claim]
    assert sorted(keys) == sorted(f"computer_move:{r.id}" for r in records)  # each once


@on_postgres
async def test_a_move_waiting_on_a_lock_too_long_is_refused_busy_and_writes_nothing(
    store: PostgresStore, store_target: str, start_match: StartMatch
) -> None:
    _, record = await start_match()
    holder = await asyncpg.connect(store_target)
    try:
        async with holder.transaction():  # an operator's session holding the game's row
            await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", record.id)
            with pytest.raises(StoreBusy):
                await one_move(store, record)
    finally:
        await holder.close()
    assert await store.games.get(record.id) == record
    assert await one_move(store, record)  # the lock is gone: it goes through


@on_postgres
@pytest.mark.restarts_postgres
async def test_a_server_restart_fails_the_call_in_flight_and_the_pool_reconnects(
    store: PostgresStore,
    store_target: str,
    restartable_postgres: PostgresServer,
    start_match: StartMatch,
) -> None:
    _, record = await start_match()
    holder = await asyncpg.connect(store_target)
    await holder.execute("BEGIN")
    await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", record.id)
    in_flight = asyncio.create_task(one_move(store, record))  # waits for the row lock
    await wait_until(lambda: waiting_for_lock(holder), what="the move to wait for the lock")
    restarted = threading.Event()

    def restart_and_say_so() -> None:
        restartable_postgres.restart()
        restarted.set()

    restart = threading.Thread(target=restart_and_say_so)
    restart.start()
    try:
        # Usually the move is cut off. But the server stops its processes one by one: on a busy
        # machine the lock holder can end first and the waiting move commit before its own
        # process is stopped. Either way the caller must be told the truth, and the move be
        # stored whole or not at all.
        try:
            committed: GameRecord | None = await asyncio.wait_for(in_flight, timeout=30)
        except StoreUnavailable:
            committed = None
        await wait_until(restarted.is_set, what="the server to restart", within=60)
    finally:
        await asyncio.to_thread(restart.join)
        holder.terminate()
    stored = await eventually(lambda: store.games.get(record.id))
    assert stored == (committed or record)  # nothing of a failed move was written
    moved = await one_move(store, stored)
    assert moved.version == stored.version + 1
    plies = [a.ply for a in await store.games.actions(record.id)]
    assert plies == list(range(1, moved.version + 1))


@on_postgres
async def test_a_damaged_game_is_reported_and_set_aside_with_its_raw_record(
    store: PostgresStore, store_target: str, start_match: StartMatch
) -> None:
    _, record = await start_match()
    record = await one_move(store, record)
    connection = await asyncpg.connect(store_target)
    try:
        await connection.execute("UPDATE games SET snapshot = 'not json' WHERE id = $1", record.id)
        with pytest.raises(CorruptGame):
            await store.games.get(record.id)
        [damaged] = await store.quarantine.damaged_games()
        assert (damaged.game_id, damaged.status) == (record.id, "active")
        assert await store.quarantine.set_aside(record.id, reason="test", now=T0) == "aborted"
        kept = await connection.fetchval(
            "SELECT game_row FROM quarantined_games WHERE game_id = $1", record.id
        )
    finally:
        await connection.close()
    assert '"snapshot": "not json"' in kept
    assert (await store.games.get(record.id)).status == "aborted"
    assert await store.quarantine.damaged_games() == []


async def test_a_database_from_newer_code_is_refused(postgres: PostgresServer) -> None:
    url = postgres.fresh_database()
    await bump_schema(url, latest_version() + 1)
    with pytest.raises(SchemaTooNew):
        await check_server(url)
    with pytest.raises(SchemaTooNew):
        await PostgresStore.open(url)


async def test_migrating_twice_at_once_migrates_once(postgres: PostgresServer) -> None:
    url = postgres.fresh_database(migrated=False)
    reached = await asyncio.gather(migrate_database(url), migrate_database(url))
    assert list(reached) == [latest_version()] * 2
    async with open_postgres(url) as opened:
        posted = await opened.challenges.create(challenge(), now=T0)
        assert (await opened.challenges.get(posted.id)).status == "pending"


# -- helpers ------------------------------------------------------------------------------------


async def one_move(store: PostgresStore, record: GameRecord) -> GameRecord:
    game = fork(record.engine)
    move = quiet_move(game, random.Random(5))
    return await store.games.record_move(
        record.id,
        expected_version=record.version,
        player_id=record.player_id(record.engine.turn),
        move=move,
        game=game,
        now=T0 + timedelta(seconds=1),
    )


async def waiting_for_lock(connection: asyncpg.Connection) -> bool:
    # Inside a transaction the statistics views keep their first snapshot: take a new one.
    await connection.execute("SELECT pg_stat_clear_snapshot()")
    waiting = await connection.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
    )
    return bool(waiting)


async def wait_until(
    condition: Callable[[], Awaitable[bool] | bool], *, what: str, within: float = 10
) -> None:
    try:
        async with asyncio.timeout(within):
            while True:
                done = condition()
                if done is True or (not isinstance(done, bool) and await done):
                    return
                await asyncio.sleep(0.02)  # polling a condition, with the time limit above
    except TimeoutError:
        raise AssertionError(f"gave up waiting for {what} after {within} s") from None


async def eventually(call: Callable[[], Awaitable[T]], within: float = 10) -> T:
    """``call()``'s result once the server answers again (it may refuse while it starts)."""
    async with asyncio.timeout(within):
        while True:
            try:
                return await call()
            except StoreUnavailable:
                await asyncio.sleep(0.05)


async def bump_schema(url: str, version: int) -> None:
    """Mark the database as newer code would leave it at schema ``version``."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("UPDATE jarmo_schema_version SET version = $1", version)
        await connection.execute("UPDATE alembic_version SET version_num = $1", revision(version))
    finally:
        await connection.close()
