"""The SQLite backend: one file (WAL), a single writer connection and a reader connection, and a
store for each role of :mod:`bot.store.interface` on them.

The process lock and releasing leases at start are details of this backend (one process holds
the file), not part of the protocols.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Self

from bot.store._challenge_sql import SqlChallenges
from bot.store._changes import GameChanges
from bot.store._clocks_sql import SqlClocks
from bot.store._connection import check_sqlite_version, connect_reader
from bot.store._game_store import SqlGames
from bot.store._games import GameLoader
from bot.store._migrations import upgrade_sqlite
from bot.store._outbox_sql import SqlOutbox
from bot.store._pings_sql import SqlTurnPings
from bot.store._players import SqlBotState, SqlPlayers
from bot.store._preflight import ProcessLock, check_database
from bot.store._quarantine_sql import SqlQuarantine
from bot.store._rating_store import SqlRatings
from bot.store._review_sql import SqlReviews
from bot.store._spectator_sql import SqlSpectators
from bot.store._sql import EngineReader
from bot.store._stats_sql import SqlResults
from bot.store._tournament_sql import SqlTournaments
from bot.store._vacation_sql import SqlVacations
from bot.store._writer import SqliteWriter


class SqliteStore:
    """The store on one SQLite file. Open with ``await SqliteStore.open(path)`` or
    ``async with open_store(path)``; each role is an attribute (``store.games``,
    ``store.challenges``, ...), see :class:`~bot.store.interface.Store`."""

    def __init__(
        self, writer: SqliteWriter, reader: EngineReader, lock: ProcessLock | None = None
    ) -> None:
        self._lock = lock
        self._writer = writer
        self._read = reader
        loader = GameLoader(reader)  # shared: what one role wrote, the others trust
        self.players = SqlPlayers(writer, reader)
        self.state = SqlBotState(writer, reader)
        self.challenges = SqlChallenges(writer, reader, loader)
        self.games = SqlGames(writer, reader, loader)
        self.clocks = SqlClocks(writer, reader, loader)
        self.ratings = SqlRatings(writer, reader)
        self.results = SqlResults(reader)
        self.outbox = SqlOutbox(writer, reader)
        self.quarantine = SqlQuarantine(writer, loader)
        self.tournaments = SqlTournaments(writer, reader)
        self.reviews = SqlReviews(writer, reader)
        self.pings = SqlTurnPings(writer)
        self.vacations = SqlVacations(writer, reader)
        self.spectators = SqlSpectators(writer, reader)
        self.changes = GameChanges(reader)
        writer.committed = self.changes.publish
        self._closed = False

    @classmethod
    async def open(cls, path: str | PathLike[str]) -> Self:
        """Open (creating and upgrading its schema as needed) the database file at ``path``.

        Before touching the file it checks that it can be written and was not written by newer
        code, and takes the file for this process alone: raises ``DatabaseReadOnly``,
        ``DatabaseUnusable``, ``SchemaTooNew`` or ``DatabaseInUse``, leaving the file as it was.
        """
        lock = await asyncio.to_thread(_claim, path)
        writer = SqliteWriter()
        try:
            # On a connection of its own, closed before the store's connections open.
            await asyncio.to_thread(upgrade_sqlite, path)
            await writer.open(path)
        except BaseException:
            await writer.close()
            lock.release()
            raise
        store = cls(writer, connect_reader(path), lock)
        try:
            await store.outbox.release_leases()  # see SqlOutbox.release_leases
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Wait for the write in progress, then close the connections. Closing twice is fine."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._read.close()
            await self._writer.close()  # so it is the one that checkpoints and removes the WAL
        finally:
            if self._lock is not None:
                self._lock.release()  # only now: see ProcessLock

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


@asynccontextmanager
async def open_store(path: str | PathLike[str]) -> AsyncIterator[SqliteStore]:
    """``async with open_store(path) as store:`` opens the store and closes it afterwards."""
    store = await SqliteStore.open(path)
    try:
        yield store
    finally:
        await store.close()


def _claim(path: str | PathLike[str]) -> ProcessLock:
    check_sqlite_version()
    check_database(path)
    Path(path).absolute().parent.mkdir(parents=True, exist_ok=True)
    lock = ProcessLock(path)
    lock.acquire()
    return lock
