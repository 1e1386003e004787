"""Fixtures for the store tests: a fresh database file per test, and a match factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import GameRecord, MatchRecord, Store, open_any
from tests.postgres import PostgresServer
from tests.store.store_helpers import ALICE, CHANNEL, T0, StartMatch, challenge, new_game


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's database lives."""
    return tmp_path / "jarmo.sqlite3"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, db_path: Path) -> Path | str:
    """Where the test's fresh database is, once per backend (each test id names its backend):
    the SQLite file, or the URL of a fresh PostgreSQL database. A test about one backend's own
    machinery narrows it with ``@only_sqlite``; one marked ``restarts_postgres`` gets its
    database on a server it may restart."""
    if request.param == "sqlite":
        return db_path
    restarts = request.node.get_closest_marker("restarts_postgres") is not None
    server: PostgresServer = request.getfixturevalue(
        "restartable_postgres" if restarts else "postgres"
    )
    return server.fresh_database()


@pytest.fixture
async def store(store_target: Path | str) -> AsyncIterator[Any]:
    """An open store on the test's fresh database: the contract tests written against the
    protocols run on every backend ``store_target`` lists."""
    async with open_any(store_target) as opened:
        yield opened


@pytest.fixture
def start_match(store: Store) -> StartMatch:
    """``await start_match(channel=..., game_count=..., max_plies=...)``: ALICE (White in game 0)
    against BOB, accepted at ``T0``."""

    async def start(
        *, channel: int = CHANNEL, game_count: int = 1, max_plies: int = 200
    ) -> tuple[MatchRecord, GameRecord]:
        posted = await store.challenges.create(
            challenge(channel=channel, game_count=game_count, max_plies=max_plies), now=T0
        )
        return await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(max_plies), now=T0
        )

    return start
