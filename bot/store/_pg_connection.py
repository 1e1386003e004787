"""The PostgreSQL backend's connections: the readers' ``asyncpg`` pool, and the writer that runs
the shared SQL modules' transactions.

The write functions the backends share are plain functions of a connection (see ``_sql``), run
on a worker thread. Here each one sees a :class:`_Bridge` over that thread's own connection,
inside ``BEGIN`` ... ``COMMIT``. So the SQL and the rules of each write exist once, for both
backends, and PostgreSQL itself decides every race: row locks and the version in each
``UPDATE ... WHERE``.

A server that goes away (restart, network) fails the call in progress with
:class:`~bot.store.errors.StoreUnavailable`, rolled back by the server; the pool and the writer
threads replace broken connections by themselves, so the next call works once the server is back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
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
WRITERS = 8  # write transactions at once, each on its own thread and connection
# How long a statement may wait (for a lock, or a server that does not answer) before the player
# is told to try again: well inside Discord's 3 s to answer.
STATEMENT_TIMEOUT_S = 2.0
CONNECT_TIMEOUT_S = 5.0

# Errors that mean "the server, or the way to it, is not there right now": nothing was
# committed, and the same call may work a moment later.
UNAVAILABLE = (
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


CONNECTION_SETTINGS: dict[str, Any] = {
    "command_timeout": STATEMENT_TIMEOUT_S * 2,
    "server_settings": {
        "statement_timeout": str(int(STATEMENT_TIMEOUT_S * 1000)),
        "application_name": "jarmo-bot",
    },
}


async def create_pool(url: str) -> asyncpg.Pool:
    """The readers' pool of connections to ``url`` (raises what ``asyncpg.connect`` raises)."""
    pool = await asyncpg.create_pool(
        url,
        min_size=1,
        max_size=POOL_SIZE,
        timeout=CONNECT_TIMEOUT_S,
        reset=_keep_session,
        **CONNECTION_SETTINGS,
    )
    assert pool is not None
    return pool


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Nothing to undo when a connection goes back to the pool.

    asyncpg's default reset sends ``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``
    on every release: one more round trip for each read and each move. The pool's connections
    only ever run single statements (``fetch``, ``fetchrow``) and never change their session:
    no ``SET``, cursors, ``LISTEN`` or advisory locks (the migrations' lock is taken on a
    connection of its own), and the settings they need are given when connecting. So there is
    nothing to reset. A transaction left open by an interrupted call is still rolled back:
    asyncpg does that itself before calling this hook.
    """


class PgReader:
    """Reads on the pool, each a statement of its own (READ COMMITTED)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def execute_fetchall(self, sql: str, parameters: Params = (), /) -> Iterable[Any]:
        """The rows of one query; ``StoreUnavailable`` when the server cannot be reached."""
        text, args = to_postgres(sql, parameters)
        try:
            rows: Iterable[Any] = await self._pool.fetch(text, *args)
        except UNAVAILABLE as exc:
            raise unavailable(exc) from exc
        return rows


class PgWriter:
    """Write transactions: ``await run(work)`` runs ``work(connection)`` inside one transaction
    and commits, or rolls back and raises what ``work`` raised.

    Each transaction runs on one of ``WRITERS`` threads, each with its own connection driven by
    a private event loop, so the statements of a transaction cost no thread hop (one hop per
    transaction, as SQLite's writer): sending each statement to the bot's loop instead cut the
    commits per second to a third (``bench/store.py``). A broken connection is dropped and the
    next transaction on that thread connects again. The hottest write, a move, skips all this:
    it is one statement on the pool (``_pg_games``).

    If the caller is cancelled once the transaction has started, it still commits or rolls back
    before the ``CancelledError`` is raised (the ``interface`` convention).
    """

    def __init__(self, url: str) -> None:
        self._idle: asyncio.Queue[_WriterThread] = asyncio.Queue()
        self._threads = [_WriterThread(url, n) for n in range(WRITERS)]
        for thread in self._threads:
            self._idle.put_nowait(thread)

    async def run(self, work: Callable[[Any], T]) -> T:
        """Run ``work`` in one transaction; see the class."""
        thread = await self._idle.get()
        try:
            running = asyncio.get_running_loop().run_in_executor(thread.executor, thread.run, work)
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
        finally:
            self._idle.put_nowait(thread)

    async def close(self) -> None:
        """Wait for the transactions in progress, then close the connections."""
        for _ in self._threads:
            thread = await self._idle.get()
            await asyncio.get_running_loop().run_in_executor(thread.executor, thread.close)
            thread.executor.shutdown(wait=True)


class _WriterThread:
    """One thread, its private event loop and its connection (made when first needed)."""

    def __init__(self, url: str, number: int) -> None:
        self._url = url
        self.executor = ThreadPoolExecutor(1, thread_name_prefix=f"jarmo-pg-writer-{number}")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connection: Any = None

    def run(self, work: Callable[[Any], T]) -> T:
        """``work`` in BEGIN ... COMMIT on this thread's connection (on the thread)."""
        connection = self._begin()
        try:
            result = work(_Bridge(connection, self._wait))
            self._wait(connection.execute("COMMIT"))
        except BaseException as exc:
            self._roll_back(connection)
            if isinstance(exc, UNAVAILABLE):
                raise unavailable(exc) from exc
            raise
        return result

    def close(self) -> None:
        """Close the connection and the loop (on the thread)."""
        if self._connection is not None:
            try:
                self._wait(self._connection.close(timeout=CONNECT_TIMEOUT_S))
            except UNAVAILABLE:
                self._connection.terminate()
            self._connection = None
        if self._loop is not None:
            self._loop.close()
            self._loop = None

    def _begin(self) -> Any:
        """The connection, in a new transaction. A connection the server dropped while idle
        (a restart) is only found out now: nothing was sent yet, so connect again, once."""
        for attempt in (1, 2):
            try:
                connection = self._connect()
                self._wait(connection.execute("BEGIN"))
                return connection
            except UNAVAILABLE as exc:
                self._drop()
                if attempt == 2:
                    raise unavailable(exc) from exc
        raise AssertionError("unreachable")

    def _connect(self) -> Any:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        if self._connection is None or self._connection.is_closed():
            self._connection = self._wait(
                asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT_S, **CONNECTION_SETTINGS)
            )
        return self._connection

    def _wait(self, step: Awaitable[T]) -> T:
        assert self._loop is not None
        return self._loop.run_until_complete(step)

    def _roll_back(self, connection: Any) -> None:
        if connection.is_closed():
            self._drop()
            return
        try:
            self._wait(connection.execute("ROLLBACK"))
        except UNAVAILABLE:
            self._drop()  # the server ends a transaction whose connection is gone

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.terminate()
            self._connection = None


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
    """One transaction's connection as the shared SQL modules see it: each statement runs to
    its end on the writer thread's own loop (``wait``)."""

    def __init__(self, connection: Any, wait: Callable[[Awaitable[Any]], Any]) -> None:
        self._connection = connection
        self._wait = wait

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = (), /) -> _Result:
        text, args = to_postgres(sql, parameters)
        result: _Result = self._wait(self._run(text, args))
        return result

    def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any] | Mapping[str, Any]], /
    ) -> _Result:
        rows = [to_postgres(sql, each) for each in parameters]
        if rows:
            self._wait(self._connection.executemany(rows[0][0], [args for _, args in rows]))
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
