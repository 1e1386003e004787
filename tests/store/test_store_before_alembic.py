"""Databases made before the schema moved to Alembic upgrade in place on first start, on both
backends, with every row kept; the schema they reach is the one an empty database gets; and a
schema from newer code is refused before anything is touched.

``tests/data/before_alembic.*`` were written by the bot of before (commit 49bd0b4, schema 10):
see ``tests/data/make_before_alembic.py`` for what they hold.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg
import pytest

from bot.service import Actor, JarmoService, Place, read_action
from bot.store import SchemaTooNew, SqliteStore, open_any, open_store
from bot.store._migrations import latest_version, revision
from bot.store.postgres import PostgresStore, migrate_database
from tests.fakes import FakeClock
from tests.postgres import PostgresServer

DATA = Path(__file__).parents[1] / "data"
MADE_BEFORE = DATA / "before_alembic.sqlite"
DUMPED_BEFORE = DATA / "before_alembic.postgresql.sql"
DUMPED_SCHEMA = "jarmo_before"
GUILD, RUNNING = 900_000_000_000_000_101, 900_000_000_000_000_102
HEAD = revision(latest_version())
UNKNOWN = revision(latest_version() + 1)
# Tables that the schema has dropped since (0011): an upgrade takes them, with their rows.
DROPPED = ("guild_settings",)
# Tables that the schema has added since (0015, 0016, 0018, 0021): empty after the upgrade.
NEW = ("turn_pings", "vacations", "taken_back", "spectators")
# Columns that the schema has added since at the end of a table (0012, 0014, 0017), NULL in older
# rows.
ADDED = {"tournament_pairings": 1, "outbox": 1, "challenges": 2, "actions": 2}

Rows = dict[str, list[tuple[Any, ...]]]


# -- SQLite -----------------------------------------------------------------------------------


def sqlite_rows(path: Path) -> Rows:
    """Every row of every table but Alembic's, in a stable order."""
    with closing(sqlite3.connect(path)) as db:
        tables = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'alembic_version'"
            )
        ]
        return {table: sorted(db.execute(f"SELECT * FROM {table}"), key=repr) for table in tables}


def sqlite_versions(path: Path) -> tuple[int, list[tuple[str, ...]]]:
    with closing(sqlite3.connect(path)) as db:
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'alembic_version'").fetchone():
            return found, []
        return found, db.execute("SELECT version_num FROM alembic_version").fetchall()


def sqlite_schema(path: Path) -> dict[str, object]:
    """Each table's columns, keys, CHECK conditions and rowid-ness, and each index's columns,
    uniqueness and WHERE: what the schema enforces, however its SQL was spelled."""
    with closing(sqlite3.connect(path)) as db:
        shape: dict[str, object] = {}
        for kind, name, table, sql in db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ):
            if kind == "table":
                shape[name] = (
                    db.execute(f"PRAGMA table_xinfo({name})").fetchall(),
                    db.execute(f"PRAGMA foreign_key_list({name})").fetchall(),
                    db.execute(f"PRAGMA table_list({name})").fetchall(),
                    sorted(checks(sql)),
                )
            elif kind == "index":
                listing = {row[1]: row[2:] for row in db.execute(f"PRAGMA index_list({table})")}
                partial = re.search(r"\bWHERE\b.*", sql or "", re.S)
                shape[name] = (
                    listing[name],
                    db.execute(f"PRAGMA index_xinfo({name})").fetchall(),
                    partial and " ".join(partial[0].split()),
                )
        return shape


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def checks(sql: str) -> list[str]:
    """The conditions of a CREATE TABLE's CHECK constraints, whitespace made single spaces."""
    found = []
    for start in (m.end() for m in re.finditer(r"\bCHECK\s*\(", sql)):
        depth, end = 1, start
        while depth:
            depth += {"(": 1, ")": -1}.get(sql[end], 0)
            end += 1
        found.append(" ".join(sql[start : end - 1].split()))
    return found


async def test_a_sqlite_file_from_before_alembic_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "jarmo.sqlite3"
    shutil.copy(MADE_BEFORE, path)
    before = sqlite_rows(path)
    assert sqlite_versions(path) == (10, [])
    async with open_store(path):
        pass
    after = sqlite_rows(path)
    # A table rebuilt by a migration is analysed again: its statistics stay, and cover every
    # index it has now.
    assert set(before.pop("sqlite_stat1")) <= set(after.pop("sqlite_stat1"))
    assert after == as_upgraded(before)
    assert sqlite_versions(path) == (latest_version(), [(HEAD,)])
    async with open_store(path) as store:
        await continue_the_running_game(store)


async def test_the_upgraded_sqlite_schema_is_the_one_an_empty_file_gets(tmp_path: Path) -> None:
    upgraded, fresh = tmp_path / "upgraded.sqlite3", tmp_path / "fresh.sqlite3"
    shutil.copy(MADE_BEFORE, upgraded)
    async with open_store(upgraded), open_store(fresh):
        pass
    assert sqlite_schema(fresh) == sqlite_schema(upgraded)
    assert sqlite_versions(fresh) == sqlite_versions(upgraded)


async def test_a_sqlite_file_at_an_unknown_revision_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    shutil.copy(MADE_BEFORE, path)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode = DELETE")  # as a copy of a newer bot's file may be
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        db.execute("INSERT INTO alembic_version VALUES (?)", (UNKNOWN,))  # user_version: 10
    made = path.read_bytes()
    with pytest.raises(SchemaTooNew) as refused:
        await SqliteStore.open(path)
    assert refused.value.found == UNKNOWN
    assert path.read_bytes() == made
    assert files_in(tmp_path) == [path.name]  # no -wal, no -shm


# -- PostgreSQL -------------------------------------------------------------------------------


async def restore_dump(postgres: PostgresServer) -> str:
    """A fresh database holding what the dump made before Alembic holds; its URL."""
    url = postgres.fresh_database(migrated=False)
    schema = parse_qs(urlsplit(url).query)["search_path"][0]
    statements = [
        line.replace(DUMPED_SCHEMA, schema)
        for line in DUMPED_BEFORE.read_text(encoding="utf-8").splitlines()
        # psql's commands, the session settings pg_dump starts with (some only newer servers
        # know), and the schema, which the fresh database already has
        if not line.startswith(("\\", "SET ", "SELECT pg_catalog.set_config", "CREATE SCHEMA "))
    ]
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("\n".join(statements))
    finally:
        await connection.close()
    return url


async def postgres_rows(url: str) -> Rows:
    """Every row of every table but Alembic's, in a stable order."""
    connection = await asyncpg.connect(url)
    try:
        tables = await connection.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_name <> 'alembic_version'"
        )
        return {
            row["table_name"]: sorted(
                tuple(found)
                for found in await connection.fetch(f"SELECT * FROM {row['table_name']}")
            )
            for row in tables
        }
    finally:
        await connection.close()


async def postgres_versions(url: str) -> tuple[int, list[str]]:
    connection = await asyncpg.connect(url)
    try:
        legacy = await connection.fetchval("SELECT max(version) FROM jarmo_schema_version")
        exists = await connection.fetchval("SELECT to_regclass('alembic_version') IS NOT NULL")
        revisions = (
            [r["version_num"] for r in await connection.fetch("SELECT * FROM alembic_version")]
            if exists
            else []
        )
        return legacy, revisions
    finally:
        await connection.close()


async def postgres_schema(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Columns, constraints, indexes and storage settings of the database's tables, with its
    schema's name left out."""
    queries = {
        "columns": "SELECT table_name, ordinal_position, column_name, data_type, is_nullable,"
        " column_default, is_identity FROM information_schema.columns"
        " WHERE table_schema = current_schema()",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
        " FROM pg_constraint WHERE connamespace = current_schema()::regnamespace",
        "indexes": "SELECT tablename, indexname, replace(indexdef, current_schema() || '.', '')"
        " FROM pg_indexes WHERE schemaname = current_schema()",
        "options": "SELECT relname, reloptions FROM pg_class"
        " WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'",
    }
    connection = await asyncpg.connect(url)
    try:
        return {
            name: sorted(tuple(row) for row in await connection.fetch(query))
            for name, query in queries.items()
        }
    finally:
        await connection.close()


async def test_a_postgresql_dump_from_before_alembic_upgrades_in_place(
    postgres: PostgresServer,
) -> None:
    url = await restore_dump(postgres)
    before = await postgres_rows(url)
    assert await postgres_versions(url) == (10, [])
    assert await migrate_database(url) == latest_version()
    recorded = {"jarmo_schema_version": [(latest_version(),)]}  # the version, for old bots
    assert await postgres_rows(url) == {**as_upgraded(before), **recorded}
    assert await postgres_versions(url) == (latest_version(), [HEAD])
    async with open_any(url) as store:
        await continue_the_running_game(store)


async def test_the_upgraded_postgresql_schema_is_the_one_an_empty_database_gets(
    postgres: PostgresServer,
) -> None:
    upgraded, fresh = await restore_dump(postgres), postgres.fresh_database()
    await migrate_database(upgraded)
    assert await postgres_schema(fresh) == await postgres_schema(upgraded)


async def test_a_postgresql_database_at_an_unknown_revision_is_refused_untouched(
    postgres: PostgresServer,
) -> None:
    url = await restore_dump(postgres)
    await migrate_database(url)
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("UPDATE alembic_version SET version_num = $1", UNKNOWN)
    finally:
        await connection.close()
    schema, rows = await postgres_schema(url), await postgres_rows(url)
    with pytest.raises(SchemaTooNew) as refused:
        await PostgresStore.open(url)
    assert refused.value.found == UNKNOWN
    assert (await postgres_schema(url), await postgres_rows(url)) == (schema, rows)


# -- both -------------------------------------------------------------------------------------


def as_upgraded(rows: Rows) -> Rows:
    """``rows`` as an upgrade leaves them: without the tables that the schema has dropped
    since, with NULL in the columns it has added, and its new tables empty."""
    upgraded = {
        table: [(*row, *[None] * ADDED.get(table, 0)) for row in found]
        for table, found in rows.items()
        if table not in DROPPED
    }
    return upgraded | {table: [] for table in NEW}


async def continue_the_running_game(store: Any) -> None:
    """The game that was running before the upgrade takes its next move. Its clock gave a day
    a move from when the data was made, so the move is made an hour before that deadline,
    whatever today's date."""
    clock = FakeClock()
    service = JarmoService(store, clock=clock)
    place = Place(GUILD, RUNNING)
    view = await service.play.board(place)
    assert view.game.version == 4 and view.clock is not None
    assert view.clock.deadline_at is not None
    clock.set(view.clock.deadline_at - timedelta(hours=1))
    mover = view.turn_user_id
    assert mover is not None
    await service.play.move(
        place, Actor(mover, "Ann"), read_action(view.game.engine.legal_moves()[0])
    )
    assert (await service.play.board(place)).game.version == 5
