"""A move restarts a timed match's clock, in the same write as the move, on every backend."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta

import pytest

from bot.store import GameRecord, Store
from bot.store.clocks import deadline_text
from tests.store.store_helpers import ALICE, BOB, T0, challenge, fork, new_game, quiet_move


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


async def test_a_move_gives_the_next_player_a_full_period_and_no_reminders(store: Store) -> None:
    start = await timed_game(store, 3600)
    assert start.clock.deadline_at is not None
    await store.clocks.mark_reminders_sent(
        start.id, expected_version=0, deadline_at=start.clock.deadline_at, count=1
    )
    moved = await move(store, start, ALICE, 1234.567891)
    expected = deadline_text((T0 + timedelta(seconds=1234.567891)).isoformat(), 3600)
    assert moved.clock.deadline_at is not None
    assert moved.clock.deadline_at.isoformat(timespec="microseconds") == expected
    assert (moved.clock.reminders_sent, moved.clock.time_left_seconds) == (0, None)
    assert await store.games.get(start.id) == moved
    [running] = await store.clocks.running()
    assert (running.game_id, running.deadline_at) == (start.id, moved.clock.deadline_at)


async def test_a_move_in_a_paused_game_starts_the_clock_again(store: Store) -> None:
    start = await timed_game(store, 600)
    paused = await store.clocks.pause(start.id, expected_version=0, now=T0 + timedelta(seconds=5))
    assert paused.clock.paused
    moved = await move(store, paused, ALICE, 60)
    assert not moved.clock.paused and moved.clock.paused_at is None
    assert moved.clock.deadline_at == T0 + timedelta(seconds=660)


async def test_a_move_without_a_time_limit_leaves_the_clock_alone(store: Store) -> None:
    start = await timed_game(store, None)
    moved = await move(store, await move(store, start, ALICE, 1), BOB, 2)
    assert moved.version == 2 and not moved.clock.running and not moved.clock.paused
    assert [a.player_id for a in await store.games.actions(start.id)] == [ALICE, BOB]


async def test_each_process_reads_the_clocks_of_its_own_shards(store: Store) -> None:
    count = 3
    # Real-sized server ids (snowflakes), one in each shard: shard = (id >> 22) % count.
    stamps = range(1_100_000_000_000, 1_100_000_000_003)
    servers = {stamp % count: stamp << 22 for stamp in stamps}
    game_of_shard = {}
    for shard, guild_id in servers.items():
        new = challenge(channel=100 + shard, time_per_move_seconds=600)
        posted = await store.challenges.create(dataclasses.replace(new, guild_id=guild_id), now=T0)
        _, record = await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
        )
        game_of_shard[shard] = record.id

    async def read(**shards: object) -> set[int]:
        return {clock.game_id for clock in await store.clocks.running(**shards)}  # type: ignore[arg-type]  # the shard keywords

    assert await read() == set(game_of_shard.values())
    assert await read(shard_count=count, shard_ids={1}) == {game_of_shard[1]}
    assert await read(shard_count=count, shard_ids=[0, 2]) == {game_of_shard[0], game_of_shard[2]}
    assert await read(shard_count=count, shard_ids=range(count)) == set(game_of_shard.values())
    with pytest.raises(ValueError):
        await store.clocks.running(shard_count=2, shard_ids=[2])
