"""SQLite's connections: the writer's and the checkpointer's, each a ``sqlite3`` connection used
only from its own thread and wrapped in a SQLAlchemy ``Connection`` there (see ``_writer`` for
why), and the reader's, an ``aiosqlite`` connection under SQLAlchemy's asyncio engine."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from os import PathLike
from pathlib import Path
from typing import TypeVar

import aiosqlite
from sqlalchemy import Connection, create_engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, StaticPool

from bot.store._sql import EngineReader
from bot.store.errors import StoreError, StoreFull

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[Connection], T]

# RETURNING (3.35) lets a write return the row it changed without a second statement;
# revision 0004 needs ALTER TABLE ... DROP COLUMN (also 3.35).
MIN_SQLITE = (3, 35, 0)
# How long a statement waits for a lock held by another connection (a backup, an operator's
# sqlite3 shell) before giving up with StoreBusy: well inside Discord's 3 s to answer.
BUSY_TIMEOUT_MS = 2_000


class SqliteThread:
    """A ``sqlite3`` connection, as a SQLAlchemy ``Connection``, used only from its own single
    worker thread."""

    def __init__(self, name: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._db: Connection | None = None

    async def call(self, work: Work[T]) -> T:
        """Run ``work(connection)`` on the connection's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._run, work)

    def _run(self, work: Work[T]) -> T:
        assert self._db is not None
        return work(self._db)

    async def open(
        self, path: str | PathLike[str], setup: Callable[[sqlite3.Connection], None]
    ) -> None:
        """Connect on the worker thread and run ``setup`` there."""

        def connect(_: object) -> None:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves rather than let sqlite3 guess.
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            try:
                db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
                setup(db)
            except BaseException:
                db.close()
                raise
            # The engine's only connection is this one, on this thread: SQLAlchemy compiles and
            # runs the statements, the transactions stay ours (``_writer``).
            engine = create_engine("sqlite://", creator=lambda: db, poolclass=StaticPool)
            self._db = engine.connect()

        await asyncio.get_running_loop().run_in_executor(self._pool, connect, None)

    async def close(self, before: Callable[[Connection], None] | None = None) -> None:
        """Run ``before`` (if given), close the connection (if open), and stop the thread."""
        if self._db is not None:
            if before is not None:
                await self.call(before)
            await self.call(_close)
            self._db = None
        self._pool.shutdown(wait=True)


def _close(db: Connection) -> None:
    raw = db.connection.driver_connection
    db.close()
    db.engine.dispose()
    if raw is not None:
        raw.close()


def driver(db: Connection) -> sqlite3.Connection:
    """The ``sqlite3`` connection under ``db``, for what SQLite says in PRAGMAs and BEGIN."""
    raw = db.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)
    return raw


def check_sqlite_version() -> None:
    """Raise ``StoreError`` if this Python's SQLite is too old for the store."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old, need 3.35 or newer")


def setup_writer(db: sqlite3.Connection) -> None:
    """Configure the writing connection (the schema is already up to date: see ``sqlite``)."""
    if db.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
        raise StoreError("the database cannot use WAL journaling (an in-memory database?)")
    # In WAL mode NORMAL only fsyncs at checkpoints: a committed transaction survives a crash of
    # the process (even SIGKILL); only a power cut or OS crash can lose the last few commits.
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA wal_autocheckpoint = 0")  # the SqliteWriter checkpoints in the background


def optimize(db: Connection) -> None:
    """Let SQLite refresh its query-planner statistics (recommended before closing)."""
    try:
        driver(db).execute("PRAGMA optimize")
    except sqlite3.Error as exc:  # only a statistics refresh; closing matters more
        log.debug("PRAGMA optimize failed: %s", exc)


def reader_engine(path: str | PathLike[str]) -> AsyncEngine:
    """The engine for reads, on one ``aiosqlite`` connection (a reader never waits for the
    writer in WAL mode): each read is one statement in autocommit."""

    async def connect() -> aiosqlite.Connection:
        db = await aiosqlite.connect(Path(path), isolation_level=None)
        db.row_factory = sqlite3.Row  # by name, for Hot statements (SQLAlchemy reads either)
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute("PRAGMA query_only = ON")  # a read that tries to write is a bug
        except BaseException:
            await db.close()
            raise
        return db

    # The engine's own isolation level, set once per connection: per use (execution_options)
    # it would cost a PRAGMA on every read.
    return create_async_engine(
        "sqlite+aiosqlite://",
        async_creator=connect,
        poolclass=AsyncAdaptedQueuePool,
        pool_size=1,
        isolation_level="AUTOCOMMIT",
    )


def connect_reader(path: str | PathLike[str]) -> EngineReader:
    """The store's reads of the file at ``path`` (connecting when first used)."""
    return EngineReader(reader_engine(path), driver_error)


def driver_error(exc: BaseException) -> BaseException:
    """The ``sqlite3`` error SQLAlchemy wrapped, so that callers of the store see SQLite's own
    errors (``sqlite3.Error``), as they always did; ``StoreFull`` for a database that could not
    grow; any other exception as it is."""
    error = exc.orig if isinstance(exc, DBAPIError) and isinstance(exc.orig, sqlite3.Error) else exc
    if isinstance(error, sqlite3.Error) and _code(error) == sqlite3.SQLITE_FULL:
        full = StoreFull(str(error))
        full.__cause__ = error
        return full
    return error


def _code(error: sqlite3.Error) -> int:
    """SQLite's primary result code of ``error`` (0 when the driver gave none)."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF
