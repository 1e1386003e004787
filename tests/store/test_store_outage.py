"""A PostgreSQL server that does not answer is logged once per outage: a warning when calls
start failing and an info line when one goes through again, not a line for every call (every
keystroke of a move's autocomplete is one)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.store import StoreUnavailable
from bot.store._connection import driver_error, reader_engine
from bot.store._pg_connection import ServerWatch, create_engine
from bot.store._sql import EngineReader
from bot.store.postgres import PostgresStore

NOBODY_LISTENS = "postgresql://jarmo@127.0.0.1:9/jarmo"  # the discard port: refused at once


def watch_log(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records]


def test_an_outage_is_logged_when_it_begins_and_when_it_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    watch = ServerWatch()
    caplog.set_level(logging.DEBUG, logger="bot.store._pg_connection")
    watch.answered()  # all is well: nothing to say
    for _ in range(5):
        error = watch.failed(ConnectionRefusedError(111, "Connection refused"))
        assert isinstance(error, StoreUnavailable)
    watch.answered()
    watch.answered()
    assert isinstance(watch.failed(OSError("Network is unreachable")), StoreUnavailable)
    assert watch_log(caplog) == [
        (
            logging.WARNING,
            "PostgreSQL unavailable: ConnectionRefusedError: [Errno 111] Connection refused",
        ),
        (logging.INFO, "PostgreSQL answers again"),
        (logging.WARNING, "PostgreSQL unavailable: OSError: Network is unreachable"),
    ]


def test_an_error_that_is_not_an_outage_is_not_logged_as_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    watch = ServerWatch()
    caplog.set_level(logging.DEBUG, logger="bot.store._pg_connection")
    bug = RuntimeError("a bug")
    assert watch.failed(bug) is bug
    assert watch_log(caplog) == []


async def test_reads_from_a_server_that_is_not_there_warn_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = PostgresStore(create_engine(NOBODY_LISTENS), NOBODY_LISTENS)
    caplog.set_level(logging.DEBUG, logger="bot.store")
    try:
        for channel in range(4):  # four keystrokes' reads
            with pytest.raises(StoreUnavailable):
                await store.games.active(channel)
    finally:
        await store.close()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage().split(":")[0] for r in warnings] == ["PostgreSQL unavailable"]
    assert warnings[0].exc_info is None


async def test_the_reader_tells_of_each_read_that_went_through(tmp_path: Path) -> None:
    answered: list[bool] = []
    reader = EngineReader(
        reader_engine(tmp_path / "any.sqlite3"), driver_error, 1, lambda: answered.append(True)
    )
    try:
        assert [dict(row) for row in await reader.rows(text("SELECT 1 AS one"))] == [{"one": 1}]
        with pytest.raises(sqlite3.OperationalError):
            await reader.rows(text("SELECT * FROM no_such_table"))
    finally:
        await reader.close()
    assert answered == [True]
