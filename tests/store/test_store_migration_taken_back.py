"""A database at 0017 gains the table of actions taken back, and keeps every row."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import open_any
from tests.store.test_store_migrations import (
    ACTION_COLUMNS_AT_18,
    CHALLENGES_AND_GAMES_AT_12,
    database_at,
    rows_but_versions,
)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_every_row_stays_and_no_game_has_a_move_taken_back(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    target = await database_at(request, db_path, backend, 17, CHALLENGES_AND_GAMES_AT_12)
    before = await rows_but_versions(target)
    async with open_any(target) as store:
        assert await store.games.taken_back(4) == []
        assert [action.move for action in await store.games.actions(4)] == ["A1-C2"]
    after = await rows_but_versions(target)
    # 0019 widens the actions (the clock each found): the rows stay as they were.
    actions = [row[:ACTION_COLUMNS_AT_18] for row in after.pop("actions")]
    assert actions == before.pop("actions") and len(actions) == 1
    assert after == before  # and no row taken back (an empty table is not listed)
    assert len(after["games"]) == 2
