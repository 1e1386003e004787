"""Players and per-guild settings."""

from __future__ import annotations

import pytest
from store_helpers import ALICE, BOB, GUILD

from bot.store import GuildSettings, NotFound, PlayerRecord, SqliteStore


async def test_an_unknown_player_is_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound) as caught:
        await store.get_player(GUILD, ALICE)
    assert caught.value.kind == "player"


async def test_a_new_player_is_just_a_name(store: SqliteStore) -> None:
    await store.upsert_player(GUILD, ALICE, "Alice")
    assert await store.get_player(GUILD, ALICE) == PlayerRecord(GUILD, ALICE, "Alice")


async def test_upsert_renames_in_one_guild_only(store: SqliteStore) -> None:
    await store.upsert_player(GUILD, ALICE, "Alice")
    await store.upsert_player(GUILD + 1, ALICE, "Al")
    await store.upsert_player(GUILD, BOB, "Bob")
    await store.upsert_player(GUILD, ALICE, "Alice ♛")
    assert await store.get_player(GUILD, ALICE) == PlayerRecord(GUILD, ALICE, "Alice ♛")
    assert (await store.get_player(GUILD + 1, ALICE)).display_name == "Al"
    assert (await store.get_player(GUILD, BOB)).display_name == "Bob"
    with pytest.raises(NotFound):
        await store.get_player(GUILD + 1, BOB)


async def test_settings_default_until_set(store: SqliteStore) -> None:
    assert await store.get_settings(GUILD) == GuildSettings(GUILD, "classic", "bow", 600)
    mine = GuildSettings(GUILD, default_ruleset="jasir", challenge_expiry_seconds=60)
    await store.set_settings(mine)
    assert await store.get_settings(GUILD) == mine
    assert await store.get_settings(GUILD + 1) == GuildSettings(GUILD + 1)
    changed = GuildSettings(GUILD, default_layout="other")
    await store.set_settings(changed)
    assert await store.get_settings(GUILD) == changed
