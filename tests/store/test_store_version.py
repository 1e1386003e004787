"""A game's version and its ply count are two numbers: the version counts every change of the
game (each move, the ending) and never goes back, the plies are its actions. A takeback will
leave a game whose version is ahead of its plies; every test here starts from such a game, made
by hand, or from an ending, which changes the game without adding an action."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Connection, update

from bot.store import FinalMove, GameEnding, GameRecord, MatchOver, StaleGame, Store
from bot.store.schema import games
from tests.store.store_helpers import (
    ALICE,
    T0,
    StartMatch,
    challenge,
    fork,
    new_game,
    play_quiet,
    play_to_end,
    quiet_move,
)

LATER = T0 + timedelta(hours=1)
# How far a hand-made game's version is ahead of its plies: as a move taken back leaves it.
AHEAD = 4


async def write_game(store: Any, game_id: int, **values: object) -> None:
    """Set columns of game ``game_id`` by hand (``store`` is either backend's)."""

    def write(db: Connection) -> None:
        db.execute(update(games).where(games.c.id == game_id).values(**values))

    await store._writer.run(write)


async def move_version_on(store: Store, game_id: int, steps: int = AHEAD) -> None:
    """Raise the stored version of game ``game_id`` by ``steps``, adding no action."""
    await write_game(store, game_id, version=games.c.version + steps)


def resignation(record: GameRecord) -> GameEnding:
    """Black resigns ``record``'s game, and with it the match."""
    return GameEnding(
        status="resigned",
        winner="white",
        points=record.engine.points(),
        termination="resigned",
        game=record.engine,
        then=MatchOver("forfeited", ALICE),
    )


async def test_a_game_whose_version_is_ahead_of_its_plies_loads_and_takes_moves(
    store: Store, start_match: StartMatch
) -> None:
    rng = random.Random(5)
    _, start = await start_match()
    record = await play_quiet(store, start, 3, rng)
    await move_version_on(store, record.id)

    loaded = await store.games.get(record.id)  # not the version it wrote: replayed
    assert (loaded.version, len(loaded.engine.history)) == (3 + AHEAD, 3)
    assert loaded.engine == record.engine
    # The ply count is not the version: a move checked against it is refused, nothing written.
    game = fork(loaded.engine)
    mover = loaded.player_id(game.turn)
    move = quiet_move(game, rng)
    for seen in (3, 4):
        with pytest.raises(StaleGame):
            await store.games.record_move(
                record.id, expected_version=seen, player_id=mover, move=move, game=game, now=T0
            )
    # On PostgreSQL these go through the move's single statement (the game's period is known).
    moved = await play_quiet(store, loaded, 2, rng, now=LATER)
    assert (moved.version, len(moved.engine.history)) == (5 + AHEAD, 5)
    actions = await store.games.actions(record.id)
    assert [(a.ply, a.move) for a in actions] == list(enumerate(moved.engine.history, start=1))
    assert [a.played_at for a in actions[3:]] == [LATER, LATER]

    await move_version_on(store, record.id, 1)  # replayed once more, now with five actions
    again = await store.games.get(record.id)
    assert (again.version, again.engine) == (6 + AHEAD, moved.engine)


async def test_an_ending_moves_the_version_on_without_an_action(
    store: Store, start_match: StartMatch
) -> None:
    _, start = await start_match()
    record = await play_quiet(store, start, 4, random.Random(6))
    end = await store.games.end(
        record.id, resignation(record), expected_version=record.version, now=LATER
    )
    assert (end.game.status, end.game.version, len(end.game.engine.history)) == (
        "resigned", 5, 4,
    )  # fmt: skip
    await move_version_on(store, record.id, 0)  # nothing changed: loaded as it was written
    assert (await store.games.get(record.id)).version == 5
    await move_version_on(store, record.id)  # replayed: version 9, four actions
    assert len((await store.games.get(record.id)).engine.history) == 4
    # A game's history counts its actions, not its changes.
    result = await store.results.game_result(record.id)
    assert result is not None and result.plies == 4
    [recent] = await store.results.recent_games(1, ALICE)
    assert recent.plies == 4


async def test_a_final_move_gets_the_next_ply_whatever_the_version(
    store: Store, start_match: StartMatch
) -> None:
    _, start = await start_match(max_plies=20)
    final = await play_to_end(store, start, random.Random(7))
    await move_version_on(store, start.id)
    before = await store.games.get(start.id)
    assert before.version == final.before.version + AHEAD
    outcome = final.game.outcome()
    assert outcome is not None
    ending = GameEnding(
        status="finished",
        winner=outcome.winner,
        points=final.game.points(),
        termination=outcome.termination.value,
        game=final.game,
        final_move=FinalMove(final.mover, final.move),
        then=MatchOver("finished", outcome.winner and start.player_id(outcome.winner)),
    )
    end = await store.games.end(start.id, ending, expected_version=before.version, now=LATER)
    plies = len(final.game.history)
    assert end.game.version == before.version + 1
    last = (await store.games.actions(start.id))[-1]
    assert (last.ply, last.move, last.player_id) == (plies, final.move, final.mover)
    result = await store.results.game_result(start.id)
    assert result is not None and result.plies == plies


async def test_a_game_set_aside_keeps_moving_its_version_on(
    store: Store, start_match: StartMatch
) -> None:
    _, start = await start_match()
    record = await play_quiet(store, start, 3, random.Random(8))
    await write_game(store, record.id, snapshot="{not json")
    assert await store.quarantine.set_aside(record.id, reason="test", now=LATER) == "aborted"
    reset = await store.games.get(record.id)
    assert (reset.version, reset.engine.history) == (4, [])


async def test_the_clock_is_guarded_by_the_version_not_the_plies(store: Store) -> None:
    posted = await store.challenges.create(challenge(time_per_move_seconds=600), now=T0)
    _, start = await store.challenges.accept(
        posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
    )
    record = await play_quiet(store, start, 2, random.Random(9))
    await move_version_on(store, record.id)
    version = record.version + AHEAD
    deadline = record.clock.deadline_at
    assert deadline is not None
    claim = store.clocks.mark_reminders_sent
    assert not await claim(record.id, expected_version=2, deadline_at=deadline, count=1)
    assert await claim(record.id, expected_version=version, deadline_at=deadline, count=1)
    with pytest.raises(StaleGame):
        await store.clocks.pause(record.id, expected_version=2, now=LATER)
    paused = await store.clocks.pause(record.id, expected_version=version, now=LATER)
    assert (paused.version, paused.clock.paused) == (version, True)  # the clock is no change
    resumed = await store.clocks.resume(record.id, expected_version=version, now=LATER)
    assert (resumed.version, resumed.clock.running) == (version, True)
