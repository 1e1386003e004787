"""Recording moves and reading games back."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot.store import GameEnding, GameNotActive, MatchOver, NotFound, SqliteStore, StaleGame
from tests.store.store_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    T0,
    StartMatch,
    fork,
    play_quiet,
    play_to_end,
    quiet_move,
)


async def test_a_move_is_appended_and_versioned(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    game = fork(start.engine)
    move = quiet_move(game, random.Random(1))
    at = T0 + timedelta(seconds=7)
    record = await store.games.record_move(
        start.id, expected_version=0, player_id=ALICE, move=move, game=game, now=at
    )
    assert record.version == 1 and record.engine is game
    assert record.last_activity == at and record.started_at == T0
    assert record.status == "active"
    stored = await store.games.get(start.id)
    assert stored == record and stored.engine is not game  # a fresh object every load
    [action] = await store.games.actions(start.id)
    assert (action.game_id, action.ply, action.player_id, action.move) == (start.id, 1, ALICE, move)
    assert action.played_at == at


async def test_players_alternate_and_the_history_is_kept(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    record = await play_quiet(store, start, 9, random.Random(2))
    actions = await store.games.actions(start.id)
    assert [a.ply for a in actions] == list(range(1, 10))
    assert [a.player_id for a in actions] == [ALICE, BOB] * 4 + [ALICE]
    assert [a.move for a in actions] == record.engine.history
    assert (await store.games.active(CHANNEL)) == record


@pytest.mark.parametrize(("seen", "meanwhile"), [(0, 1), (2, 1), (3, 4)])
async def test_a_stale_version_is_refused_and_nothing_written(
    store: SqliteStore, start_match: StartMatch, seen: int, meanwhile: int
) -> None:
    _, start = await start_match()
    loaded = await play_quiet(store, start, seen, random.Random(3))  # what the slow writer saw
    record = await play_quiet(store, loaded, meanwhile, random.Random(4))  # what happened since
    game = fork(loaded.engine)
    mover = loaded.player_id(game.turn)
    move = quiet_move(game, random.Random(5))
    with pytest.raises(StaleGame) as caught:
        await store.games.record_move(
            start.id, expected_version=seen, player_id=mover, move=move, game=game, now=T0
        )
    assert (caught.value.game_id, caught.value.expected) == (start.id, seen)
    assert caught.value.actual == seen + meanwhile
    assert not isinstance(caught.value, GameNotActive)
    assert await store.games.get(start.id) == record
    assert len(await store.games.actions(start.id)) == record.version


async def test_moves_on_an_ended_game_are_refused(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    points = start.engine.points()
    await store.games.end(
        start.id,
        GameEnding(
            status="aborted",
            winner=None,
            points=points,
            termination="aborted",
            game=start.engine,
            then=MatchOver("aborted"),
        ),
        expected_version=0,
        now=T0,
    )
    game = fork(start.engine)
    move = quiet_move(game, random.Random(5))
    with pytest.raises(GameNotActive) as caught:
        await store.games.record_move(
            start.id, expected_version=0, player_id=ALICE, move=move, game=game, now=T0
        )
    assert caught.value.status == "aborted"
    assert isinstance(caught.value, StaleGame)


async def test_unknown_games_are_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound):
        await store.games.get(77)
    with pytest.raises(NotFound):
        await store.games.actions(77)
    with pytest.raises(NotFound):
        await store.games.match_games(77)
    with pytest.raises(NotFound):
        await store.games.match(77)


async def test_unknown_game_on_write_is_not_found(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    game = fork(start.engine)
    move = quiet_move(game, random.Random(6))
    with pytest.raises(NotFound):
        await store.games.record_move(
            77, expected_version=0, player_id=ALICE, move=move, game=game, now=T0
        )


async def test_a_move_by_the_wrong_player_is_refused(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    game = fork(start.engine)
    move = quiet_move(game, random.Random(7))
    with pytest.raises(ValueError, match="played by"):
        await store.games.record_move(
            start.id, expected_version=0, player_id=BOB, move=move, game=game, now=T0
        )
    assert (await store.games.get(start.id)).version == 0
    assert await store.games.actions(start.id) == []


async def test_a_game_that_does_not_match_the_move_is_refused(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    game = fork(start.engine)
    move = quiet_move(game, random.Random(8))
    with pytest.raises(ValueError, match="last action"):
        await store.games.record_move(
            start.id, expected_version=0, player_id=ALICE, move="A1-A2", game=game, now=T0
        )
    with pytest.raises(ValueError, match="last action is None"):
        await store.games.record_move(
            start.id, expected_version=0, player_id=ALICE, move=move, game=start.engine, now=T0
        )
    assert (await store.games.get(start.id)).version == 0


async def test_a_final_move_must_go_through_end(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    final = await play_to_end(store, start, random.Random(9))
    with pytest.raises(ValueError, match="record it with end"):
        await store.games.record_move(
            start.id, expected_version=final.before.version, player_id=final.mover,
            move=final.move, game=final.game, now=T0,
        )  # fmt: skip
    assert await store.games.get(start.id) == final.before


async def test_active_game_is_per_channel(store: SqliteStore, start_match: StartMatch) -> None:
    _, here = await start_match(channel=1)
    _, there = await start_match(channel=2)
    assert (await store.games.active(1)) == here
    assert (await store.games.active(2)) == there
    assert await store.games.active(3) is None


async def test_latest_match_and_match_games(store: SqliteStore, start_match: StartMatch) -> None:
    assert await store.games.latest_match(CHANNEL) is None
    first, game = await start_match(game_count=2)
    assert await store.games.latest_match(CHANNEL) == first
    assert await store.games.match_games(first.id) == [game]


async def test_idle_games_finds_games_without_recent_activity(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, quiet = await start_match(channel=1)
    _, busy = await start_match(channel=2)
    _, ended = await start_match(channel=3)
    await store.games.end(
        ended.id,
        GameEnding(
            status="aborted",
            winner=None,
            points=ended.engine.points(),
            termination="aborted",
            game=ended.engine,
            then=MatchOver("aborted"),
        ),
        expected_version=0,
        now=T0,
    )
    busy = await play_quiet(store, busy, 1, random.Random(10), now=T0 + timedelta(minutes=10))
    idle = await store.games.idle(before=T0 + timedelta(minutes=5))
    assert idle == [quiet]
    assert await store.games.idle(before=T0) == []
    everyone = await store.games.idle(before=T0 + timedelta(hours=1))
    assert [g.id for g in everyone] == [quiet.id, busy.id]
