"""What the SQL modules need of a database, whichever backend runs them.

The write functions (``_game_sql``, ``_ratings_sql``, ...) are plain functions of a SQLAlchemy
``Connection`` that run inside one transaction: SQLite's writer runs them on its own thread,
PostgreSQL's with ``AsyncConnection.run_sync``. Reads go through a :class:`Reader`. Statements
are Core expressions on :mod:`bot.store.schema`, which SQLAlchemy compiles for each dialect.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, TypeVar

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Dialect,
    RowMapping,
    String,
    Table,
    literal_column,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql import ClauseElement, Executable

T = TypeVar("T")
Sql = Connection


class Transactions(Protocol):
    """Runs write transactions: ``await run(work)`` commits what ``work`` did, or nothing."""

    def run(self, work: Callable[[Connection], T]) -> Awaitable[T]: ...


class Reader(Protocol):
    """Runs reads outside any write transaction."""

    async def rows(
        self, statement: Executable | Hot, parameters: Mapping[str, Any] | None = None
    ) -> Sequence[Any]:
        """The rows of one query (by column name), with ``parameters`` for its bound ones."""
        ...


class EngineReader:
    """Reads on connections held out of an asyncio engine's pool (``aiosqlite`` or
    ``asyncpg``, in autocommit), each read one statement on one of them; a :class:`Hot`
    statement is sent straight to the driver.

    Each read checking a connection out of SQLAlchemy's pool and back cost more CPU than the
    read itself (``bench/store.py``: a trusted ``active_game`` 1 ms against main's 0.2 ms), so
    up to ``connections`` stay checked out, each used by one read at a time. One the server
    dropped is replaced before anything is sent on it. A driver's error is handed to
    ``translate`` and what it returns raised; ``answered`` is told of each read that went
    through (so that an outage's end can be logged).
    """

    def __init__(
        self,
        engine: AsyncEngine,
        translate: Callable[[Exception], BaseException],
        connections: int = 1,
        answered: Callable[[], None] | None = None,
    ) -> None:
        self._engine = engine
        self._translate = translate
        self._answered = answered
        self._connections = connections
        self._idle: asyncio.Queue[_Held | None] = asyncio.Queue()
        for _ in range(connections):
            self._idle.put_nowait(None)  # checked out when first needed

    async def rows(
        self, statement: Executable | Hot, parameters: Mapping[str, Any] | None = None
    ) -> Sequence[Any]:
        """The rows of one query (by column name), with ``parameters`` for its bound ones."""
        held = await self._idle.get()
        try:
            if held is None or held.closed():
                await _let_go(held)
                held = None
                held = await _check_out(self._engine)
            if isinstance(statement, Hot):
                found = await statement.fetch(held.driver, self._engine.dialect, parameters or {})
            else:
                found = (await held.connection.execute(statement, parameters)).mappings().all()
        except asyncio.CancelledError:
            if held is not None:
                held.cut()
            raise
        except Exception as exc:
            error = self._translate(exc)
            if error is not exc or getattr(exc, "connection_invalidated", False):
                await _let_go(held)  # the server went away: the pool connects again
                held = None
            raise error from exc
        finally:
            self._idle.put_nowait(held)
        if self._answered is not None:
            self._answered()
        return found

    async def first(self, statement: Hot, parameters: Mapping[str, Any]) -> Any:
        """The first row of ``statement``, or None: for a write that is one statement on its
        own (it commits by itself in autocommit)."""
        found = await self.rows(statement, parameters)
        return found[0] if found else None

    async def on_each_driver(self, apply: Callable[[Any], Awaitable[object]]) -> None:
        """Await ``apply(driver)`` for the driver connection of each connection this reader
        holds, checking them all out first: for diagnostics, such as a statement trace."""
        taken = [await self._idle.get() for _ in range(self._connections)]
        try:
            for index, held in enumerate(taken):
                if held is None:
                    taken[index] = held = await _check_out(self._engine)
                await apply(held.driver)
        finally:
            for held in taken:
                self._idle.put_nowait(held)

    async def close(self) -> None:
        """Wait for the reads in progress, give the connections back and close the engine."""
        for _ in range(self._connections):
            held = await self._idle.get()
            if held is not None:
                await held.connection.close()
        await self._engine.dispose()


class _Held(NamedTuple):
    connection: AsyncConnection
    driver: Any  # the aiosqlite or asyncpg connection under it

    def closed(self) -> bool:
        """Whether it can serve no more: the server closed it (asyncpg knows without asking),
        or SQLAlchemy gave it up when a statement was interrupted (a cancelled caller)."""
        is_closed = getattr(self.driver, "is_closed", None)
        return self.connection.invalidated or bool(is_closed is not None and is_closed())

    def cut(self) -> None:
        """Close a server connection whose statement was interrupted (the caller was cancelled):
        where its conversation with the server stands is unknown, so the next use replaces it.
        An aiosqlite connection finishes the statement on its thread and stays usable."""
        terminate = getattr(self.driver, "terminate", None)
        if terminate is not None:
            terminate()


async def _check_out(engine: AsyncEngine) -> _Held:
    connection = await engine.connect()
    try:
        raw = await connection.get_raw_connection()
    except BaseException:
        await connection.close()
        raise
    return _Held(connection, raw.driver_connection)


async def _let_go(held: _Held | None) -> None:
    """Give back a connection that is broken, for the pool to replace."""
    if held is not None:
        with contextlib.suppress(Exception):  # it is gone anyway
            await held.connection.invalidate()
        with contextlib.suppress(Exception):
            await held.connection.close()


async def finish_even_if_cancelled(work: Awaitable[T]) -> T:
    """Await ``work``; if the caller is cancelled meanwhile, let ``work`` end (it may commit)
    before the ``CancelledError`` goes on (the ``interface`` convention)."""
    running = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        while not running.done():
            try:
                await asyncio.wait([running])
            except asyncio.CancelledError:
                continue
        if not running.cancelled():
            running.exception()  # retrieved: the caller hears only of its cancellation
        raise


def inline(value: str) -> ColumnElement[str]:
    """``value`` written into the statement's text rather than bound: SQLite (and PostgreSQL's
    generic plans) use a partial index such as ``WHERE status = 'active'`` only for a query that
    says so in its text, and a bound ``status = ?`` made each lookup of a channel's active game
    a scan of every game."""
    if not value.replace("_", "").isalpha():  # a word from the code, never a user's text
        raise ValueError(f"not a status word: {value!r}")
    return literal_column(f"'{value}'", String)


def upsert(db: Connection, table: Table) -> Any:
    """An ``INSERT`` into ``table`` in the connection's dialect, which can take
    ``on_conflict_do_nothing`` / ``on_conflict_do_update`` (the two dialects spell them alike)."""
    dialect = postgresql if db.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def keyed_by_place(table: Table, guild_id: int | None, *key: Column[Any]) -> dict[str, Any]:
    """The conflict target of an upsert into ``table`` (``ratings``, ``players``) for a row of
    ``guild_id``: its unique index of a server's rows (``guild_id`` and ``key``), or for
    ``None`` its index of the rows outside servers (``key``). Both are partial, so the target
    names the index's condition too."""
    place = table.c.guild_id
    if guild_id is None:
        return {"index_elements": list(key), "index_where": place.is_(None)}
    return {"index_elements": [place, *key], "index_where": place.is_not(None)}


def one(db: Connection, statement: Executable) -> RowMapping | None:
    """The first row of ``statement``, or None."""
    return db.execute(statement).mappings().first()


class _Compiled(NamedTuple):
    sql: str
    defaults: dict[str, Any]  # the values the statement itself holds
    # The positional arguments from the parameters by name (``defaults`` merged in).
    arguments: Callable[[Mapping[str, Any]], tuple[Any, ...]]


def _in_order(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """Picking the values of ``names`` out of a mapping, in that order (in C: binding
    parameters by name cost sqlite3 more than the rest of a short statement)."""
    if len(names) == 1:
        only = names[0]
        return lambda values: (values[only],)
    picked: Callable[[Mapping[str, Any]], tuple[Any, ...]] = itemgetter(*names)
    return picked if names else lambda values: ()


class Hot:
    """A Core statement on the hot path (a move), compiled by SQLAlchemy once per dialect and
    then run straight on the driver: on the cursor of a connection inside its transaction
    (:meth:`execute`), or on an ``aiosqlite`` or ``asyncpg`` connection (:meth:`fetch`).

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
            compiled = self.statement.compile(dialect=dialect)
            order = tuple(getattr(compiled, "positiontup", None) or ())
            found = _Compiled(str(compiled), dict(compiled.params), _in_order(order))
            self._compiled[dialect.name] = found
        return found

    def prepared(
        self, dialect: Dialect, parameters: Mapping[str, Any]
    ) -> tuple[str, tuple[Any, ...]]:
        """The SQL in ``dialect`` and its positional arguments from ``parameters`` (by name)."""
        compiled = self._for(dialect)
        values = {**compiled.defaults, **parameters} if compiled.defaults else parameters
        return compiled.sql, compiled.arguments(values)

    async def fetch(
        self, driver: Any, dialect: Dialect, parameters: Mapping[str, Any]
    ) -> Sequence[Any]:
        """The rows (by column name) of the statement on ``driver``, an ``aiosqlite``
        connection whose rows are ``sqlite3.Row``, or an ``asyncpg`` one."""
        sql, arguments = self.prepared(dialect, parameters)
        if dialect.name == "sqlite":
            rows: Sequence[Any] = await driver.execute_fetchall(sql, arguments)
        else:
            rows = await driver.fetch(sql, *arguments)
        return rows

    def execute(self, db: Connection, parameters: Mapping[str, Any]) -> HotResult:
        """Run the statement with ``parameters`` (by name)."""
        sql, arguments = self.prepared(db.dialect, parameters)
        raw = db.connection.driver_connection
        if isinstance(raw, sqlite3.Connection):
            found = raw.cursor()
            found.row_factory = sqlite3.Row
            found.execute(sql, arguments)
            return HotResult(found.fetchall(), found.rowcount)
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
