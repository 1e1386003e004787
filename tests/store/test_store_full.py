"""A write that finds the disk full fails with ``StoreFull`` and changes nothing; the player is
told that the bot cannot save right now, and the same write works once there is room again."""

from __future__ import annotations

from collections.abc import Callable

import asyncpg
import pytest
from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from bot.service.errors import Full, as_refusal
from bot.store import SqliteStore, StoreFull
from bot.store._pg_connection import translated
from bot.words import refusal_text
from tests.store.store_helpers import T0, challenge, only_sqlite
from tests.wording import english


def page_limit(pages: int | None) -> Callable[[Connection], object]:
    """Work for the store's writer: cap the file at ``pages`` pages (``None``: its size now),
    as a full disk would."""

    def limit(db: Connection) -> object:
        raw = db.connection.driver_connection
        assert raw is not None
        count = pages or raw.execute("PRAGMA page_count").fetchone()[0]
        return raw.execute(f"PRAGMA max_page_count = {int(count)}").fetchone()

    return limit


@only_sqlite
async def test_a_full_disk_fails_the_write_and_changes_nothing(store: SqliteStore) -> None:
    await store._writer.run(page_limit(None))  # the writer's own connection
    channel, failed = 1000, None
    while failed is None and channel < 2000:  # challenges, until one needs a page more
        channel += 1
        try:
            await store.challenges.create(challenge(channel=channel), now=T0)
        except StoreFull as exc:
            failed = exc
    assert failed is not None, "the database never filled up"
    assert "full" in failed.reason
    assert await store.challenges.pending(channel, now=T0) is None  # the refused one is not stored
    refusal = as_refusal(failed)
    assert isinstance(refusal, Full)
    words = refusal_text(refusal, english())
    assert "cannot save" in words and "nothing was changed" in words

    await store._writer.run(page_limit(1_000_000))  # room again
    posted = await store.challenges.create(challenge(channel=channel), now=T0)
    assert await store.challenges.pending(channel, now=T0) == posted


def test_a_postgresql_server_out_of_disk_space_is_a_full_store() -> None:
    # SQLSTATE 53100, as asyncpg raises it from a Hot statement and as SQLAlchemy wraps it.
    full = asyncpg.exceptions.DiskFullError("could not extend file: No space left on device")
    assert isinstance(translated(full), StoreFull)
    adapted = RuntimeError("disk full")
    adapted.__cause__ = full
    wrapped = DBAPIError("INSERT ...", {}, adapted)
    found = translated(wrapped)
    assert isinstance(found, StoreFull) and "No space left" in found.reason


@pytest.mark.parametrize(
    "error", [RuntimeError("a bug"), asyncpg.exceptions.UniqueViolationError()]
)
def test_other_postgresql_errors_are_not_a_full_store(error: Exception) -> None:
    assert translated(error) is error
