"""The schema the migrations leave at their head revision is the one ``bot.store.schema``
describes, on both backends: Alembic's autogenerate comparison finds nothing to change, except,
on SQLite, what SQLite's own catalogue cannot tell (``sqlite_blind_spot``)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.store._migrations import upgrade_sqlite
from bot.store.postgres import connect
from bot.store.schema import metadata
from tests.postgres import PostgresServer
from tests.store.test_store_before_alembic import checks

# The version record kept for releases from before Alembic (see bot.store._migrations).
NOT_IN_THE_SCHEMA = {"jarmo_schema_version"}


def differences(connection: sa.Connection) -> list[Any]:
    """What Alembic would change to make the database's schema the MetaData's."""

    def ours(name: str | None, kind: str, parent: Any) -> bool:
        return not (kind == "table" and name in NOT_IN_THE_SCHEMA)

    options = {"compare_type": True, "compare_server_default": True, "include_name": ours}
    context = MigrationContext.configure(connection, opts=options)
    return list(compare_metadata(context, metadata))


def sqlite_blind_spot(connection: sa.Connection, difference: Any) -> bool:
    """A difference Alembic reports on SQLite that is no difference in the stored schema.

    - An identity column: SQLite has none; an INTEGER PRIMARY KEY is its rowid, which SQLite
      numbers itself.
    - Nullability of an INTEGER PRIMARY KEY: the schema of before Alembic declared some without
      NOT NULL, the MetaData with it; a rowid is never NULL either way.
    - A named unique constraint: SQLite keeps no name for a constraint made without one, so it
      is found by its columns instead.
    """
    if isinstance(difference, tuple) and difference[0] == "add_constraint":
        wanted = difference[1]
        if not isinstance(wanted, sa.UniqueConstraint):
            return False
        columns = [column.name for column in wanted.columns]
        found = sa.inspect(connection).get_unique_constraints(wanted.table.name)
        return any(unique["column_names"] == columns for unique in found)
    (kind, _, table, column, existing, _, wanted), *more = difference
    if more:
        return False
    if kind == "modify_default":
        return isinstance(wanted, sa.Identity)
    if kind == "modify_nullable":
        key = sa.inspect(connection).get_pk_constraint(table)["constrained_columns"]
        return key == [column] and isinstance(existing["existing_type"], sa.Integer)
    return False


def test_a_sqlite_file_at_head_is_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "jarmo.sqlite3"
    upgrade_sqlite(path)
    engine = sa.create_engine(f"sqlite:///{path}", poolclass=NullPool)
    try:
        with engine.connect() as connection:
            found = differences(connection)
            assert found, "Alembic no longer reports SQLite's blind spots: drop the filter"
            assert [d for d in found if not sqlite_blind_spot(connection, d)] == []
    finally:
        engine.dispose()


async def test_a_postgresql_database_at_head_is_the_schema(postgres: PostgresServer) -> None:
    url = postgres.fresh_database()
    engine = create_async_engine(
        "postgresql+asyncpg://", async_creator=lambda: connect(url), poolclass=NullPool
    )
    try:
        async with engine.connect() as connection:
            assert await connection.run_sync(differences) == []
    finally:
        await engine.dispose()


def test_the_checks_are_the_ones_the_migrations_wrote(tmp_path: Path) -> None:
    # Alembic's comparison leaves CHECK constraints out. Their conditions are compared as text
    # here, so that one derived from a constant (the engine's match lengths) is still exactly
    # what the migrations stored, and a changed constant asks for a migration.
    path = tmp_path / "jarmo.sqlite3"
    upgrade_sqlite(path)
    with closing(sqlite3.connect(path)) as db:
        stored = {
            name: sorted(checks(sql))
            for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
            if name in metadata.tables
        }
    declared = {
        name: sorted(
            " ".join(str(check.sqltext).split())
            for check in table.constraints
            if isinstance(check, sa.CheckConstraint)
        )
        for name, table in metadata.tables.items()
    }
    assert stored == declared
