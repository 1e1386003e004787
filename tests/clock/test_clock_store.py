"""The store's side of the clock: columns written with games and moves, guarded clock writes,
and the schema's own checks."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.jarmo import Game
from bot.store import (
    ChallengeOptions,
    GameEnding,
    GameNotActive,
    GameRecord,
    MatchOver,
    MatchRecord,
    NewChallenge,
    SqliteStore,
    StaleGame,
    open_store,
)

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
ALICE, BOB = 101, 202


async def timed_game(
    store: SqliteStore, seconds: int | None, channel: int = 10
) -> tuple[MatchRecord, GameRecord]:
    options = ChallengeOptions(time_per_move_seconds=seconds)
    posted = await store.challenges.create(
        NewChallenge(1, channel, ALICE, BOB, options, T0 + timedelta(minutes=5)), now=T0
    )
    assert posted.options.time_per_move_seconds == seconds
    return await store.challenges.accept(
        posted.id, first_white_id=ALICE, first_game=Game.new(), now=T0
    )


async def test_the_limit_goes_from_challenge_to_match_to_game(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db") as store:
        match, game = await timed_game(store, 600)
        assert match.time_per_move_seconds == 600
        assert game.clock.deadline_at == T0 + timedelta(minutes=10)
        (running,) = await store.clocks.running()
        assert (running.game_id, running.version, running.time_per_move_seconds) == (
            game.id, 0, 600,
        )  # fmt: skip

        played = Game.from_dict(game.engine.to_dict())
        move = played.play(played.legal_moves()[0])
        later = T0 + timedelta(minutes=3)
        moved = await store.games.record_move(
            game.id, expected_version=0, player_id=ALICE, move=move, game=played, now=later
        )
        assert moved.clock.deadline_at == later + timedelta(minutes=10)
        assert (await store.games.get(game.id)).clock == moved.clock


async def test_untimed_games_have_no_clock(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db") as store:
        match, game = await timed_game(store, None)
        assert match.time_per_move_seconds is None and not game.clock.running
        assert await store.clocks.running() == []
        with pytest.raises(ValueError, match="no running clock"):
            await store.clocks.pause(game.id, expected_version=0, now=T0)


async def test_reminder_claims_are_guarded(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db") as store:
        _, game = await timed_game(store, 600)
        deadline = game.clock.deadline_at
        assert deadline is not None
        claim = store.clocks.mark_reminders_sent
        assert not await claim(game.id, expected_version=1, deadline_at=deadline, count=1)
        other = deadline + timedelta(seconds=1)
        assert not await claim(game.id, expected_version=0, deadline_at=other, count=1)
        assert await claim(game.id, expected_version=0, deadline_at=deadline, count=1)
        assert not await claim(game.id, expected_version=0, deadline_at=deadline, count=1)
        with pytest.raises(ValueError):
            await claim(game.id, expected_version=0, deadline_at=deadline, count=0)
        assert (await store.games.get(game.id)).clock.reminders_sent == 1


async def test_pause_and_resume_are_guarded_by_the_version(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db") as store:
        _, game = await timed_game(store, 600)
        with pytest.raises(StaleGame):
            await store.clocks.pause(game.id, expected_version=3, now=T0)
        paused = await store.clocks.pause(
            game.id, expected_version=0, now=T0 + timedelta(minutes=4)
        )
        assert paused.clock.time_left_seconds == 360 and paused.version == 0
        assert await store.clocks.running() == []
        with pytest.raises(ValueError, match="no running clock"):
            await store.clocks.pause(game.id, expected_version=0, now=T0)
        resumed = await store.clocks.resume(game.id, expected_version=0, now=T0)
        assert resumed.clock.deadline_at == T0 + timedelta(minutes=6)
        with pytest.raises(ValueError, match="not paused"):
            await store.clocks.resume(game.id, expected_version=0, now=T0)
        with pytest.raises(ValueError, match="timezone-aware"):
            await store.clocks.pause(game.id, expected_version=0, now=datetime(2025, 1, 1))


async def test_an_ended_game_refuses_clock_writes(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db") as store:
        _, game = await timed_game(store, 600)
        await store.games.end(
            game.id,
            GameEnding(
                status="timeout",
                winner="black",
                points={"white": 5, "black": 5},
                termination="timeout",
                game=game.engine,
                then=MatchOver("forfeited", BOB),
            ),
            expected_version=0,
            now=T0,
        )
        assert await store.clocks.running() == []
        with pytest.raises(GameNotActive):
            await store.clocks.pause(game.id, expected_version=0, now=T0)
        deadline = game.clock.deadline_at
        assert deadline is not None
        assert not await store.clocks.mark_reminders_sent(
            game.id, expected_version=0, deadline_at=deadline, count=1
        )


async def test_the_schema_refuses_a_deadline_and_a_pause_at_once(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db") as store:
        _, game = await timed_game(store, 600)
    with sqlite3.connect(tmp_path / "db") as db:
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("UPDATE games SET time_left_seconds = 5 WHERE id = ?", (game.id,))
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("UPDATE matches SET time_per_move_seconds = 0")
