"""What the SQL modules need of a database, whichever backend runs them.

The write functions (``_game_sql``, ``_ratings_sql``, ...) run inside a writer's transaction on
a worker thread and see an :class:`Sql`: ``sqlite3.Connection`` is one, and the PostgreSQL
backend hands them a bridge with the same shape. Reads go through a :class:`Reader`
(``aiosqlite.Connection``, or the PostgreSQL pool's reader). SQL is written once, with ``?``,
``?N`` or ``:name`` parameters, in the dialect both backends share.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import asyncpg

T = TypeVar("T")
Params = Sequence[Any] | Mapping[str, Any]


class Cursor(Protocol):
    """The result of one statement."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Sql(Protocol):
    """A connection inside a write transaction (rows index by position and by column name)."""

    def execute(self, sql: str, parameters: Params = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...


class Transactions(Protocol):
    """Runs write transactions: ``await run(work)`` commits what ``work`` did, or nothing."""

    def run(self, work: Callable[[Any], T]) -> Awaitable[T]: ...


class Reader(Protocol):
    """Runs reads outside any write transaction."""

    async def execute_fetchall(self, sql: str, parameters: Params = ..., /) -> Iterable[Any]: ...


# What each backend raises when a unique index refuses a row (their messages name the index or
# its columns).
UNIQUE_VIOLATIONS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.exceptions.UniqueViolationError,
)
