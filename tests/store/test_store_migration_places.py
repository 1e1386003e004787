"""A database at 0018 keeps every row as ``guild_id`` becomes optional (places outside
servers) and ratings and names are keyed by partial unique indexes instead of primary keys."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store import PlayerRecord, open_any
from bot.store._migrations import upgrade_sqlite
from bot.store.postgres import migrate_database
from tests.store.test_store_migrations import (
    ACTION_COLUMNS_AT_18,
    AT,
    OUTBOX_AT_13,
    database_at,
    execute,
    rows_but_versions,
)

ROWS_AT_18 = [
    *OUTBOX_AT_13,
    "INSERT INTO players VALUES (7, 5, 'Ann'), (7, 6, 'Bo'), (8, 5, 'Ann elsewhere')",
    "INSERT INTO ratings (guild_id, ruleset, user_id, mu, sigma, rating, games, wins, draws,"
    " losses, points, match_wins, last_game_at) VALUES"
    f" (7, 'classic', 5, 27.5, 8.0, 1030.0, 1, 1, 0, 0, 6, 1, '{AT}'),"
    f" (7, 'classic', 6, 22.5, 8.0, 970.0, 1, 0, 0, 1, 2, 0, '{AT}')",
    "INSERT INTO rating_history VALUES"
    f" (1, 4, 7, 'classic', 5, 25.0, 8.3, 1000.0, 27.5, 8.0, 1030.0, '{AT}'),"
    f" (2, 4, 7, 'classic', 6, 25.0, 8.3, 1000.0, 22.5, 8.0, 970.0, '{AT}')",
]
RATING = (
    "INSERT INTO ratings (guild_id, ruleset, user_id, mu, sigma, rating, games, last_game_at)"
    f" VALUES ({{guild}}, 'classic', 5, 25.0, 8.0, 1000.0, 0, '{AT}')"
)
REFUSED = (sqlite3.IntegrityError, asyncpg.UniqueViolationError)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_every_row_stays_and_places_outside_servers_have_no_server(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    target = await database_at(request, db_path, backend, 18, ROWS_AT_18)
    before = await rows_but_versions(target)
    if isinstance(target, Path):  # (opening the store would free the outbox's writer lease)
        upgrade_sqlite(target)
    else:
        await migrate_database(target)
    after = await rows_but_versions(target)
    actions = [row[:ACTION_COLUMNS_AT_18] for row in after.pop("actions")]
    assert actions == before.pop("actions")
    assert after == before
    assert {len(after[table]) for table in ("players", "ratings", "rating_history")} == {2, 3}
    async with open_any(target) as store:
        assert await store.players.get(7, 5) == PlayerRecord(7, 5, "Ann")
        board = await store.ratings.leaderboard(7, "classic", offset=0, limit=5)
        assert [(r.rating.user_id, r.rating.display_name) for r in board] == [(5, "Ann"), (6, "Bo")]
        assert len(await store.ratings.history(7, 5, "classic", limit=5)) == 1
        assert (await store.games.get(5)).guild_id == 7

    # A row outside servers has no server; each place keeps one rating a ruleset and player.
    await execute(target, RATING.format(guild="NULL"))
    for duplicate in (RATING.format(guild="NULL"), RATING.format(guild=7)):
        with pytest.raises(REFUSED):
            await execute(target, duplicate)
    await execute(target, "INSERT INTO players VALUES (NULL, 5, 'Ann')")
    with pytest.raises(REFUSED):
        await execute(target, "INSERT INTO players VALUES (NULL, 5, 'Ann again')")
    async with open_any(target) as store:
        assert await store.players.get(None, 5) == PlayerRecord(None, 5, "Ann")
        (friends,) = await store.ratings.leaderboard(None, "classic", offset=0, limit=5)
        assert (friends.rating.guild_id, friends.rating.display_name) == (None, "Ann")
