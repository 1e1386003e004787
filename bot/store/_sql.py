"""What the SQL modules need of a database, whichever backend runs them.

The write functions (``_game_sql``, ``_ratings_sql``, ...) are plain functions of a SQLAlchemy
``Connection`` that run inside one transaction: SQLite's writer runs them on its own thread,
PostgreSQL's with ``AsyncConnection.run_sync``. Reads go through a :class:`Reader`. Statements
are Core expressions on :mod:`bot.store.schema`, which SQLAlchemy compiles for each dialect.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from sqlalchemy import Connection, Dialect, RowMapping, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql import ClauseElement, Executable

T = TypeVar("T")
Sql = Connection


class Transactions(Protocol):
    """Runs write transactions: ``await run(work)`` commits what ``work`` did, or nothing."""

    def run(self, work: Callable[[Connection], T]) -> Awaitable[T]: ...


class Reader(Protocol):
    """Runs reads outside any write transaction."""

    async def rows(self, statement: Executable) -> Sequence[RowMapping]:
        """The rows of one query, by column name."""
        ...


class EngineReader:
    """Reads on an asyncio engine's pool (``aiosqlite`` or ``asyncpg``), each a statement of its
    own in autocommit; a driver's error is handed to ``translate`` and what it returns raised."""

    def __init__(
        self, engine: AsyncEngine, translate: Callable[[Exception], BaseException]
    ) -> None:
        self._engine = engine
        self._translate = translate

    async def rows(self, statement: Executable) -> Sequence[RowMapping]:
        """The rows of one query, by column name."""
        try:
            async with self._engine.connect() as connection:
                return (await connection.execute(statement)).mappings().all()
        except Exception as exc:
            raise self._translate(exc) from exc

    async def close(self) -> None:
        """Close the engine's connections."""
        await self._engine.dispose()


def upsert(db: Connection, table: Table) -> Any:
    """An ``INSERT`` into ``table`` in the connection's dialect, which can take
    ``on_conflict_do_nothing`` / ``on_conflict_do_update`` (the two dialects spell them alike)."""
    dialect = postgresql if db.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def one(db: Connection, statement: Executable) -> RowMapping | None:
    """The first row of ``statement``, or None."""
    return db.execute(statement).mappings().first()


class _Compiled(NamedTuple):
    sql: str
    order: tuple[str, ...]  # the parameters' names, in the order the SQL takes them
    defaults: dict[str, Any]  # the values the statement itself holds


# sqlite3 takes parameters by name, so a call's need no reordering.
_SQLITE_NAMED = sqlite.dialect(paramstyle="named")


class Hot:
    """A Core statement on the hot path (a move), compiled by SQLAlchemy once per dialect and
    then run straight on the driver: on the cursor of a connection inside its transaction
    (:meth:`execute`), or on an ``asyncpg`` connection (:meth:`prepared`).

    ``Connection.execute`` costs about as much again as SQLite itself for each statement
    (checking the cache, an execution context, result metadata): for a move's three statements
    that was the whole difference between the store's CPU per move and what it had been with
    hand-written SQL (``bench/store.py``). Rows come back indexed by column name.
    """

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def _for(self, dialect: Dialect) -> _Compiled:
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(
                dialect=_SQLITE_NAMED if dialect.name == "sqlite" else dialect
            )
            order = tuple(getattr(compiled, "positiontup", None) or ())
            found = _Compiled(str(compiled), order, dict(compiled.params))
            self._compiled[dialect.name] = found
        return found

    def prepared(
        self, dialect: Dialect, parameters: Mapping[str, Any]
    ) -> tuple[str, tuple[Any, ...]]:
        """The SQL in ``dialect`` and its positional arguments from ``parameters`` (by name)."""
        compiled = self._for(dialect)
        values = compiled.defaults | dict(parameters)
        return compiled.sql, tuple(values[name] for name in compiled.order)

    def execute(self, db: Connection, parameters: Mapping[str, Any]) -> HotResult:
        """Run the statement with ``parameters`` (by name)."""
        raw = db.connection.driver_connection
        if isinstance(raw, sqlite3.Connection):
            compiled = self._for(db.dialect)
            found = raw.cursor()
            found.row_factory = sqlite3.Row
            found.execute(compiled.sql, compiled.defaults | dict(parameters))
            return HotResult(found.fetchall(), found.rowcount)
        sql, arguments = self.prepared(db.dialect, parameters)
        adapted = db.connection.dbapi_connection
        assert adapted is not None  # checked out for the caller's transaction
        cursor = adapted.cursor()
        try:
            cursor.execute(sql, arguments)
            if cursor.description is None:
                return HotResult([], cursor.rowcount)
            names = [column[0] for column in cursor.description]
            rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
            return HotResult(rows, cursor.rowcount)
        finally:
            cursor.close()


class HotResult(NamedTuple):
    """The rows of a :class:`Hot` statement (by column name), and how many rows it changed."""

    rows: list[Any]
    rowcount: int

    def first(self) -> Any:
        """The first row, or None."""
        return self.rows[0] if self.rows else None


# What both backends raise (wrapped by SQLAlchemy) when a unique index refuses a row; the
# message names the index or its columns.
UNIQUE_VIOLATIONS: tuple[type[Exception], ...] = (IntegrityError,)
