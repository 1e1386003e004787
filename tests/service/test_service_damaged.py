"""A channel whose game is damaged names the damage to every command, a new challenge included:
only a moderator's abort frees it, so "a game is in progress" would send players nowhere."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.service import ChallengeRequest, ChannelBusy, JarmoService
from bot.service.errors import GameDamaged
from tests.service.service_helpers import ANN, BOB, CAT, HERE, start_match
from tests.wording import refused


def spoil_snapshot(database: Path, game_id: int) -> None:
    with sqlite3.connect(database, timeout=10) as db:
        db.execute("UPDATE games SET snapshot = '{not json' WHERE id = ?", (game_id,))


async def test_a_challenge_in_a_damaged_channel_names_the_damage(
    service: JarmoService, tmp_path: Path
) -> None:
    view = await start_match(service)
    spoil_snapshot(tmp_path / "jarmo.sqlite3", view.game.id)
    with refused(GameDamaged, r"damaged.*/jarmo abort"):
        await service.challenges.post(HERE, CAT, ChallengeRequest(ANN))
    with refused(GameDamaged, r"damaged.*/jarmo abort"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))


async def test_a_challenge_beside_a_sound_game_still_says_a_game_is_in_progress(
    service: JarmoService,
) -> None:
    await start_match(service)
    with refused(ChannelBusy, "game in progress"):
        await service.challenges.post(HERE, CAT, ChallengeRequest(ANN))
