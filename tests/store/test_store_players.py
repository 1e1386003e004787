"""Players and per-guild settings."""

from __future__ import annotations

import pytest

from bot.store import NotFound, PlayerRecord, SqliteStore
from tests.store.store_helpers import ALICE, BOB, GUILD


async def test_an_unknown_player_is_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound) as caught:
        await store.players.get(GUILD, ALICE)
    assert caught.value.kind == "player"


async def test_a_new_player_is_just_a_name(store: SqliteStore) -> None:
    await store.players.upsert(GUILD, ALICE, "Alice")
    assert await store.players.get(GUILD, ALICE) == PlayerRecord(GUILD, ALICE, "Alice")


async def test_upsert_renames_in_one_guild_only(store: SqliteStore) -> None:
    await store.players.upsert(GUILD, ALICE, "Alice")
    await store.players.upsert(GUILD + 1, ALICE, "Al")
    await store.players.upsert(GUILD, BOB, "Bob")
    await store.players.upsert(GUILD, ALICE, "Alice ♛")
    assert await store.players.get(GUILD, ALICE) == PlayerRecord(GUILD, ALICE, "Alice ♛")
    assert (await store.players.get(GUILD + 1, ALICE)).display_name == "Al"
    assert (await store.players.get(GUILD, BOB)).display_name == "Bob"
    with pytest.raises(NotFound):
        await store.players.get(GUILD + 1, BOB)
