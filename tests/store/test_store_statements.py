"""How the store's Core statements reach the database: compiled once per dialect, with the
status words a partial index needs written into their text, on connections the reader holds."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import Dialect, func, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.asyncio import create_async_engine

from bot import store as st
from bot.jarmo import Game
from bot.store import GameRecord, PostgresStore, SqliteStore, Store, open_any
from bot.store._games import _ACTIVE_GAME, _ACTIVE_OF_PLAYER
from bot.store._sql import inline
from tests.statements import traced_postgres
from tests.store.store_helpers import CHANNEL, T0, StartMatch, fork, play_quiet, quiet_move

only_postgres = pytest.mark.parametrize("store_target", ["postgresql"], indirect=True)
CANCEL_WAIT_S = 10.0


def test_status_words_are_part_of_the_statement_text() -> None:
    dialects: list[Dialect] = [
        sqlite.dialect(),
        create_async_engine("postgresql+asyncpg://").dialect,
    ]
    for dialect in dialects:
        text = str(_ACTIVE_GAME.statement.compile(dialect=dialect))
        assert "games.status = 'active'" in text


def test_only_words_are_written_inline() -> None:
    with pytest.raises(ValueError, match="not a status word"):
        inline("x' OR '1' = '1")


async def test_a_channels_active_game_is_found_through_its_partial_index(db_path: Path) -> None:
    async with open_any(db_path):
        pass  # creates the schema
    sql, arguments = _ACTIVE_GAME.prepared(sqlite.dialect(), {"channel_id": CHANNEL})
    with sqlite3.connect(db_path) as db:
        plan = db.execute(f"EXPLAIN QUERY PLAN {sql}", arguments).fetchall()
    details = " ".join(str(row[-1]) for row in plan)
    assert "games_one_active_per_channel" in details, details
    assert "SCAN games" not in details, details


async def test_a_players_active_games_are_found_through_the_partial_player_indexes(
    db_path: Path,
) -> None:
    async with open_any(db_path):
        pass  # creates the schema
    sql, arguments = _ACTIVE_OF_PLAYER.prepared(sqlite.dialect(), {"user_id": 7})
    with sqlite3.connect(db_path) as db:
        plan = db.execute(f"EXPLAIN QUERY PLAN {sql}", arguments).fetchall()
    details = " ".join(str(row[-1]) for row in plan)
    assert "games_active_by_white (white_id=?)" in details, details
    assert "games_active_by_black (black_id=?)" in details, details
    assert "SCAN" not in details and "TEMP B-TREE" not in details, details


async def test_moves_and_loads_agree(store: Store, start_match: StartMatch) -> None:
    match, record = await start_match()
    rng = random.Random(5)
    for _ in range(6):  # the first move takes the shared transaction, the others one statement
        record = await play_quiet(store, record, 1, rng)
        assert record.match == match
    loaded = await store.games.active(record.channel_id)
    assert loaded == record
    actions = await store.games.actions(record.id)
    assert [a.ply for a in actions] == list(range(1, record.version + 1))
    assert [a.move for a in actions] == list(record.engine.history)


async def sleeping_on_the_server(url: str) -> None:
    """Wait until a ``pg_sleep`` runs on the server, within ``CANCEL_WAIT_S``."""
    watcher = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(CANCEL_WAIT_S):
            while True:
                running = await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                    " AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()"
                )
                if running:
                    return
                await asyncio.sleep(0.01)  # polling the server, with the time limit above
    finally:
        await watcher.close()


@only_postgres
async def test_a_cancelled_read_leaves_the_reader_usable(store_target: str) -> None:
    async with await PostgresStore.open(store_target) as store:
        reading = asyncio.create_task(store._read.rows(select(func.pg_sleep(5))))
        await sleeping_on_the_server(store_target)
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        async with asyncio.timeout(CANCEL_WAIT_S):
            rows = await store._read.rows(select(func.count()).select_from(select(1).subquery()))
        assert list(rows[0].values()) == [1]


async def test_a_read_cancelled_on_sqlite_leaves_the_reader_usable(db_path: Path) -> None:
    # Cancelled while SQLite runs its statement on aiosqlite's thread, the read leaves its
    # connection invalidated: the next read must take a fresh one, not fail for ever.
    started, release = threading.Event(), threading.Event()

    def hold() -> int:
        started.set()
        release.wait(CANCEL_WAIT_S)
        return 1

    async with open_any(db_path) as store:
        assert isinstance(store, SqliteStore)
        await store._read.on_each_driver(lambda driver: driver.create_function("hold", 0, hold))
        reading = asyncio.create_task(store._read.rows(select(func.hold())))
        assert await asyncio.to_thread(started.wait, CANCEL_WAIT_S)
        reading.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await reading
        async with asyncio.timeout(CANCEL_WAIT_S):
            rows = await store._read.rows(select(func.count()).select_from(select(1).subquery()))
        assert list(rows[0].values()) == [1]


def move_announcements(record: GameRecord, game: Game, mover: int) -> list[st.Announcement]:
    """What a move that ``game`` played on ``record`` may write with it: the direct message
    that pings the player to move, and the computer's move held for its writer."""
    version, plies, played = record.version + 1, len(game.history), game.history[-1]
    to_move = record.player_id(game.turn)
    ping = st.TurnPingPost(version, plies, played, mover, to_move)
    computer = st.ComputerMovePost(version, played, mover, plies=plies)
    return [
        st.announcement(f"turn_ping:{record.id}:{version}", ping, to_user=to_move),
        st.announcement(f"computer_move:{record.id}:{version}", computer, held_seconds=60),
    ]


async def move_announcing(
    store: PostgresStore, record: GameRecord, rng: random.Random, *, expected_version: int
) -> tuple[GameRecord, list[st.Announcement]]:
    game = fork(record.engine)
    mover = record.player_id(game.turn)
    played = quiet_move(game, rng)
    announce = move_announcements(record, game, mover)
    moved = await store.games.record_move(
        record.id, expected_version=expected_version, player_id=mover, move=played, game=game,
        now=T0, announce=announce,
    )  # fmt: skip
    return moved, announce


@only_postgres
async def test_a_move_and_its_announcements_are_one_statement_on_postgresql(
    store: PostgresStore, start_match: StartMatch
) -> None:
    rng = random.Random(8)
    # The first move of a game in this process takes the shared write (it learns the clock).
    _, start = await start_match()
    record = await play_quiet(store, start, 1, rng)
    async with traced_postgres(store) as statements:
        moved, (ping, computer) = await move_announcing(
            store, record, rng, expected_version=record.version
        )
    assert len(statements) == 1, str(statements)  # no write transaction, no second statement
    assert statements.statements[0].startswith("WITH moved AS"), str(statements)
    assert moved.version == record.version + 1
    assert (await store.games.get(record.id)) == moved

    # Each is in the outbox once: the direct message deliverable now, to the player to move...
    (direct,) = await store.outbox.claim(now=T0, lease_seconds=600)
    assert (direct.key, direct.kind) == (ping.key, "turn_ping")
    assert direct.address == st.UserAddress(ping.payload["user_id"])
    assert (direct.guild_id, direct.game_id) == (record.guild_id, record.id)
    # ... and the computer's move in the game's channel once its writer's hold is over.
    (posted,) = await store.outbox.claim(now=T0 + timedelta(seconds=61), lease_seconds=600)
    assert (posted.key, posted.kind) == (computer.key, "computer_move")
    assert posted.address == st.ChannelAddress(record.channel_id)
    for entry in (direct, posted):
        assert await store.outbox.settle(entry.key, "sent", lease=entry.lease, now=T0)
    assert await store.outbox.claim(now=T0 + timedelta(days=1), lease_seconds=600) == []


@only_postgres
async def test_a_stale_move_writes_none_of_its_announcements_on_postgresql(
    store: PostgresStore, start_match: StartMatch
) -> None:
    rng = random.Random(9)
    _, start = await start_match()
    record = await play_quiet(store, start, 2, rng)
    with pytest.raises(st.StaleGame):
        await move_announcing(store, record, rng, expected_version=record.version - 1)
    assert await store.outbox.claim(now=T0 + timedelta(days=1), lease_seconds=600) == []
    assert (await store.games.get(record.id)) == record
