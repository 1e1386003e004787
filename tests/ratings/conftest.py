"""Rating tests run on a real SQLite file in a temporary folder; the clock ticks a second a read."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import JarmoService, ServiceConfig
from bot.store import SqliteStore, open_store
from tests.fakes import FakeClock
from tests.ratings.ratings_helpers import T0


@pytest.fixture
def clock() -> FakeClock:
    """A clock that moves a second on every reading, so every game ends at its own moment."""
    return FakeClock(T0, tick_seconds=1)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "jarmo.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(db_path) as opened:
        yield opened


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock) -> JarmoService:
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))
