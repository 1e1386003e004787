"""Leaderboard order, tie-breaks, ranks and pages, on rows written straight into the store."""

from __future__ import annotations

import pytest

from bot.service import JarmoService
from bot.service.errors import NoStats
from bot.service.stats import PAGE_SIZE
from bot.store import RatingRecord, RatingTables, SqliteStore
from bot.words import leaderboard_text
from tests.ratings.ratings_helpers import GUILD, rating_row
from tests.wording import refused, voice


async def seed(store: SqliteStore, rows: list[RatingRecord]) -> None:
    await store.ratings.replace(RatingTables(rows, []), expected_games=0)


async def test_order_is_rating_then_games_then_user_id(store: SqliteStore) -> None:
    await seed(
        store,
        [
            rating_row(5, 1100.0, 3),
            rating_row(4, 1200.0, 1),
            rating_row(3, 1100.0, 7),  # same rating as 5, more games: ahead
            rating_row(2, 1100.0, 3),  # same rating and games as 5, lower id: ahead
            rating_row(9, 1300.0, 2, guild=GUILD + 1),  # another server: not here
        ],
    )
    ranked = await store.ratings.leaderboard(GUILD, "classic", offset=0, limit=10)
    assert [(r.rank, r.rating.user_id) for r in ranked] == [(1, 4), (2, 3), (3, 2), (4, 5)]
    for expected in ranked:
        assert (
            await store.ratings.player_rank(GUILD, "classic", expected.rating.user_id) == expected
        )
    assert await store.ratings.player_rank(GUILD, "classic", 9) is None
    assert await store.ratings.player_rank(GUILD, "ludos", 4) is None
    assert await store.ratings.leaderboard_size(GUILD, "classic") == 4


async def test_pages_and_the_viewers_row_off_the_page(
    service: JarmoService, store: SqliteStore
) -> None:
    await seed(store, [rating_row(user, 2000.0 - user, 1) for user in range(1, 24)])  # 23 rows
    first = await service.stats.leaderboard(GUILD, "classic", viewer_id=23)
    assert (first.page, first.pages, first.total) == (0, 3, 23)
    assert [row.rank for row in first.rows] == list(range(1, PAGE_SIZE + 1))
    assert first.viewer_row is not None and first.viewer_row.rank == 23
    assert "You: `#23`" in leaderboard_text(first, voice())

    last = await service.stats.leaderboard(GUILD, "classic", page=2, viewer_id=23)
    assert [row.user_id for row in last.rows] == [21, 22, 23]
    assert last.viewer_row is None  # on the page already

    beyond = await service.stats.leaderboard(GUILD, "classic", page=99, viewer_id=1)
    assert beyond.page == 2

    stranger = await service.stats.leaderboard(GUILD, "classic", viewer_id=777)
    assert stranger.viewer_row is None
    assert "You have no classic rating yet" in leaderboard_text(stranger, voice())


async def test_an_empty_server_gets_a_friendly_message(service: JarmoService) -> None:
    with refused(NoStats, "Nobody on this server has a ludos rating yet"):
        await service.stats.leaderboard(GUILD, "ludos", viewer_id=1)


async def test_negative_offsets_are_refused(store: SqliteStore) -> None:
    with pytest.raises(ValueError):
        await store.ratings.leaderboard(GUILD, "classic", offset=-1, limit=10)
