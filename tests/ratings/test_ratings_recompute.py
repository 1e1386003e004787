"""Recomputing every rating from the stored results gives exactly the stored tables."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import Actor, JarmoService, Place
from bot.service.ratings import (
    HistoryDifference,
    RatingDifference,
    check_ratings,
    rebuild_ratings,
    recompute_ratings,
)
from bot.store import RatingRecord, SqliteStore, open_store
from tests.fakes import FakeClock
from tests.ratings.ratings_helpers import (
    ANN,
    BOB,
    CAT,
    GUILD,
    HERE,
    T0,
    THERE,
    play_draw,
    play_resign,
    start,
)

DAN = Actor(404, "Dan")


async def play_a_season(service: JarmoService, seed: int = 1) -> None:
    """Matches of every kind between four players, in two servers and three rulesets."""
    rng = random.Random(seed)
    players = [ANN, BOB, CAT, DAN]
    for round_ in range(12):
        white, black = rng.sample(players, 2)
        ruleset = rng.choice(["classic", "jasir", "ludos"])
        place = Place(GUILD + round_ % 2, 10)
        if round_ % 3 == 0:
            await play_draw(service, white, black, ruleset=ruleset, place=place)
        else:
            await play_resign(service, white, black, ruleset=ruleset, place=place)
    await start(service, ANN, BOB, games=2, place=HERE)  # a match with a stop then a resignation
    offer = await service.play.offer_stop(HERE, ANN)
    await service.play.accept_stop(HERE, BOB, offer)
    await service.play.resign(HERE, ANN)
    await start(service, CAT, DAN, place=THERE)
    await service.play.abort(THERE, ANN, can_manage=True)


async def test_recomputing_gives_exactly_the_stored_ratings(
    service: JarmoService, store: SqliteStore
) -> None:
    await play_a_season(service)
    fresh = await recompute_ratings(store.ratings)
    stored = await store.ratings.tables()
    assert fresh.games == 14 and len(stored.history) == 28

    def key(r: RatingRecord) -> tuple[int, str, int]:
        assert r.guild_id is not None  # every game here is in a server
        return r.guild_id, r.ruleset, r.user_id

    assert [(key(r), r.skill, r.games, r.wins, r.draws, r.losses, r.points, r.match_wins,
             r.last_game_at) for r in fresh.tables.ratings] == [
        (key(r), r.skill, r.games, r.wins, r.draws, r.losses, r.points, r.match_wins,
         r.last_game_at) for r in stored.ratings
    ]  # fmt: skip
    assert sorted(fresh.tables.history, key=lambda h: (h.game_id, h.user_id)) == sorted(
        stored.history, key=lambda h: (h.game_id, h.user_id)
    )
    check = await check_ratings(store.ratings)
    assert check.ok, check.differences
    assert (await check_ratings(store.ratings, GUILD)).ok


async def test_a_tampered_rating_is_found_and_a_rebuild_restores_it(
    service: JarmoService, store: SqliteStore, db_path: Path
) -> None:
    await play_a_season(service, seed=2)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = ?", (ANN.user_id,))
        db.execute("DELETE FROM rating_history WHERE id = 1")
    check = await check_ratings(store.ratings)
    assert not check.ok
    assert any(isinstance(d, RatingDifference) for d in check.differences)
    assert any(isinstance(d, HistoryDifference) for d in check.differences)
    await rebuild_ratings(store.ratings)
    assert (await check_ratings(store.ratings)).ok


async def test_games_from_before_ratings_are_rated_by_a_rebuild(
    service: JarmoService, store: SqliteStore, db_path: Path
) -> None:
    await play_resign(service, ANN, BOB)
    await play_resign(service, ANN, CAT)
    with sqlite3.connect(db_path) as db:  # what a database migrated to 0003 looks like
        db.execute("DELETE FROM rating_history")
        db.execute("DELETE FROM ratings")
    assert not (await check_ratings(store.ratings)).ok
    rebuilt = await rebuild_ratings(store.ratings)
    assert rebuilt.games == 2
    assert (await store.ratings.player_ratings(GUILD, ANN.user_id))[0].wins == 2
    await play_draw(service, BOB, CAT)  # live updates go on from the rebuilt values
    assert (await check_ratings(store.ratings)).ok


def test_the_command_line_checks_and_rebuilds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db_path = tmp_path / "cli.sqlite3"

    async def season() -> None:
        async with open_store(db_path) as store:
            await play_a_season(JarmoService(store, clock=FakeClock(T0, tick_seconds=1)), seed=3)

    asyncio.run(season())
    assert main(["ratings", "--check", "--db", str(db_path)]) == 0
    assert "ok: " in capsys.readouterr().out
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE ratings SET rating = 0")
    assert main(["ratings", "--check", "--db", str(db_path)]) == 1
    assert "DIFFERENT" in capsys.readouterr().out
    assert main(["ratings", "--rebuild", "--db", str(db_path)]) == 0
    assert main(["ratings", "--check", "--db", str(db_path), "--guild", str(GUILD)]) == 0
    assert main(["ratings", "--check", "--db", str(tmp_path / "missing.sqlite3")]) == 2
