"""Every write that moves a game's version on tells the store's ``changes`` once it commits, on
SQLite where the writes tell it themselves (PostgreSQL's trigger sees every write by itself):
here a trigger of the test's own, on the writer's connection, sees what SQLite changed, and
what the store told must be exactly that, in order."""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta

from sqlalchemy import Connection

from bot.store import GameEnding, MatchOver, SqliteStore
from bot.store._connection import driver
from tests.store.store_helpers import (
    ALICE,
    BOB,
    T0,
    challenge,
    fork,
    new_game,
    only_sqlite,
    quiet_move,
)

SEEN_BY_SQLITE = """
CREATE TEMP TRIGGER seen_by_sqlite AFTER UPDATE OF version ON main.games
WHEN NEW.version IS NOT OLD.version
BEGIN SELECT seen_by_sqlite(NEW.id, NEW.version); END
"""


@only_sqlite
async def test_every_change_of_a_version_is_told_once_committed(store: SqliteStore) -> None:
    seen: list[tuple[int, int]] = []

    def watch(db: Connection) -> None:
        raw: sqlite3.Connection = driver(db)
        raw.create_function("seen_by_sqlite", 2, lambda *change: seen.append(change))
        raw.execute(SEEN_BY_SQLITE)

    await store._writer._thread.call(watch)
    told: list[tuple[int, int]] = []
    stop = store.changes.listen(lambda *change: told.append(change), lambda: None)

    posted = await store.challenges.create(challenge(time_per_move_seconds=3600), now=T0)
    _, record = await store.challenges.accept(
        posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
    )
    game_id = record.id
    for seed in (1, 2):
        game = fork(record.engine)
        mover = record.player_id(game.turn)
        played = quiet_move(game, random.Random(seed))
        record = await store.games.record_move(
            game_id, expected_version=record.version, player_id=mover, move=played, game=game,
            now=T0,
        )  # fmt: skip
    kept = fork(new_game())
    kept.play(record.engine.history[0])
    record = await store.games.take_back(
        game_id, expected_version=record.version, game=kept, now=T0
    )
    record = await store.clocks.pause(game_id, expected_version=record.version, now=T0)
    record = await store.clocks.resume(game_id, expected_version=record.version, now=T0)
    away = await store.vacations.start(BOB, now=T0, ends_at=T0 + timedelta(days=2))
    assert away is not None
    assert await store.vacations.end(away.id, at=T0 + timedelta(hours=1))
    record = await store.games.get(game_id)
    await store.games.end(
        game_id,
        GameEnding(
            status="resigned", winner="white", points=record.engine.points(),
            termination="resigned", game=record.engine, then=MatchOver("forfeited", ALICE),
        ),
        expected_version=record.version,
        now=T0,
    )  # fmt: skip
    await store.quarantine.set_aside(game_id, reason="a test", now=T0)
    stop()

    # Two moves, a takeback, away, back, the end, set aside (a pause and a resume keep it).
    assert seen == [(game_id, version) for version in range(1, 8)]
    assert told == seen
