"""Optimistic concurrency: of many writers racing on one version, exactly one wins."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy import Connection

from bot.store import GameRecord, SqliteStore, StaleGame, Store
from tests.store.store_helpers import (
    T0,
    StartMatch,
    fork,
    only_sqlite,
    open_without_process_lock,
    play_quiet,
    quiet_move,
)

RACERS = 16


async def race(stores: Sequence[Store], base: GameRecord, rng: random.Random) -> list[object]:
    """Fire RACERS different moves, all validated against ``base``, at the same time."""

    async def attempt(i: int) -> GameRecord:
        game = fork(base.engine)
        move = quiet_move(game, rng)
        return await stores[i % len(stores)].games.record_move(
            base.id,
            expected_version=base.version,
            player_id=base.player_id(base.engine.turn),
            move=move,
            game=game,
            now=T0,
        )

    return await asyncio.gather(*(attempt(i) for i in range(RACERS)), return_exceptions=True)


def one_winner(results: list[object]) -> GameRecord:
    winners = [r for r in results if isinstance(r, GameRecord)]
    losers = [r for r in results if isinstance(r, StaleGame)]
    assert len(winners) == 1, results
    assert len(losers) == RACERS - 1, results
    return winners[0]


async def test_exactly_one_move_wins_per_version(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, record = await start_match()
    rng = random.Random(21)
    for version in range(12):
        base = await store.games.get(record.id)
        assert base.version == version
        winner = one_winner(await race([store], base, rng))
        stored = await store.games.get(record.id)
        assert stored.version == version + 1
        assert stored.engine == winner.engine
        actions = await store.games.actions(record.id)
        assert [a.move for a in actions] == winner.engine.history


@only_sqlite
async def test_exactly_one_wins_across_two_processes_worth_of_connections(
    store: SqliteStore, start_match: StartMatch, db_path: Path
) -> None:
    # A second set of connections on the same file stands in for a second writer (the process
    # lock keeps a second *bot* off the file, but not, say, an operator's tool): SQLite's own
    # locking (BEGIN IMMEDIATE + busy timeout) and the version check must let only one through.
    _, record = await start_match()
    rng = random.Random(22)
    other = await open_without_process_lock(db_path)
    try:
        for version in range(6):
            base = await store.games.get(record.id)
            assert base.version == version
            one_winner(await race([store, other], base, rng))
        final = await other.games.get(record.id)
    finally:
        await other.close()
    assert final == await store.games.get(record.id)
    assert final.version == 6


async def test_writers_to_different_games_all_succeed(
    store: SqliteStore, start_match: StartMatch
) -> None:
    records = [(await start_match(channel=c))[1] for c in range(8)]

    async def play(record: GameRecord, seed: int) -> GameRecord:
        rng = random.Random(seed)
        for _ in range(10):
            game = fork(record.engine)
            mover = record.player_id(game.turn)
            move = quiet_move(game, rng)
            record = await store.games.record_move(
                record.id,
                expected_version=record.version,
                player_id=mover,
                move=move,
                game=game,
                now=T0,
            )
        return record

    done = await asyncio.gather(*(play(r, i) for i, r in enumerate(records)))
    for record in done:
        assert record.version == 10
        assert await store.games.get(record.id) == record


async def test_cancelled_writers_leave_a_consistent_store(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, record = await start_match()
    rng = random.Random(23)
    for _ in range(20):
        base = await store.games.get(record.id)
        game = fork(base.engine)
        move = quiet_move(game, rng)
        write = asyncio.create_task(
            store.games.record_move(
                base.id,
                expected_version=base.version,
                player_id=base.player_id(base.engine.turn),
                move=move,
                game=game,
                now=T0,
            )
        )
        await asyncio.sleep(0)  # let it start: cancel it somewhere inside the write
        write.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await write  # once the cancelled call is over, its transaction must be settled
        # Whether or not that move made it, the game must load consistently and accept the
        # next move from whatever version it is at.
        current = await store.games.get(record.id)
        assert current.version in (base.version, base.version + 1)
        record = await play_quiet(store, current, 1, rng)
        assert record.version == current.version + 1


async def test_a_cancelled_write_is_settled_before_its_caller_returns(store: SqliteStore) -> None:
    # A transaction that has started is not interrupted. The cancelled caller must only get its
    # CancelledError once the transaction has finished (here: committed).
    inside, release = threading.Event(), threading.Event()

    def slow(db: Connection) -> None:
        db.exec_driver_sql("INSERT INTO bot_state VALUES ('cancelled write', 'committed')")
        inside.set()
        if db.dialect.name == "postgresql":  # run on the event loop: a statement that waits
            db.exec_driver_sql("SELECT pg_sleep(0.5)")
        else:  # SQLite's writer thread
            assert release.wait(timeout=10)

    write = asyncio.create_task(store._writer.run(slow))
    assert await asyncio.to_thread(inside.wait, 10)
    write.cancel()
    done, _ = await asyncio.wait([write], timeout=0.05)
    assert not done  # still waiting for the transaction
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await write
    assert await store.state.get("cancelled write") == "committed"
