"""A stored game that does not replay to its snapshot is reported as CorruptGame, never fixed."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import bot.store._games
import bot.store._replay
from bot.jarmo import Game
from bot.store import CorruptGame, GameRecord, SqliteStore, open_store
from bot.store._replay import StoredGame
from tests.store.store_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    StartMatch,
    new_game,
    only_sqlite,
    open_without_process_lock,
    play_quiet,
)


async def stored_game(store: SqliteStore, start_match: StartMatch, moves: int = 8) -> GameRecord:
    _, start = await start_match()
    return await play_quiet(store, start, moves, random.Random(31))


def other_snapshot() -> str:
    game = new_game()
    game.play(game.legal_moves()[-1])
    return json.dumps(game.to_dict())


def dump(db_path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT g.version, g.snapshot, a.ply, a.player_id, a.move FROM games g"
            " LEFT JOIN actions a ON a.game_id = g.id ORDER BY a.ply"
        ).fetchall()


TAMPERING: dict[str, tuple[str, Callable[[int], tuple[object, ...]], str]] = {
    "snapshot of another game": (
        "UPDATE games SET snapshot = ? WHERE id = ?",
        lambda gid: (other_snapshot(), gid),
        "snapshot differs",
    ),
    "snapshot unreadable": (
        "UPDATE games SET snapshot = ? WHERE id = ?",
        lambda gid: ("{not json", gid),
        "snapshot unreadable",
    ),
    "snapshot not a game": (
        "UPDATE games SET snapshot = ? WHERE id = ?",
        lambda gid: ('{"format": 1}', gid),
        "snapshot unreadable",
    ),
    "an action changed": (
        "UPDATE actions SET move = (SELECT move FROM actions WHERE game_id = ? AND ply = 1)"
        " WHERE game_id = ? AND ply = 3",
        lambda gid: (gid, gid),
        "ply 3",
    ),
    "an action deleted": (
        "DELETE FROM actions WHERE game_id = ? AND ply = 5",
        lambda gid: (gid,),
        "stored plies",
    ),
    "the version below the ply count": (
        "UPDATE games SET version = version - 1 WHERE id = ?",
        lambda gid: (gid,),
        "below the snapshot's 8 plies",
    ),
    "an action by the wrong player": (
        "UPDATE actions SET player_id = ? WHERE game_id = ? AND ply = 2",
        lambda gid: (ALICE, gid),
        "ply 2",
    ),
    "a player swapped": (
        "UPDATE games SET white_id = ? WHERE id = ?",
        lambda gid: (BOB + 1, gid),
        "ply 1",
    ),
    "a damaged timestamp": (
        "UPDATE games SET last_activity = 'yesterday' WHERE id = ?",
        lambda gid: (gid,),
        "yesterday",
    ),
    "a different ruleset": (
        "UPDATE matches SET ruleset = 'nonsense'",
        lambda gid: (),
        "cannot start",
    ),
}


@only_sqlite
@pytest.mark.parametrize("how", TAMPERING)
async def test_tampering_is_detected_on_the_next_load(
    db_path: Path,
    store: SqliteStore,
    start_match: StartMatch,
    how: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    record = await stored_game(store, start_match)
    await store.close()
    sql, params, reason = TAMPERING[how]
    with sqlite3.connect(db_path) as db:
        db.execute(sql, params(record.id))
    before = dump(db_path)

    async with open_store(db_path) as reopened:
        loads: tuple[Callable[[], Awaitable[object]], ...] = (
            lambda: reopened.games.get(record.id),
            lambda: reopened.games.active(CHANNEL),
        )
        for first, load in zip((True, False), loads, strict=True):
            with (
                caplog.at_level(logging.ERROR, logger="bot.store"),
                pytest.raises(CorruptGame) as caught,
            ):
                await load()
            assert caught.value.game_id == record.id
            assert reason in caught.value.reason
            # Logged at ERROR once per game, however often it is met afterwards.
            assert (f"game {record.id} is damaged" in caplog.text) is first
            caplog.clear()
        with pytest.raises(CorruptGame):
            await reopened.games.match_games(record.match_id)
    assert dump(db_path) == before  # reported, not repaired


@only_sqlite
async def test_tampering_is_detected_even_after_this_process_wrote_the_game(
    db_path: Path, store: SqliteStore, start_match: StartMatch
) -> None:
    record = await stored_game(store, start_match)
    assert await store.games.get(record.id) == record
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (other_snapshot(), record.id))
    with pytest.raises(CorruptGame):
        await store.games.get(record.id)


@only_sqlite
async def test_a_game_is_replayed_once_per_process(
    db_path: Path, store: SqliteStore, start_match: StartMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays: list[int] = []
    real_verify = bot.store._replay.verify  # what the games store calls

    def counting_verify(stored: StoredGame) -> Game:
        replays.append(stored.version)
        return real_verify(stored)

    monkeypatch.setattr(bot.store._games, "verify", counting_verify)
    record = await stored_game(store, start_match, moves=5)
    for _ in range(3):
        assert await store.games.get(record.id) == record
    assert replays == []  # every version was written by this process

    fresh = await open_without_process_lock(db_path)
    try:
        for _ in range(3):
            assert await fresh.games.get(record.id) == record
        assert replays == [5]  # checked once, then trusted
        moved = await play_quiet(fresh, record, 1, random.Random(32))
        assert await fresh.games.get(record.id) == moved
        assert replays == [5]
        assert await store.games.get(record.id) == moved  # written by the other store: replayed
        assert replays == [5, 6]
    finally:
        await fresh.close()
