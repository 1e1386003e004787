"""Stored reviews: kept once per game, the first one stays, on every backend."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from bot.store import Store
from tests.store.store_helpers import T0, StartMatch


async def test_a_game_without_a_review_has_none(store: Store, start_match: StartMatch) -> None:
    _, game = await start_match()
    assert await store.reviews.get(game.id) is None


async def test_a_kept_review_reads_back(store: Store, start_match: StartMatch) -> None:
    _, game = await start_match()
    assert await store.reviews.keep(game.id, '{"format": 1}', now=T0) == '{"format": 1}'
    assert await store.reviews.get(game.id) == '{"format": 1}'


async def test_the_first_review_stays_when_two_are_kept_at_once(
    store: Store, start_match: StartMatch
) -> None:
    _, game = await start_match()
    kept = await asyncio.gather(
        store.reviews.keep(game.id, "first", now=T0),
        store.reviews.keep(game.id, "second", now=T0),
    )
    stored = await store.reviews.get(game.id)
    assert stored in ("first", "second")
    assert list(kept) == [stored, stored]


async def test_a_naive_time_is_refused_and_nothing_is_kept(
    store: Store, start_match: StartMatch
) -> None:
    _, game = await start_match()
    with pytest.raises(ValueError, match="timezone"):
        await store.reviews.keep(game.id, "x", now=datetime(2026, 1, 1))
    assert await store.reviews.get(game.id) is None


async def test_setting_a_game_aside_drops_its_review(store: Store, start_match: StartMatch) -> None:
    _, game = await start_match()
    await store.reviews.keep(game.id, "of moves about to go", now=T0)
    await store.quarantine.set_aside(game.id, reason="a test", now=T0)
    assert await store.reviews.get(game.id) is None
