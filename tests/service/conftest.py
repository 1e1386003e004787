"""Service tests run on a real SQLite file in a temporary folder, with a clock the test moves."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import JarmoService, ServiceConfig
from bot.store import SqliteStore, open_store
from tests.fakes import FakeClock


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock) -> JarmoService:
    config = ServiceConfig(challenge_expiry_seconds=600)
    return JarmoService(store, config=config, clock=clock, rng=random.Random(0))
