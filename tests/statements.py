"""Counting the SQL statements a real store runs: the one place that reaches into the
store's connections (SQLite's writer thread and reader, PostgreSQL's pool), so a change of
backend is adapted here only.

Transaction control (``BEGIN``, ``COMMIT``, ``ROLLBACK``) is not counted: it is the same for
every write, and what a budget is about is the work each write and read does."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import Connection, event

from bot.store import PostgresStore, SqliteStore
from bot.store._connection import driver

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
# How a write transaction on PostgreSQL is counted: SQLAlchemy runs the statements inside it
# prepared, which asyncpg's query log does not show, but the log shows its BEGIN.
WRITE_TRANSACTION = "a write transaction"


class StatementLog:
    """The statements seen so far, from any connection of the store (threads append)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: list[str] = []

    def __call__(self, statement: str) -> None:
        # Statements run by a trigger come as comments ("-- TRIGGER ..."): part of their
        # statement, not statements of their own.
        text = statement.strip()
        if text.startswith("--") or text.upper().startswith(TRANSACTION_CONTROL):
            return
        with self._lock:
            self._seen.append(text)

    @property
    def statements(self) -> list[str]:
        """What ran, in order (one line each)."""
        with self._lock:
            return [" ".join(s.split()) for s in self._seen]

    def clear(self) -> None:
        """Forget what was seen: the next count starts from zero."""
        with self._lock:
            self._seen.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._seen)

    def __str__(self) -> str:
        return "\n".join(self.statements)


@asynccontextmanager
async def traced(store: SqliteStore) -> AsyncIterator[StatementLog]:
    """Count every statement ``store`` runs on its writer and reader while the block runs."""
    seen = StatementLog()
    await _set_trace(store, seen)
    try:
        yield seen
    finally:
        await _set_trace(store, None)


async def _set_trace(store: SqliteStore, callback: StatementLog | None) -> None:
    def on_writer(db: Connection) -> None:
        driver(db).set_trace_callback(callback)

    await store._writer._thread.call(on_writer)
    await store._read.on_each_driver(lambda reader: reader.set_trace_callback(callback))


@asynccontextmanager
async def traced_postgres(store: PostgresStore) -> AsyncIterator[StatementLog]:
    """Count what ``store`` sends PostgreSQL while the block runs: each statement on the
    connections its reader holds (reads, and writes that are one statement) and each write
    transaction (as one ``WRITE_TRANSACTION``, whatever it runs)."""
    seen = StatementLog()
    traced: list[Any] = []  # the asyncpg connections given the query logger

    def log(query: Any) -> None:
        text = query.query.strip()
        seen(WRITE_TRANSACTION if text.upper().startswith("BEGIN") else text)

    def follow(connection: Any) -> None:
        connection.add_query_logger(log)
        traced.append(connection)

    async def follow_held(connection: Any) -> None:
        follow(connection)

    def on_checkout(dbapi_connection: Any, *_: object) -> None:
        follow(dbapi_connection.driver_connection)

    pool = store._engine.sync_engine
    await store._read.on_each_driver(follow_held)
    event.listen(pool, "checkout", on_checkout)
    try:
        yield seen
    finally:
        event.remove(pool, "checkout", on_checkout)
        for connection in traced:
            connection.remove_query_logger(log)
