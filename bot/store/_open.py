"""Opening the store a configuration names: a ``postgresql://`` URL, or an SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from os import PathLike

from bot.store.interface import Store
from bot.store.postgres import PostgresStore, is_postgres_url
from bot.store.sqlite import SqliteStore


async def open_database(target: str | PathLike[str]) -> Store:
    """Open the store at ``target``: PostgreSQL for a ``postgresql://`` URL, otherwise the
    SQLite file at that path (see each backend's ``open`` for what it raises)."""
    if isinstance(target, str) and is_postgres_url(target):
        return await PostgresStore.open(target)
    return await SqliteStore.open(target)


@asynccontextmanager
async def open_any(target: str | PathLike[str]) -> AsyncIterator[Store]:
    """``async with open_any(target) as store:`` opens the store and closes it afterwards."""
    store = await open_database(target)
    try:
        yield store
    finally:
        await store.close()
