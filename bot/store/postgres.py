"""The PostgreSQL backend: the same role stores as SQLite's, on SQLAlchemy's asyncio engine over
``asyncpg``, whose database any number of bot processes share.

Each role runs the statements and write functions SQLite's does (see ``_sql``), on a SQLAlchemy
asyncio engine (``_pg_connection``); PostgreSQL decides every race itself: a move's
``UPDATE ... WHERE version = ?`` waits for a concurrent one's row lock and then finds the version
changed, and the outbox's claims skip the rows another process is claiming (``FOR UPDATE SKIP
LOCKED``). Leases run out by time, so a process that dies holding one delays its announcements
by one lease at most.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import unquote, urlsplit

import asyncpg
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.store._challenge_sql import SqlChallenges
from bot.store._changes import PgGameChanges
from bot.store._clocks_sql import SqlClocks
from bot.store._games import GameLoader
from bot.store._migrations import found_version, upgrade
from bot.store._outbox_sql import SqlOutbox
from bot.store._pg_connection import CONNECT_TIMEOUT_S, HELD, PgWriter, ServerWatch, create_engine
from bot.store._pg_games import PgGames
from bot.store._pings_sql import SqlTurnPings
from bot.store._players import SqlBotState, SqlPlayers
from bot.store._quarantine_sql import SqlQuarantine
from bot.store._rating_store import SqlRatings
from bot.store._review_sql import SqlReviews
from bot.store._spectator_sql import SqlSpectators
from bot.store._sql import EngineReader
from bot.store._stats_sql import SqlResults
from bot.store._tournament_sql import SqlTournaments
from bot.store._vacation_sql import SqlVacations
from bot.store.errors import DatabaseUnusable, SchemaTooNew

URL_SCHEMES = ("postgresql", "postgres")
# Taken by whoever migrates, so bots starting together migrate once.
_MIGRATION_LOCK = 0x4A41524D4F  # "JARMO"

T = TypeVar("T")


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` is a ``postgresql://`` (or ``postgres://``) URL."""
    return isinstance(target, str) and urlsplit(target).scheme in URL_SCHEMES


def describe(url: str) -> str:
    """The URL as it may be shown: server and database, without user name or password."""
    parts = urlsplit(url)
    database = parts.path.lstrip("/")
    if not parts.hostname and "host=" in parts.query:  # a unix socket folder
        folder = unquote(parts.query.split("host=", 1)[1].split("&", 1)[0])
        return f"postgresql:///{database}?host={folder}"
    port = f":{parts.port}" if parts.port else ""
    return f"postgresql://{parts.hostname or 'localhost'}{port}/{database}"


class PostgresStore:
    """The store on a PostgreSQL database. Open with ``await PostgresStore.open(url)``; each role
    is an attribute (``store.games``, ...), see :class:`~bot.store.interface.Store`. ``url``
    is where ``changes`` listens, on a connection of its own."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self._engine = engine
        watch = ServerWatch()
        self._writer = PgWriter(engine, watch)
        autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._read = reader = EngineReader(autocommit, watch.failed, HELD, watch.answered)
        loader = GameLoader(reader)
        self.players = SqlPlayers(self._writer, reader)
        self.state = SqlBotState(self._writer, reader)
        self.challenges = SqlChallenges(self._writer, reader, loader)
        self.games = PgGames(self._writer, reader, loader)
        self.clocks = SqlClocks(self._writer, reader, loader)
        self.ratings = SqlRatings(self._writer, reader)
        self.results = SqlResults(reader)
        self.outbox = SqlOutbox(self._writer, reader)
        self.quarantine = SqlQuarantine(self._writer, loader)
        self.tournaments = SqlTournaments(self._writer, reader)
        self.reviews = SqlReviews(self._writer, reader)
        self.pings = SqlTurnPings(self._writer)
        self.vacations = SqlVacations(self._writer, reader)
        self.spectators = SqlSpectators(self._writer, reader)
        self.changes = PgGameChanges(reader, lambda: connect_to_listen(url))
        self._closed = False

    @classmethod
    async def open(cls, url: str) -> Self:
        """Connect to ``url`` and bring its schema up to date.

        Raises ``DatabaseUnusable`` (naming the server and database, never the password) when
        the server cannot be reached or refuses us, and ``SchemaTooNew`` for a database written
        by newer code.
        """
        await migrate_database(url)
        return cls(create_engine(url), url)

    async def close(self) -> None:
        """Wait for the writes in progress, then close the pool. Closing twice is fine."""
        if self._closed:
            return
        self._closed = True
        await self.changes.stop()
        await self._writer.close()
        await self._read.close()
        await self._engine.dispose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


@asynccontextmanager
async def open_postgres(url: str) -> AsyncIterator[PostgresStore]:
    """``async with open_postgres(url) as store:`` opens the store and closes it afterwards."""
    store = await PostgresStore.open(url)
    try:
        yield store
    finally:
        await store.close()


async def connect(url: str) -> Any:
    """One connection to ``url``; ``DatabaseUnusable`` (one clear line) when there is none."""
    try:
        return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
        raise _unusable(url, exc) from exc
    except ValueError as exc:  # asyncpg's reading of a malformed URL
        raise DatabaseUnusable(describe_safely(url), f"the URL is not valid ({exc})") from exc


async def connect_to_listen(url: str) -> Any:
    """A connection to ``url`` that only listens for notifications (no statement limit)."""
    return await asyncpg.connect(
        url, timeout=CONNECT_TIMEOUT_S, server_settings={"application_name": "jarmo-bot"}
    )


async def check_server(url: str) -> int:
    """Check, without changing anything, that the database can be used by this code: returns
    its schema version. Raises ``DatabaseUnusable`` or ``SchemaTooNew``."""

    async def read(connection: AsyncConnection) -> int:
        return await connection.run_sync(found_version)

    return await _on_own_connection(url, read)


def server_problem(url: str, timeout: float = 10.0) -> str | None:
    """For ``jarmo-bot health``: why the database at ``url`` cannot be used by this code (one
    line, without the password), or None when it can. Writes nothing."""
    try:
        asyncio.run(asyncio.wait_for(check_server(url), timeout))
    except (DatabaseUnusable, SchemaTooNew) as exc:
        return f"unhealthy: {exc}"
    except TimeoutError:
        return f"unhealthy: {describe_safely(url)} did not answer within {timeout:.0f} s"
    return None


async def migrate_database(url: str, *, target: int | None = None) -> int:
    """Bring the database's schema up to version ``target`` (default: the latest); returns the
    version reached. Raises ``SchemaTooNew`` for a database written by newer code (see
    ``_migrations``)."""

    async def migrate(connection: AsyncConnection) -> int:
        # Held until the end of the transaction: bots starting together wait here, then find
        # the work done.
        await connection.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
        return await connection.run_sync(lambda sync: upgrade(sync, target=target))

    return await _on_own_connection(url, migrate)


async def _on_own_connection(url: str, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
    """``work`` in one transaction on a connection of its own (not the store's pool), which
    commits if ``work`` returns and is closed before this returns."""
    engine = create_async_engine(
        "postgresql+asyncpg://", async_creator=lambda: connect(url), poolclass=NullPool
    )
    try:
        async with engine.begin() as connection:
            return await work(connection)
    finally:
        await engine.dispose()


def describe_safely(url: str) -> str:
    """:func:`describe`, or a placeholder for a URL too broken to read."""
    try:
        return describe(url)
    except ValueError:
        return "the PostgreSQL database (unreadable URL)"


def _unusable(url: str, exc: BaseException) -> DatabaseUnusable:
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        reason = "it does not exist (create it first, e.g. with createdb)"
    elif isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        reason = "the server refused the user name or password"
    elif isinstance(exc, OSError | TimeoutError | asyncio.TimeoutError):
        reason = f"the server cannot be reached ({type(exc).__name__}: {exc})"
    else:
        reason = f"{type(exc).__name__}: {exc}"
    reason = " ".join(reason.split())  # one line, whatever the driver's message looked like
    password = urlsplit(url).password
    if password:
        reason = reason.replace(password, "<password>")
    return DatabaseUnusable(describe_safely(url), reason)
