"""The vacation ledger on both backends: one open vacation per player, clocks that stand while
the player to move is away, an end that happens once and moves deadlines on, and the versions
that a start changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.store import (
    ChallengeOptions,
    GameRecord,
    NewChallenge,
    ReminderPost,
    Store,
    announcement,
)
from tests.store.store_helpers import ALICE, BOB, CHANNEL, T0, fork, new_game

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
PERIOD = 2 * DAY  # the time per move of the games here


@pytest.fixture
def start_timed(store: Store) -> Any:
    """``await start_timed(channel)``: a match with two days a move, ALICE White, at T0."""

    async def start(channel: int = CHANNEL) -> GameRecord:
        options = ChallengeOptions(time_per_move_seconds=int(PERIOD.total_seconds()))
        posted = await store.challenges.create(
            NewChallenge(1, channel, ALICE, BOB, options, T0 + timedelta(minutes=5)), now=T0
        )
        _, game = await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
        )
        return game

    return start


async def move(store: Store, game: GameRecord, player: int, at: Any) -> GameRecord:
    played = fork(game.engine)
    notation = played.play(played.legal_moves()[0])
    return await store.games.record_move(
        game.id,
        expected_version=game.version,
        player_id=player,
        move=notation,
        game=played,
        now=at,
    )


async def test_a_player_is_away_once_at_a_time(store: Store) -> None:
    assert await store.vacations.current(ALICE) is None
    away = await store.vacations.start(ALICE, now=T0, ends_at=T0 + 3 * DAY)
    assert away is not None and away.away and away.user_id == ALICE
    assert await store.vacations.start(ALICE, now=T0 + HOUR, ends_at=T0 + DAY) is None
    assert await store.vacations.current(ALICE) == away
    assert await store.vacations.open() == [away]
    other = await store.vacations.start(BOB, now=T0, ends_at=T0 + DAY)
    assert await store.vacations.open() == [other, away]  # the first to run out first
    with pytest.raises(ValueError):
        await store.vacations.start(101010, now=T0, ends_at=T0)


async def test_a_vacation_ends_once_and_stays_in_the_ledger(store: Store) -> None:
    away = await store.vacations.start(ALICE, now=T0, ends_at=T0 + 3 * DAY)
    assert away is not None
    ended = await store.vacations.end(away.id, at=T0 + DAY)
    assert ended is not None and ended.ended_at == T0 + DAY and not ended.away
    assert await store.vacations.end(away.id, at=T0 + 2 * DAY) is None
    assert await store.vacations.current(ALICE) is None
    assert await store.vacations.of_player(ALICE, since=T0) == [ended]
    assert await store.vacations.of_player(ALICE, since=T0 + 2 * DAY) == []
    again = await store.vacations.start(ALICE, now=T0 + 2 * DAY, ends_at=T0 + 3 * DAY)
    assert again is not None and again.id != away.id
    assert await store.vacations.of_player(ALICE, since=T0) == [ended, again]


async def test_the_clock_of_a_player_away_stands_and_moves_on_when_they_return(
    store: Store, start_timed: Any
) -> None:
    game = await start_timed()  # ALICE (White) to move, deadline T0 + 2 days
    assert [clock.game_id for clock in await store.clocks.running()] == [game.id]
    away = await store.vacations.start(ALICE, now=T0 + HOUR, ends_at=T0 + 10 * DAY)
    assert away is not None
    assert await store.clocks.running() == []  # the scheduler sees no deadline of hers
    touched = await store.games.get(game.id)
    assert touched.version == game.version + 1  # a clock read before the start is stale
    await store.vacations.end(away.id, at=T0 + 5 * DAY)
    back = await store.games.get(game.id)
    # Her clock ran one hour before she left: she has the rest of her period from her return.
    assert back.clock.deadline_at == T0 + 5 * DAY + PERIOD - HOUR
    assert back.version == touched.version + 1
    (running,) = await store.clocks.running()
    assert running.deadline_at == back.clock.deadline_at


async def test_the_opponents_clock_runs_and_a_move_while_away_gives_a_whole_period(
    store: Store, start_timed: Any
) -> None:
    game = await start_timed()
    away = await store.vacations.start(BOB, now=T0 + HOUR, ends_at=T0 + 10 * DAY)
    assert away is not None
    assert (await store.games.get(game.id)).version == game.version  # ALICE's clock: untouched
    (running,) = await store.clocks.running()  # ALICE is to move: her clock runs
    assert running.game_id == game.id
    moved = await move(store, game, ALICE, T0 + DAY)  # now BOB, who is away, is to move
    assert await store.clocks.running() == []
    await store.vacations.end(away.id, at=T0 + 4 * DAY)
    back = await store.games.get(game.id)
    assert moved.clock.deadline_at == T0 + DAY + PERIOD
    assert back.clock.deadline_at == T0 + 4 * DAY + PERIOD


async def test_the_end_writes_its_announcements_only_once(store: Store, start_timed: Any) -> None:
    game = await start_timed()
    away = await store.vacations.start(ALICE, now=T0, ends_at=T0 + DAY)
    assert away is not None
    note = announcement(f"test:{away.id}", ReminderPost(T0, ALICE, T0 + DAY))
    assert await store.vacations.end(away.id, at=T0 + DAY, announce=[(game.id, note)])
    assert await store.vacations.end(away.id, at=T0 + DAY, announce=[(game.id, note)]) is None
    claimed = await store.outbox.claim(now=T0 + DAY, lease_seconds=60)
    assert [entry.key for entry in claimed] == [note.key]
    assert claimed[0].channel_id == CHANNEL and claimed[0].game_id == game.id
