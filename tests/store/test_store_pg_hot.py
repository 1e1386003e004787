"""On PostgreSQL a move updates its game row in place (a HOT update: no index entry written).

An index on a column that moves change (``last_activity``, ``version``, ``snapshot``) would make
every move write to it and the row move pages; this test fails when one is added.
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import asyncpg
import pytest

from bot.store import GameRecord, Store, open_any
from tests.store.store_helpers import ALICE, CHANNEL, T0, challenge, fork, new_game, quiet_move

GAMES = 4
MOVES_PER_GAME = 30
# Most, not all: a page that is full when its row is updated sends that version elsewhere.
HOT_SHARE = 0.8
STATS_WAIT_S = 30.0


async def play_interleaved(store: Store) -> int:
    """Start ``GAMES`` untimed games and play quiet moves in turn, a few seconds apart as real
    moves are; returns the number of moves recorded."""
    records: list[GameRecord] = []
    for n in range(GAMES):
        posted = await store.challenges.create(challenge(channel=CHANNEL + n), now=T0)
        _, record = await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
        )
        records.append(record)
    rng, now, moves = random.Random(17), T0, 0
    for _ in range(MOVES_PER_GAME):
        for n, record in enumerate(records):
            now += timedelta(seconds=7)
            game = fork(record.engine)
            mover = record.player_id(game.turn)
            move = quiet_move(game, rng)
            records[n] = await store.games.record_move(
                record.id,
                expected_version=record.version,
                player_id=mover,
                move=move,
                game=game,
                now=now,
            )
            moves += 1
    return moves


async def games_updates(url: str, at_least: int) -> tuple[int, int]:
    """The games table's (updates, HOT updates) once the statistics count ``at_least``
    updates. A server process reports its counts when it ends (the store closed them all), a
    moment later: wait for them, within ``STATS_WAIT_S``."""
    connection = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(STATS_WAIT_S):
            while True:
                row = await connection.fetchrow(
                    "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                    " WHERE relid = 'games'::regclass"
                )
                if row["n_tup_upd"] >= at_least:
                    return row["n_tup_upd"], row["n_tup_hot_upd"]
                await asyncio.sleep(0.05)  # polling the statistics, with the time limit above
    except TimeoutError:
        raise AssertionError(f"the statistics never counted {at_least} updates") from None
    finally:
        await connection.close()


@pytest.mark.parametrize("store_target", ["postgresql"], indirect=True)
async def test_moves_update_the_game_row_in_place(store_target: str) -> None:
    async with open_any(store_target) as store:
        moves = await play_interleaved(store)
    updates, hot = await games_updates(store_target, at_least=moves)
    assert hot >= HOT_SHARE * updates, f"only {hot} of {updates} game updates were HOT"
