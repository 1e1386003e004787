"""A takeback removes a game's last actions in one version-checked write: the snapshot, the
clock's deadline and the version go with it, and the actions taken back are kept for the
history, on every backend."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.jarmo import Game
from bot.store import GameRecord, StaleGame, Store, open_any
from tests.store.store_helpers import (
    ALICE,
    BOB,
    T0,
    challenge,
    fork,
    new_game,
    open_without_process_lock,
    quiet_move,
)


async def timed_game(store: Store, seconds: int | None) -> GameRecord:
    posted = await store.challenges.create(challenge(time_per_move_seconds=seconds), now=T0)
    _, record = await store.challenges.accept(
        posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
    )
    return record


async def move(store: Store, record: GameRecord, player: int, seconds: float) -> GameRecord:
    game = fork(record.engine)
    played = quiet_move(game, random.Random(record.version))
    return await store.games.record_move(
        record.id, expected_version=record.version, player_id=player, move=played, game=game,
        now=T0 + timedelta(seconds=seconds),
    )  # fmt: skip


def replayed(moves: list[str]) -> Game:
    game = new_game()
    for played in moves:
        game.play(played)
    return game


async def test_a_takeback_restores_the_position_and_the_deadline_and_moves_the_version_on(
    store: Store,
) -> None:
    start = await timed_game(store, 3600)
    first = await move(store, start, ALICE, 100)
    second = await move(store, first, BOB, 250)
    kept = replayed(second.engine.history[:1])
    back = await store.games.take_back(
        start.id, expected_version=second.version, game=kept, now=T0 + timedelta(seconds=300)
    )
    assert back.version == 3 and back.engine == first.engine
    assert back.clock.deadline_at == first.clock.deadline_at  # Bob's turn, as after Ann's move
    assert back.clock.reminders_sent == 0
    assert await store.games.get(start.id) == back
    assert [a.move for a in await store.games.actions(start.id)] == first.engine.history
    [taken] = await store.games.taken_back(start.id)
    assert (taken.version, taken.ply, taken.player_id) == (3, 2, BOB)
    assert taken.move == second.engine.history[1]
    assert taken.played_at == T0 + timedelta(seconds=250)
    assert taken.taken_back_at == T0 + timedelta(seconds=300)
    # The game plays on from there: the next move is ply 2 again, at version 4.
    again = await move(store, back, BOB, 400)
    assert again.version == 4 and len(again.engine.history) == 2


async def test_a_takeback_gives_back_the_clock_the_move_found_pause_and_reminder_included(
    store: Store,
) -> None:
    start = await timed_game(store, 3600)
    first = await move(store, start, ALICE, 100)  # Bob's turn, until T0 + 3700 s
    deadline = first.clock.deadline_at
    assert deadline == T0 + timedelta(seconds=3700)
    assert await store.clocks.mark_reminders_sent(
        first.id, expected_version=first.version, deadline_at=deadline, count=1
    )
    reminded = await store.games.get(first.id)
    # The clock stands for ten minutes of Bob's turn: his deadline moves on by as much.
    paused = await store.clocks.pause(
        first.id, expected_version=reminded.version, now=T0 + timedelta(seconds=200)
    )
    resumed = await store.clocks.resume(
        first.id, expected_version=paused.version, now=T0 + timedelta(seconds=800)
    )
    assert resumed.clock.deadline_at == T0 + timedelta(seconds=4300)
    second = await move(store, resumed, BOB, 900)
    back = await store.games.take_back(
        first.id,
        expected_version=second.version,
        game=replayed(first.engine.history),
        now=T0 + timedelta(seconds=950),
    )
    # Exactly as before Bob's move: not rebuilt from Ann's move time, and not reminded again.
    assert back.clock.deadline_at == resumed.clock.deadline_at
    assert back.clock.reminders_sent == 1
    [kept] = await store.games.actions(first.id)
    assert (kept.deadline_before, kept.reminders_before) == (start.clock.deadline_at, 0)


async def test_a_takeback_to_the_start_gives_back_the_first_deadline(store: Store) -> None:
    start = await timed_game(store, 600)
    first = await move(store, start, ALICE, 100)
    back = await store.games.take_back(
        start.id, expected_version=first.version, game=new_game(), now=T0 + timedelta(seconds=9)
    )
    assert back.engine.history == [] and back.version == 2
    assert back.clock.deadline_at == start.clock.deadline_at == T0 + timedelta(seconds=600)
    assert await store.games.actions(start.id) == []


async def test_two_plies_taken_back_at_once_and_a_ply_taken_back_twice(store: Store) -> None:
    start = await timed_game(store, None)
    first = await move(store, start, ALICE, 1)
    second = await move(store, first, BOB, 2)
    back = await store.games.take_back(
        start.id, expected_version=2, game=new_game(), now=T0 + timedelta(seconds=3)
    )
    assert back.version == 3 and not back.clock.running
    replay = await move(store, back, ALICE, 4)
    await store.games.take_back(
        start.id, expected_version=4, game=new_game(), now=T0 + timedelta(seconds=5)
    )
    taken = [(t.version, t.ply, t.move) for t in await store.games.taken_back(start.id)]
    assert taken == [
        (3, 1, second.engine.history[0]),
        (3, 2, second.engine.history[1]),
        (5, 1, replay.engine.history[0]),
    ]


async def test_a_stale_takeback_changes_nothing(store: Store) -> None:
    start = await timed_game(store, 600)
    first = await move(store, start, ALICE, 100)
    second = await move(store, first, BOB, 200)
    with pytest.raises(StaleGame):  # asked at version 1; Bob's move made it 2
        await store.games.take_back(
            start.id, expected_version=1, game=new_game(), now=T0 + timedelta(seconds=300)
        )
    assert await store.games.get(start.id) == second
    assert len(await store.games.actions(start.id)) == 2
    assert await store.games.taken_back(start.id) == []


async def test_a_takeback_must_keep_the_stored_beginning(store: Store) -> None:
    start = await timed_game(store, None)
    first = await move(store, start, ALICE, 1)
    with pytest.raises(ValueError):  # nothing after the kept actions
        await store.games.take_back(
            start.id, expected_version=1, game=first.engine, now=T0 + timedelta(seconds=2)
        )
    assert await store.games.get(start.id) == first


@pytest.fixture
async def second_store(store_target: Path | str) -> AsyncIterator[Store]:
    """Another process's connections to the same database."""
    if isinstance(store_target, Path):
        other = await open_without_process_lock(store_target)
        try:
            yield other
        finally:
            await other.close()
    else:
        async with open_any(store_target) as opened:
            yield opened


async def test_a_takeback_and_a_move_at_the_same_moment_never_both_apply(
    store: Store, second_store: Store
) -> None:
    record = await timed_game(store, 600)
    rng = random.Random(5)
    for attempt in range(6):
        asked = await move(store, record, record.player_id(record.engine.turn), attempt)
        answer = fork(asked.engine)
        played = quiet_move(answer, rng)
        kept = replayed(asked.engine.history[:-1])
        mover, taker = (store, second_store) if attempt % 2 else (second_store, store)
        at = T0 + timedelta(seconds=attempt + 0.5)
        results = await asyncio.gather(
            mover.games.record_move(
                asked.id, expected_version=asked.version, game=answer, move=played, now=at,
                player_id=asked.player_id(asked.engine.turn),
            ),
            taker.games.take_back(asked.id, expected_version=asked.version, game=kept, now=at),
            return_exceptions=True,
        )  # fmt: skip
        winners = [r for r in results if isinstance(r, GameRecord)]
        assert len(winners) == 1 and sum(isinstance(r, StaleGame) for r in results) == 1, results
        record = await store.games.get(asked.id)
        assert record == winners[0] and record.version == asked.version + 1
        history = [a.move for a in await store.games.actions(asked.id)]
        assert history == record.engine.history
        taken = [t for t in await store.games.taken_back(asked.id) if t.version == record.version]
        assert len(taken) == (1 if len(history) < len(asked.engine.history) else 0)
