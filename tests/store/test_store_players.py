"""Players and per-guild settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import ALICE, BOB, GUILD

from bot.store import GuildSettings, NotFound, PlayerRecord, SqliteStore


async def test_an_unknown_player_is_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound) as caught:
        await store.get_player(GUILD, ALICE)
    assert caught.value.kind == "player"


async def test_a_new_player_starts_from_zero(store: SqliteStore) -> None:
    await store.upsert_player(GUILD, ALICE, "Alice")
    assert await store.get_player(GUILD, ALICE) == PlayerRecord(
        guild_id=GUILD,
        user_id=ALICE,
        display_name="Alice",
        rating=1500.0,
        rating_deviation=350.0,
        volatility=None,
        games=0,
        wins=0,
        draws=0,
        losses=0,
        points=0,
        match_wins=0,
    )


async def test_upsert_renames_and_keeps_the_rest(store: SqliteStore, db_path: Path) -> None:
    await store.upsert_player(GUILD, ALICE, "Alice")
    with sqlite3.connect(db_path) as db:  # stats are normally written by end_game
        db.execute("UPDATE players SET wins = 3, points = 40 WHERE user_id = ?", (ALICE,))
    await store.upsert_player(GUILD, ALICE, "Alice ♛")
    player = await store.get_player(GUILD, ALICE)
    assert (player.display_name, player.wins, player.points) == ("Alice ♛", 3, 40)


async def test_players_are_kept_per_guild(store: SqliteStore) -> None:
    await store.upsert_player(GUILD, ALICE, "Alice")
    await store.upsert_player(GUILD + 1, ALICE, "Al")
    await store.upsert_player(GUILD, BOB, "Bob")
    assert (await store.get_player(GUILD, ALICE)).display_name == "Alice"
    assert (await store.get_player(GUILD + 1, ALICE)).display_name == "Al"
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
