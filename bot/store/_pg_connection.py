"""The PostgreSQL backend's connections: an ``asyncpg`` pool, the writer that runs the shared
SQL modules' transactions on it, and the reader.

The write functions the backends share are plain functions of a connection (see ``_sql``), run
on a worker thread. Here each one runs on a thread of a small pool and sees a :class:`_Bridge`
whose every statement is sent to the event loop, where the pool's connection runs it inside
``BEGIN`` ... ``COMMIT``. So the SQL and the rules of each write exist once, for both backends,
and PostgreSQL itself decides every race: row locks and the version in each ``UPDATE ... WHERE``.

A server that goes away (restart, network) fails the call in progress with
:class:`~bot.store.errors.StoreUnavailable`, rolled back by the server; the pool replaces broken
connections by itself, so the next call works once the server is back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import asyncpg

from bot.store._pg_sql import to_postgres
from bot.store._sql import Params
from bot.store.errors import StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")
# Connections in the pool: writers and readers share it. Eight covers the bot's concurrent
# interactions on two cores; PostgreSQL's default max_connections (100) leaves room for several
# bot processes and the operator.
POOL_SIZE = 8
# How long a statement may wait (for a lock, or a server that does not answer) before the player
# is told to try again: well inside Discord's 3 s to answer.
STATEMENT_TIMEOUT_S = 2.0
CONNECT_TIMEOUT_S = 5.0

# Errors that mean "the server, or the way to it, is not there right now": nothing was
# committed, and the same call may work a moment later.
_UNAVAILABLE = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.QueryCanceledError,  # statement_timeout: waited too long for a lock
    asyncpg.exceptions.DeadlockDetectedError,  # the server rolled us back: try again
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.TooManyConnectionsError,
)


async def create_pool(url: str) -> asyncpg.Pool:
    """A pool of connections to ``url`` (raises what ``asyncpg.connect`` raises)."""
    pool = await asyncpg.create_pool(
        url,
        min_size=1,
        max_size=POOL_SIZE,
        timeout=CONNECT_TIMEOUT_S,
        command_timeout=STATEMENT_TIMEOUT_S * 2,
        server_settings={
            "statement_timeout": str(int(STATEMENT_TIMEOUT_S * 1000)),
            "application_name": "jarmo-bot",
        },
    )
    assert pool is not None
    return pool


class PgReader:
    """Reads on the pool, each a statement of its own (READ COMMITTED)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def execute_fetchall(self, sql: str, parameters: Params = (), /) -> Iterable[Any]:
        """The rows of one query; ``StoreUnavailable`` when the server cannot be reached."""
        text, args = to_postgres(sql, parameters)
        try:
            return await self._pool.fetch(text, *args)  # type: ignore[no-any-return]
        except _UNAVAILABLE as exc:
            raise unavailable(exc) from exc


class PgWriter:
    """Write transactions on the pool: ``await run(work)`` runs ``work(connection)`` inside one
    transaction and commits, or rolls back and raises what ``work`` raised.

    If the caller is cancelled once the transaction has started, it still commits or rolls back
    before the ``CancelledError`` is raised (the ``interface`` convention).
    """

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._threads = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="jarmo-pg-writer")

    async def run(self, work: Callable[[Any], T]) -> T:
        """Run ``work`` in one transaction; see the class."""
        running = asyncio.ensure_future(self._transaction(work))
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

    async def _transaction(self, work: Callable[[Any], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            async with self._pool.acquire() as connection, connection.transaction():
                bridge = _Bridge(connection, loop)
                return await loop.run_in_executor(self._threads, work, bridge)
        except _UNAVAILABLE as exc:
            raise unavailable(exc) from exc

    async def close(self) -> None:
        """Stop the worker threads (the pool is closed by its owner)."""
        self._threads.shutdown(wait=True)


def unavailable(exc: BaseException) -> StoreUnavailable:
    """The store's error for a server that cannot be used right now."""
    log.warning("PostgreSQL unavailable: %s: %s", type(exc).__name__, exc)
    return StoreUnavailable(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)


class _Result:
    """A statement's rows and row count, shaped like a ``sqlite3.Cursor``."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return self._rows


class _Bridge:
    """One transaction's connection as the shared SQL modules see it, used from a worker
    thread: each statement runs on the event loop, and the thread waits for its result."""

    def __init__(self, connection: asyncpg.Connection, loop: asyncio.AbstractEventLoop) -> None:
        self._connection = connection
        self._loop = loop

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = (), /) -> _Result:
        text, args = to_postgres(sql, parameters)
        return asyncio.run_coroutine_threadsafe(self._run(text, args), self._loop).result()

    def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any] | Mapping[str, Any]], /
    ) -> _Result:
        rows = [to_postgres(sql, each) for each in parameters]
        if not rows:
            return _Result([], 0)
        text = rows[0][0]
        many = self._connection.executemany(text, [args for _, args in rows])
        asyncio.run_coroutine_threadsafe(many, self._loop).result()
        return _Result([], len(rows))

    async def _run(self, text: str, args: list[Any]) -> _Result:
        # fetch and execute keep prepared statements in the connection's cache; only execute
        # reports how many rows a statement without RETURNING changed.
        if _returns_rows(text):
            rows = await self._connection.fetch(text, *args)
            return _Result(rows, len(rows))
        status = await self._connection.execute(text, *args)
        count = status.rsplit(" ", 1)[-1]
        return _Result([], int(count) if count.isdigit() else 0)


def _returns_rows(text: str) -> bool:
    head = text.lstrip()[:6].upper()
    return head in ("SELECT", "WITH  ") or head.startswith("WITH") or " RETURNING " in text
