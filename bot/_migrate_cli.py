"""``jarmo-bot migrate-store --from sqlite:///data/jarmo.sqlite3 --to postgresql://...``: copy
everything an SQLite database holds into an empty PostgreSQL database, then check the copy.

Every row of every table is copied as it is (ids included, so messages and announcements still
point at the same games), in one transaction: a failed copy leaves the target empty. Afterwards
the row counts of each table and every rating and rating-history row are compared, read back
through the store on both sides. Stop the bot first: rows written during the copy are not in it.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from bot.exit_status import ExitStatus
from bot.store import (
    DatabaseUnusable,
    SchemaTooNew,
    StoreError,
    describe,
    is_postgres_url,
    open_store,
)
from bot.store.postgres import connect, migrate_database, open_postgres

# Parents before children (foreign keys); the schema-version table is each backend's own.
TABLES = (
    "players", "bot_state", "challenges", "matches", "games", "actions", "ratings",
    "rating_history", "tournaments", "tournament_entries", "tournament_pairings", "outbox",
    "quarantined_games", "game_reviews", "turn_pings", "vacations", "taken_back", "spectators",
)  # fmt: skip


class MigrationRefused(Exception):
    """The copy cannot start: a bad source or target; says why."""


class CopyMismatch(Exception):
    """The copy, committed, does not read back like the source; says where."""


def add_migrate_parser(commands: Any, shared: argparse.ArgumentParser) -> None:
    """Add the ``migrate-store`` command to the ``jarmo-bot`` sub-command parsers."""
    migrate = commands.add_parser(
        "migrate-store",
        parents=[shared],
        help="copy an SQLite database into an empty PostgreSQL database",
    )
    migrate.add_argument(
        "--from", dest="source", required=True, metavar="sqlite:///PATH",
        help="the SQLite database to copy (sqlite:///relative/path or sqlite:////absolute/path)",
    )  # fmt: skip
    migrate.add_argument(
        "--to", dest="target", required=True, metavar="postgresql://...",
        help="the PostgreSQL database to fill; it must exist and hold no rows",
    )  # fmt: skip


def run_migrate(args: argparse.Namespace) -> int:
    """Run ``migrate-store``; returns the exit status (2 for a source or target it refuses)."""
    try:
        source = sqlite_path(args.source)
        if not is_postgres_url(args.target):
            raise MigrationRefused(f"--to must be a postgresql:// URL, not {args.target!r}")
        counts = asyncio.run(migrate_store(source, args.target))
    except (MigrationRefused, DatabaseUnusable, SchemaTooNew) as exc:
        print(f"jarmo-bot migrate-store: {exc}", file=sys.stderr)
        return ExitStatus.CANNOT_START
    except CopyMismatch as exc:
        print(
            f"jarmo-bot migrate-store: the copy does not match the source: {exc}", file=sys.stderr
        )
        return ExitStatus.PROBLEM
    except (StoreError, sqlite3.Error, OSError) as exc:
        print(
            f"jarmo-bot migrate-store: the copy failed; the target is unchanged: {exc}",
            file=sys.stderr,
        )
        return ExitStatus.PROBLEM
    total = sum(counts.values())
    print(f"copied {total} rows to {describe(args.target)} and checked them:")
    for table, count in counts.items():
        print(f"  {table}: {count}")
    return ExitStatus.OK


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///path`` URL (a plain path is taken as it is)."""
    parts = urlsplit(url)
    if parts.scheme == "":
        path = Path(url)
    elif parts.scheme == "sqlite" and not parts.netloc:
        path = Path(unquote(parts.path[1:] if parts.path.startswith("/") else parts.path))
    else:
        raise MigrationRefused(f"--from must be sqlite:///PATH, not {url!r}")
    if not path.is_file():
        raise MigrationRefused(f"--from: there is no SQLite database at {path}")
    return path.absolute()  # the copy opens it by URI


async def migrate_store(source: Path, target: str) -> dict[str, int]:
    """Copy ``source`` into the empty database at ``target`` and check the copy; returns the
    rows copied per table. Raises ``MigrationRefused``, ``DatabaseUnusable``,
    ``SchemaTooNew``."""
    async with open_store(source):  # brings the file to the latest schema (or refuses it)
        pass
    await migrate_database(target)
    connection = await connect(target)
    try:
        await _refuse_rows(connection, target)
        counts = await _copy(source, connection)
    finally:
        await connection.close()
    await _verify(source, target, counts)
    return counts


async def _refuse_rows(connection: Any, target: str) -> None:
    for table in TABLES:
        if await connection.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise MigrationRefused(
                f"{describe(target)} already holds data (table {table}); migrate-store only "
                "fills an empty database"
            )


async def _copy(source: Path, connection: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    with closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)) as db:
        async with connection.transaction():
            for table in TABLES:
                columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
                kinds = await _column_kinds(connection, table)
                rows = [
                    tuple(_convert(value, kinds[c]) for c, value in zip(columns, row, strict=True))
                    for row in db.execute(f"SELECT {', '.join(columns)} FROM {table}")
                ]
                await connection.copy_records_to_table(table, records=rows, columns=columns)
                counts[table] = len(rows)
                if "id" in columns:  # identity columns go on after the copied ids
                    await connection.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" (SELECT max(id) FROM {table}), true) WHERE EXISTS"
                        f" (SELECT 1 FROM {table})"
                    )
    return counts


async def _column_kinds(connection: Any, table: str) -> dict[str, str]:
    rows = await connection.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_name = $1 AND table_schema = current_schema()",
        table,
    )
    return {row["column_name"]: row["data_type"] for row in rows}


def _convert(value: object, kind: str) -> object:
    """SQLite keeps what it was given; PostgreSQL wants the column's type."""
    if value is None:
        return None
    if kind == "double precision" and isinstance(value, int | float):
        return float(value)
    if kind in ("bigint", "integer") and isinstance(value, float) and value.is_integer():
        return int(value)
    if kind == "text" and isinstance(value, bytes):  # a damaged column, kept readable
        return value.hex()
    return value


async def _verify(source: Path, target: str, counts: dict[str, int]) -> None:
    connection = await connect(target)
    try:
        for table, expected in counts.items():
            found = await connection.fetchval(f"SELECT count(*) FROM {table}")
            if found != expected:
                raise CopyMismatch(f"{table}: copied {expected} rows, found {found}")
    finally:
        await connection.close()
    async with open_store(source) as before, open_postgres(target) as after:
        if await before.ratings.tables() != await after.ratings.tables():
            raise CopyMismatch("the ratings read back from the copy differ from the source")
