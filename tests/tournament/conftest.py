"""Fixtures of the tournament service tests: a real SQLite store, a host that records what the
front end is asked to do, and a service with that host attached."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import JarmoService
from bot.store import SqliteStore, open_store
from tests.fakes import FakeClock
from tests.tournament.event_service import RecordingHost, make_service


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def host() -> RecordingHost:
    return RecordingHost()


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock, host: RecordingHost) -> JarmoService:
    service = make_service(store, clock)
    service.tournaments.attach(host)
    return service
