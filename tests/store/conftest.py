"""Fixtures for the store tests: a fresh database file per test, and a match factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from store_helpers import ALICE, CHANNEL, T0, StartMatch, challenge, new_game

from bot.store import GameRecord, MatchRecord, SqliteStore, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's database lives."""
    return tmp_path / "jarmo.sqlite3"


@pytest.fixture(params=["sqlite"])
async def store(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[SqliteStore]:
    """An open store on a fresh database, once per backend (each test id names its backend):
    the contract tests written against the protocols run on every backend added here."""
    assert request.param == "sqlite"
    async with open_store(db_path) as opened:
        yield opened


@pytest.fixture
def start_match(store: SqliteStore) -> StartMatch:
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
