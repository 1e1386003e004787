"""Fixtures of the tournament service tests: a real SQLite store, a host that records what the
front end is asked to do, and a service with that host attached."""

from __future__ import annotations

import pytest

from bot.store import open_store
from tests.tournament.event_service import RecordingHost, make_service


@pytest.fixture
async def store(tmp_path):
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def host() -> RecordingHost:
    return RecordingHost()


@pytest.fixture
def service(store, clock, host):
    service = make_service(store, clock)
    service.tournaments.attach(host)
    return service
