"""The PostgreSQL backend's connections: one SQLAlchemy asyncio engine on ``asyncpg``, whose pool
serves the readers and the writer.

A write is a plain function of a SQLAlchemy ``Connection`` (see ``_sql``), the same one SQLite's
writer runs; here it runs with ``AsyncConnection.run_sync`` inside ``BEGIN`` ... ``COMMIT`` on
one of the pool's connections. PostgreSQL itself decides every race: row locks and the version
in each ``UPDATE ... WHERE``.

A server that goes away (restart, network) fails the call in progress with
:class:`~bot.store.errors.StoreUnavailable`, rolled back by the server; the pool replaces broken
connections by itself, so the next call works once the server is back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import asyncpg
from sqlalchemy import Connection, event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store._sql import finish_even_if_cancelled
from bot.store.errors import StoreFull, StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")
# Connections in the pool, shared by reads and write transactions: room for eight of each at
# once, which covers the bot's concurrent interactions on two cores; PostgreSQL's default
# max_connections (100) leaves room for several bot processes and the operator.
POOL_SIZE = 16
# Of those, kept checked out for reads and one-statement writes (see _sql.EngineReader).
HELD = 8
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


def create_engine(url: str) -> AsyncEngine:
    """The engine for ``url`` (connecting only when first used).

    asyncpg reads ``url`` itself, as it always did (a unix socket folder in ``host=``, server
    settings such as ``search_path`` in the query), so the engine is given a way to connect
    rather than a URL of its own.
    """

    async def connect() -> asyncpg.Connection:
        connection: asyncpg.Connection = await asyncpg.connect(
            url, timeout=CONNECT_TIMEOUT_S, **CONNECTION_SETTINGS
        )
        return connection

    engine = create_async_engine(
        "postgresql+asyncpg://",
        async_creator=connect,
        pool_size=POOL_SIZE,
        max_overflow=0,
        pool_timeout=CONNECT_TIMEOUT_S,
    )
    event.listen(engine.sync_engine, "checkout", _refuse_closed)
    return engine


def _refuse_closed(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """A connection the server dropped while it was idle in the pool (a restart) is known to
    be closed without asking the server: the pool replaces it before anything is sent."""
    if dbapi_connection.driver_connection.is_closed():
        raise DisconnectionError("the server closed the connection")


class ServerWatch:
    """Whether the server answered the store's last call: a warning when it stops answering
    and an info line when it answers again, rather than a line for every call of an outage
    (each keystroke of an autocomplete is one). One per store, so one per process."""

    def __init__(self) -> None:
        self._failing = False

    def failed(self, exc: Exception) -> BaseException:
        """What the store raises for the driver's ``exc`` (see :func:`translated`)."""
        error = translated(exc)
        if isinstance(error, StoreUnavailable) and not self._failing:
            self._failing = True
            log.warning("PostgreSQL unavailable: %s", error.reason)
        return error

    def answered(self) -> None:
        """A call went through."""
        if self._failing:
            self._failing = False
            log.info("PostgreSQL answers again")


class PgWriter:
    """Write transactions: ``await run(work)`` runs ``work(connection)`` inside one transaction
    and commits, or rolls back and raises what ``work`` raised.

    If the caller is cancelled once the transaction has started, it still commits or rolls back
    before the ``CancelledError`` is raised (the ``interface`` convention).
    """

    def __init__(self, engine: AsyncEngine, watch: ServerWatch | None = None) -> None:
        self._engine = engine
        self._watch = watch or ServerWatch()
        self._running: set[asyncio.Future[Any]] = set()

    async def run(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one transaction; see the class."""
        running = asyncio.ensure_future(self._transaction(work))
        self._running.add(running)
        running.add_done_callback(self._running.discard)
        return await finish_even_if_cancelled(running)

    async def close(self) -> None:
        """Wait for the transactions in progress."""
        while self._running:
            await asyncio.wait(list(self._running))

    async def _transaction(self, work: Callable[[Connection], T]) -> T:
        try:
            async with self._engine.begin() as connection:
                result = await connection.run_sync(work)
        except Exception as exc:
            raise self._watch.failed(exc) from exc
        self._watch.answered()
        return result


def translated(exc: Exception) -> BaseException:
    """``StoreUnavailable`` for a driver error that means the server is not there right now
    (SQLAlchemy's wrapper, or its asyncpg adapter's error from a ``Hot`` statement),
    ``StoreFull`` for a server out of disk space; otherwise ``exc`` itself (a constraint, a
    bug)."""
    if isinstance(exc, UNAVAILABLE):
        return unavailable(exc)
    error = exc.orig if isinstance(exc, DBAPIError) else exc
    cause = error.__cause__ if error is not None else None
    if isinstance(exc, asyncpg.exceptions.DiskFullError) or isinstance(
        cause, asyncpg.exceptions.DiskFullError
    ):
        return StoreFull(str(cause if isinstance(cause, BaseException) else exc))
    invalidated = isinstance(exc, DBAPIError) and exc.connection_invalidated
    if invalidated or isinstance(cause, UNAVAILABLE):
        return unavailable(cause if isinstance(cause, BaseException) else exc)
    return exc


def unavailable(exc: BaseException) -> StoreUnavailable:
    """The store's error for a server that cannot be used right now (logged by the
    :class:`ServerWatch` that sees it, once an outage)."""
    return StoreUnavailable(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
