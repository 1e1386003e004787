"""Counting the SQL statements a real SQLite store runs: the one place that reaches into the
store's connections (its writer's thread and its reader), so a change of backend is adapted
here only.

Transaction control (``BEGIN``, ``COMMIT``, ``ROLLBACK``) is not counted: it is the same for
every write, and what a budget is about is the work each write and read does."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import Connection

from bot.store import SqliteStore
from bot.store._connection import driver

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


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
