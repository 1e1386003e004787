"""A write that finds the database locked by someone else gives up within Discord's window
(about 2 s), with ``StoreBusy``, and changes nothing."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.service.errors import Busy, as_refusal
from bot.store import GameRecord, SqliteStore, StoreBusy
from bot.store._connection import BUSY_TIMEOUT_MS
from bot.words import refusal_text
from tests.store.store_helpers import T0, StartMatch, fork, only_sqlite, quiet_move
from tests.wording import english


def move_of(record: GameRecord, seed: int) -> dict[str, object]:
    game = fork(record.engine)
    move = quiet_move(game, random.Random(seed))
    return {
        "expected_version": record.version,
        "player_id": record.player_id(record.engine.turn),
        "move": move,
        "game": game,
        "now": T0,
    }


@only_sqlite
async def test_a_write_behind_a_foreign_lock_fails_busy_and_writes_nothing(
    store: SqliteStore, start_match: StartMatch, db_path: Path
) -> None:
    _, record = await start_match()
    assert BUSY_TIMEOUT_MS <= 2_000  # Discord wants an answer within 3 s
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # an operator's shell, a backup …
        # Two writes queued together: the second must not wait a second busy timeout.
        results = await asyncio.gather(
            store.games.record_move(record.id, **move_of(record, 1)),  # type: ignore[arg-type]  # move_of's keywords
            store.games.record_move(record.id, **move_of(record, 2)),  # type: ignore[arg-type]  # move_of's keywords
            return_exceptions=True,
        )
        other.execute("ROLLBACK")
    assert [type(r) for r in results] == [StoreBusy, StoreBusy]
    assert (await store.games.get(record.id)).version == record.version
    user_error = as_refusal(results[0])  # type: ignore[arg-type]  # a StoreBusy, checked above
    assert isinstance(user_error, Busy) and "try again" in refusal_text(user_error, english())
    moved = await store.games.record_move(record.id, **move_of(record, 3))  # type: ignore[arg-type]  # move_of's keywords
    assert moved.version == record.version + 1  # and it works again once the lock is gone
