"""Opening connections: the writer's and checkpointer's (plain ``sqlite3``, each on its own
thread, see ``_writer``) and the reader's (aiosqlite)."""

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

from bot.store.errors import StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

# RETURNING (3.35) lets a write return the row it changed without a second statement;
# revision 0004 needs ALTER TABLE ... DROP COLUMN (also 3.35).
MIN_SQLITE = (3, 35, 0)
# How long a statement waits for a lock held by another connection (a backup, an operator's
# sqlite3 shell) before giving up with StoreBusy: well inside Discord's 3 s to answer.
BUSY_TIMEOUT_MS = 2_000


class SqliteThread:
    """A ``sqlite3`` connection used only from its own single worker thread."""

    def __init__(self, name: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._db: sqlite3.Connection | None = None

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
                db.row_factory = sqlite3.Row
                db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
                setup(db)
            except BaseException:
                db.close()
                raise
            self._db = db

        await asyncio.get_running_loop().run_in_executor(self._pool, connect, None)

    async def close(self, before: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Run ``before`` (if given), close the connection (if open), and stop the thread."""
        if self._db is not None:
            if before is not None:
                await self.call(before)
            await self.call(lambda db: db.close())
            self._db = None
        self._pool.shutdown(wait=True)


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


def optimize(db: sqlite3.Connection) -> None:
    """Let SQLite refresh its query-planner statistics (recommended before closing)."""
    try:
        db.execute("PRAGMA optimize")
    except sqlite3.Error as exc:  # only a statistics refresh; closing matters more
        log.debug("PRAGMA optimize failed: %s", exc)


async def connect_reader(path: str | PathLike[str]) -> aiosqlite.Connection:
    """The connection for reads (a reader never waits for the writer in WAL mode)."""
    db = await aiosqlite.connect(Path(path), isolation_level=None)
    try:
        db.row_factory = aiosqlite.Row
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        await db.execute("PRAGMA query_only = ON")  # a read that tries to write is a bug
    except BaseException:
        await db.close()
        raise
    return db
