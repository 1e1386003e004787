"""The single writer: serialised write transactions, batched per thread hop, and background
WAL checkpoints.

Why it looks like this (all measured on the project's 2-core machines):

* One connection with an ``asyncio.Lock``, not several connections racing for SQLite's write
  lock: racing connections made some transactions wait seconds in the busy handler.
* A ``sqlite3`` connection on its own thread (wrapped in a SQLAlchemy ``Connection``, which
  only compiles and runs statements), with each transaction one function run there: one
  thread hop per transaction instead of one per statement (as aiosqlite did) roughly doubled the
  commits per second.
* Whoever holds the lock runs *every* transaction queued so far in that one hop, each still
  its own ``BEGIN IMMEDIATE`` ... ``COMMIT`` with its own outcome. With 8 tasks writing at once
  this cut the thread handoffs per commit, which under CPU contention were what set the p99.
* The writer never checkpoints the WAL itself (``wal_autocheckpoint=0``); every
  ``CHECKPOINT_EVERY`` commits a PASSIVE checkpoint runs on a separate connection and thread
  while writes go on. Inline checkpoints stalled all queued writers for ~15 ms each time.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from os import PathLike
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from bot.store._changes import collect_changes
from bot.store._connection import (
    BUSY_TIMEOUT_MS,
    SqliteThread,
    Work,
    driver,
    driver_error,
    optimize,
    setup_writer,
)
from bot.store.errors import StoreBusy

log = logging.getLogger(__name__)

T = TypeVar("T")
CHECKPOINT_EVERY = 500  # commits; keeps the WAL to a few MB
_Job = tuple[Work[Any], "asyncio.Future[Any]"]
GameVersion = tuple[int, int]  # a game's id and its version after a change


class SqliteWriter:
    """The single writing connection; ``await run(work)`` is one write transaction."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self._thread = SqliteThread("jarmo-store-writer")
        self._checkpointer = SqliteThread("jarmo-store-checkpoint")
        self._queued: list[_Job] = []
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self.checkpoints = 0  # completed background checkpoints, for tests and diagnostics
        # Told, once committed, of every change of a game's version (see ``_changes``).
        self.committed: Callable[[list[GameVersion]], None] | None = None
        self._changed: list[GameVersion] = []  # by the transaction running: writer thread only

    async def open(self, path: str | PathLike[str]) -> None:
        """Connect, switch the file to WAL, and connect the checkpointer."""
        await self._thread.open(path, setup_writer)
        await self._thread.call(lambda db: collect_changes(db, self._changed))
        await self._checkpointer.open(path, lambda db: None)

    async def run(self, work: Work[T]) -> T:
        """``work(connection)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``; on any exception
        everything it did is rolled back and the exception is raised here.

        If the caller is cancelled once the transaction has started, it still commits or rolls
        back before the ``CancelledError`` is raised.
        """
        job: _Job = (work, asyncio.get_running_loop().create_future())
        self._queued.append(job)
        try:
            async with self.lock:
                if not job[1].done():  # not run by the previous lock holder's batch
                    await self._run_queued()
        except asyncio.CancelledError:
            if job in self._queued:  # never started: drop it
                self._queued.remove(job)
            else:
                await _settle(job[1])
                _ = job[1].cancelled() or job[1].exception()  # mark as retrieved
            raise
        result: T = job[1].result()
        return result

    async def _run_queued(self) -> None:
        batch, self._queued = self._queued, []
        works = [work for work, _ in batch]
        changed = self._changed
        running = asyncio.ensure_future(
            self._thread.call(lambda db: _transactions(db, works, changed))
        )
        try:
            outcomes, committed = await asyncio.shield(running)
        except asyncio.CancelledError:
            # A thread cannot be interrupted: let the batch finish and hand out its results
            # (ours included) while still holding the lock, so nobody sees it half done.
            await _settle(running)
            _deliver(batch, running.result()[0])
            self._tell(running.result()[1])
            raise
        _deliver(batch, outcomes)
        self._tell(committed)
        self._count(len(batch))

    def _tell(self, committed: list[GameVersion]) -> None:
        if committed and self.committed is not None:
            self.committed(committed)

    def _count(self, commits: int) -> None:
        before, self._commits = self._commits, self._commits + commits
        due = before // CHECKPOINT_EVERY != self._commits // CHECKPOINT_EVERY
        if due and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        try:
            await self._checkpointer.call(
                lambda db: driver(db).execute("PRAGMA wal_checkpoint(PASSIVE)")
            )
            self.checkpoints += 1
        except sqlite3.Error as exc:  # busy or the like: the next one will catch up
            log.warning("WAL checkpoint failed: %s", exc)

    async def close(self) -> None:
        """Wait for the transactions and checkpoint in progress, then close."""
        async with self.lock:
            if self._checkpoint is not None:
                await self._checkpoint
            await self._checkpointer.close()
            await self._thread.close(before=optimize)


async def _settle(running: asyncio.Future[Any]) -> None:
    """Wait until ``running`` is done, even if we are cancelled (again) meanwhile."""
    while not running.done():
        try:
            await asyncio.wait([running])
        except asyncio.CancelledError:  # the caller re-raises once the work has settled
            continue


def _deliver(batch: list[_Job], outcomes: list[tuple[bool, Any]]) -> None:
    for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def _transactions(
    db: Connection, works: list[Work[Any]], changed: list[GameVersion]
) -> tuple[list[tuple[bool, Any]], list[GameVersion]]:
    """Run each work in its own transaction; (True, result) or (False, exception) for each,
    and the changes of games' versions that committed (``changed`` collects each
    transaction's, see ``_changes``).

    Once one of them found the database locked by someone else (after waiting the busy
    timeout), the rest of the batch fails at once instead of each waiting as long again.
    """
    outcomes: list[tuple[bool, Any]] = []
    committed: list[GameVersion] = []
    busy: StoreBusy | None = None
    for work in works:
        if busy is not None:
            outcomes.append((False, StoreBusy(busy.waited_seconds)))
            continue
        changed.clear()
        try:
            outcomes.append((True, _transaction(db, work)))
            committed.extend(changed)
        except StoreBusy as exc:
            busy = exc
            outcomes.append((False, exc))
        except Exception as exc:  # handed to that work's caller, the others go on
            outcomes.append((False, driver_error(exc)))
    changed.clear()
    return outcomes, committed


def _transaction(db: Connection, work: Work[T]) -> T:
    # SQLAlchemy's pysqlite dialect sends no BEGIN of its own (the driver is in autocommit
    # mode), so the transaction is begun here, IMMEDIATE: it takes the write lock at once.
    raw = driver(db)
    try:
        raw.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise StoreBusy(BUSY_TIMEOUT_MS / 1000) from exc
        raise
    try:
        result = work(db)
        db.commit()  # the driver's commit(), which ends our BEGIN
        if raw.in_transaction:  # work that ran no statement: SQLAlchemy had nothing to end
            raw.commit()
    except BaseException as exc:
        db.rollback()
        if raw.in_transaction:  # a no-op if the failure was in COMMIT and SQLite rolled back
            raw.rollback()
        if is_busy(exc):
            raise StoreBusy(BUSY_TIMEOUT_MS / 1000) from exc
        raise
    return result


def is_busy(exc: BaseException) -> bool:
    """Whether SQLite gave up waiting for a lock another connection holds."""
    # SQLAlchemy wraps the driver's error.
    error = exc.orig if isinstance(exc, DBAPIError) else exc
    busy = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(error, sqlite3.Error) and getattr(error, "sqlite_errorcode", None) in busy
