"""The vacation ledger's migration: a database made before it, on either backend, keeps every
row and gains an empty ledger that works at once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.store import open_any
from tests.store.store_helpers import T0
from tests.store.test_store_migrations import (
    ACTION_COLUMNS_AT_18,
    CHALLENGE_COLUMNS_AT_13,
    CHALLENGES_AND_GAMES_AT_12,
    database_at,
    rows_but_versions,
)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_every_row_stays_and_the_ledger_starts_empty(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    target = await database_at(request, db_path, backend, 15, CHALLENGES_AND_GAMES_AT_12)
    before = await rows_but_versions(target)
    async with open_any(target) as store:
        assert await store.vacations.open() == []
        assert [game.id for game in await store.games.active_of_player(5)] == [5]
    after = await rows_but_versions(target)
    # The later migrations widen the challenges (a rating range): the rows stay as they were.
    widened = [row[:CHALLENGE_COLUMNS_AT_13] for row in after.pop("challenges")]
    actions = [row[:ACTION_COLUMNS_AT_18] for row in after.pop("actions")]
    assert widened == before.pop("challenges") and actions == before.pop("actions")
    assert after == before
    async with open_any(target) as store:
        away = await store.vacations.start(5, now=T0, ends_at=T0 + timedelta(days=1))
        assert away is not None and await store.vacations.current(5) == away
