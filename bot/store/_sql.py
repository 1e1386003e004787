"""What the SQL modules need of a database, whichever backend runs them.

The write functions (``_game_sql``, ``_ratings_sql``, ...) are plain functions of a SQLAlchemy
``Connection`` that run inside one transaction: SQLite's writer runs them on its own thread,
PostgreSQL's with ``AsyncConnection.run_sync``. Reads go through a :class:`Reader`. Statements
are Core expressions on :mod:`bot.store.schema`, which SQLAlchemy compiles for each dialect.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, RowMapping, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Executable

T = TypeVar("T")
Sql = Connection


class Writer(Protocol):
    """Runs write transactions: ``await run(work)`` commits what ``work`` did, or nothing."""

    def run(self, work: Callable[[Connection], T]) -> Awaitable[T]: ...


class Reader(Protocol):
    """Runs reads outside any write transaction."""

    async def rows(self, statement: Executable) -> Sequence[RowMapping]:
        """The rows of one query, by column name."""
        ...


def upsert(db: Connection, table: Table) -> Any:
    """An ``INSERT`` into ``table`` in the connection's dialect, which can take
    ``on_conflict_do_nothing`` / ``on_conflict_do_update`` (the two dialects spell them alike)."""
    dialect = postgresql if db.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def one(db: Connection, statement: Executable) -> RowMapping | None:
    """The first row of ``statement``, or None."""
    return db.execute(statement).mappings().first()


# What both backends raise (wrapped by SQLAlchemy) when a unique index refuses a row; the
# message names the index or its columns.
UNIQUE_VIOLATIONS: tuple[type[Exception], ...] = (IntegrityError,)
