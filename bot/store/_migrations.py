"""Running the schema's Alembic revisions (``migrations/versions``) on either database.

The store runs them when it opens, on a short-lived SQLAlchemy connection of their own, before
it opens its own connections: on SQLite a plain ``sqlite3`` one (``upgrade_sqlite``), on
PostgreSQL an asyncpg one (``postgres.migrate_database``). The whole upgrade is one transaction:
it commits at the version asked for, or leaves the database exactly as it was.

Version records. Alembic keeps the revision in ``alembic_version``; every revision's id is its
number (``"0007"``). Each database also keeps that number where the code before Alembic kept its
schema version, written in the same transaction: SQLite's ``PRAGMA user_version`` (which the
start-up check reads from the file's header without opening the file, see ``_preflight``) and
PostgreSQL's ``jarmo_schema_version`` table. Releases from before Alembic read only that number,
so they still refuse a schema newer than theirs. A database that such a release made has only
the number: it is stamped with the revision of that number (its schema is that revision's, so
nothing re-runs) and upgraded from there.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy.pool import NullPool

from bot.store.errors import SchemaTooNew

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_BUSY_TIMEOUT_S = 2.0


@cache
def _scripts(folder: Path) -> ScriptDirectory:
    return ScriptDirectory(folder)


def known_versions() -> tuple[int, ...]:
    """The versions (revision numbers) this code knows, oldest first; raises ``RuntimeError``
    if they do not run 1, 2, 3... or a revision's id is not its number."""
    found = [script.revision for script in _scripts(MIGRATIONS).walk_revisions()][::-1]
    expected = [f"{number:04d}" for number in range(1, len(found) + 1)]
    if found != expected:
        raise RuntimeError(f"revisions must be numbered 0001, 0002, 0003...: {found}")
    return tuple(range(1, len(found) + 1))


def latest_version() -> int:
    """The schema version this code writes: the head revision's number."""
    return known_versions()[-1]


def revision(version: int) -> str:
    """The id of the revision that produces schema ``version``."""
    return f"{version:04d}"


class LegacyRecord(Protocol):
    """Where the code before Alembic kept the schema version, on one database."""

    def read(self, connection: sa.Connection) -> int: ...

    def write(self, connection: sa.Connection, version: int) -> None: ...


class _UserVersion:
    def read(self, connection: sa.Connection) -> int:
        return int(connection.exec_driver_sql("PRAGMA user_version").scalar_one())

    def write(self, connection: sa.Connection, version: int) -> None:
        # PRAGMA takes no parameters; the version is an int from our own revision ids.
        connection.exec_driver_sql(f"PRAGMA user_version = {version:d}")


_VERSION_TABLE = sa.Table(
    "jarmo_schema_version", sa.MetaData(), sa.Column("version", sa.Integer, nullable=False)
)


class _VersionTable:
    def read(self, connection: sa.Connection) -> int:
        if not sa.inspect(connection).has_table(_VERSION_TABLE.name):
            return 0
        found = connection.execute(sa.select(sa.func.max(_VERSION_TABLE.c.version))).scalar()
        return int(found or 0)

    def write(self, connection: sa.Connection, version: int) -> None:
        _VERSION_TABLE.create(connection, checkfirst=True)
        connection.execute(_VERSION_TABLE.delete())
        connection.execute(_VERSION_TABLE.insert().values(version=version))


_LEGACY: dict[str, LegacyRecord] = {"sqlite": _UserVersion(), "postgresql": _VersionTable()}


_ALEMBIC_VERSION = sa.table("alembic_version", sa.column("version_num", sa.String))


def _current_revision(connection: sa.Connection) -> str | None:
    """Alembic's record, read directly: ``MigrationContext`` would log two lines each time
    (``jarmo-bot health`` asks often and prints one line)."""
    if not sa.inspect(connection).has_table(_ALEMBIC_VERSION.name):
        return None
    heads = connection.execute(sa.select(_ALEMBIC_VERSION.c.version_num)).scalars().all()
    return " ".join(sorted(heads)) or None  # several heads: a branch this code never made


def found_version(connection: sa.Connection) -> int:
    """The schema version of the database on ``connection`` (0: empty), read without changing
    anything. Raises ``SchemaTooNew`` when it was written by newer code."""
    current = _current_revision(connection)
    if current is None:
        number = _LEGACY[connection.dialect.name].read(connection)
        if number > latest_version():
            raise SchemaTooNew(number, latest_version())
        return number
    if current not in {revision(number) for number in known_versions()}:
        raise SchemaTooNew(current, latest_version())
    return int(current)


def upgrade(connection: sa.Connection, *, target: int | None = None) -> int:
    """Bring the schema on ``connection`` up to version ``target`` (default: the latest), in
    the connection's transaction, and return the version reached.

    Raises ``SchemaTooNew``, before changing anything, for a database written by newer code.
    """
    target = latest_version() if target is None else target
    found = found_version(connection)
    stamped = _current_revision(connection) is not None
    legacy = _LEGACY[connection.dialect.name]

    def record(*, heads: Iterable[str], **_: Any) -> None:
        legacy.write(connection, max((int(head) for head in heads), default=0))

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    config.attributes["options"] = {"on_version_apply": [record]}
    if found and not stamped:  # made before Alembic: its schema is that revision's
        command.stamp(config, revision(found))
    if target > found:
        if found:
            log.info("upgrading the store's schema from version %d to %d", found, target)
        else:
            log.info("creating the store's schema (version %d)", target)
        command.upgrade(config, revision(target))
    return max(found, target)


def upgrade_sqlite(path: str | PathLike[str], *, target: int | None = None) -> int:
    """:func:`upgrade` the SQLite database file at ``path`` (created if missing) on a
    connection of its own, closed again before this returns."""
    engine = sa.create_engine(
        "sqlite://",
        # isolation_level=None: the engine's BEGIN (below) is the only one, so the DDL is inside
        # the transaction too (sqlite3 would otherwise begin only before DML).
        creator=lambda: sqlite3.connect(
            path, isolation_level=None, timeout=SQLITE_BUSY_TIMEOUT_S, check_same_thread=False
        ),
        poolclass=NullPool,
    )
    # IMMEDIATE: take the write lock before reading the version it decides on.
    sa.event.listen(engine, "begin", lambda c: c.exec_driver_sql("BEGIN IMMEDIATE"))
    try:
        with engine.begin() as connection:
            return upgrade(connection, target=target)
    finally:
        engine.dispose()
