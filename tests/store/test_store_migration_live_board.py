"""The live board's migration: a database made by the release before it, on either backend,
keeps every row, counts spectators at once, and tells of every change of a game's version
(PostgreSQL: to every process, a write from outside the store included)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.store import GameRecord, Store, open_any
from tests.store.store_helpers import T0, fork, quiet_move
from tests.store.test_store_migrations import (
    CHALLENGES_AND_GAMES_AT_12,
    database_at,
    execute,
    rows_but_versions,
)

WAIT_S = 10.0  # the longest a change may take to arrive on a busy machine
# Each action keeps the clock before it since 0019.
ROWS_AT_20 = [
    *(row for row in CHALLENGES_AND_GAMES_AT_12 if not row.startswith("INSERT INTO actions")),
    f"INSERT INTO actions VALUES (4, 1, 5, 'A1-C2', '{T0.isoformat()}', NULL, NULL)",
]


async def move(store: Store, record: GameRecord) -> GameRecord:
    game = fork(record.engine)
    mover = record.player_id(game.turn)
    played = quiet_move(game, random.Random(1))
    return await store.games.record_move(
        record.id, expected_version=record.version, player_id=mover, move=played, game=game,
        now=T0,
    )  # fmt: skip


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_every_row_stays_and_changes_are_told_at_once(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    target = await database_at(request, db_path, backend, 20, ROWS_AT_20)
    before = await rows_but_versions(target)
    async with open_any(target):
        pass  # upgraded as it opens
    after = await rows_but_versions(target)
    assert after == before

    async with open_any(target) as store:
        heard: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        stop = store.changes.listen(lambda *change: heard.put_nowait(change), lambda: None)
        await store.changes.start()
        moved = await move(store, await store.games.get(5))
        assert await asyncio.wait_for(heard.get(), WAIT_S) == (5, moved.version)
        if isinstance(target, str):  # every process hears, whoever writes
            await execute(target, "UPDATE games SET version = version + 1 WHERE id = 5")
            assert await asyncio.wait_for(heard.get(), WAIT_S) == (5, moved.version + 1)
        stop()
        await store.spectators.report(5, 2, now=T0)
        assert await store.spectators.count(5, since=T0) == 2
