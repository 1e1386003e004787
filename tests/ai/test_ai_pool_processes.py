"""The search pool on real worker processes: legal answers for many games at once, a killed
worker replaced without losing its request, and no process left after closing."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator

import pytest

from bot.ai import (
    PoolClosed,
    ProcessWorker,
    SearchPool,
    SearchRequest,
    SearchResult,
    analyse,
    search_pool,
)
from bot.jarmo import Game

LIMIT = 30.0  # seconds: spawning processes on a machine shared with other test runs


class Watched:
    """A real worker that tells the test when it starts searching."""

    def __init__(self, worker: ProcessWorker) -> None:
        self.worker = worker
        self.searching = asyncio.Event()

    async def search(self, request: SearchRequest) -> str:
        self.searching.set()
        return await self.worker.search(request)

    async def analyse(self, request: SearchRequest) -> SearchResult:
        self.searching.set()
        return await self.worker.analyse(request)

    async def close(self) -> None:
        await self.worker.close()


class Launches:
    def __init__(self) -> None:
        self.workers: list[Watched] = []
        self.launched = asyncio.Condition()

    async def __call__(self) -> Watched:
        watched = Watched(await ProcessWorker.launch())
        async with self.launched:
            self.workers.append(watched)
            self.launched.notify_all()
        return watched

    async def count(self, number: int) -> list[Watched]:
        async with self.launched:
            await asyncio.wait_for(
                self.launched.wait_for(lambda: len(self.workers) >= number), LIMIT
            )
        return self.workers


def search_processes() -> list[int]:
    """The search processes this test process started that still exist (zombies included)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except (OSError, ValueError, IndexError):
            continue  # not a process, or it ended meanwhile
        if parent == os.getpid() and b"bot.ai._worker" in command:
            found.append(int(entry))
    return found


def positions(count: int) -> list[Game]:
    rng = random.Random(17)
    games = []
    for _ in range(count):
        game = Game.new()
        for _ in range(rng.randrange(0, 12)):
            game.play(rng.choice(game.legal_moves()))
        games.append(game)
    return games


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    opened = search_pool(2)
    opened.start()
    yield opened
    await opened.close()


async def test_six_games_at_once_each_get_a_legal_move(pool: SearchPool) -> None:
    games = positions(6)
    asked = [pool.choose(g.to_dict(), "easy", seed, within=2.1) for seed, g in enumerate(games)]
    moves = await asyncio.wait_for(asyncio.gather(*asked), LIMIT)
    assert all(move in game.legal_moves() for move, game in zip(moves, games, strict=True))


async def test_a_position_the_search_refuses_reaches_the_caller(pool: SearchPool) -> None:
    with pytest.raises(ValueError, match="ValueError"):
        await asyncio.wait_for(pool.choose({"moves": "nonsense"}, "easy", 0, within=2.1), LIMIT)


async def test_a_worker_killed_mid_search_is_replaced_and_its_game_answered() -> None:
    launches = Launches()
    pool = SearchPool(1, launch=launches)
    pool.start()
    try:
        game = positions(1)[0]
        asked = pool.choose(game.to_dict(), "hard", 0, within=1.0)
        (first,) = await launches.count(1)
        await asyncio.wait_for(first.searching.wait(), LIMIT)
        os.kill(first.worker.pid, signal.SIGKILL)
        move = await asyncio.wait_for(asked, LIMIT)
        assert move in game.legal_moves()
        workers = await launches.count(2)
        assert workers[1].searching.is_set() and workers[1].worker.pid != first.worker.pid
    finally:
        await pool.close()
    assert all(w.worker.ended for w in launches.workers)


async def test_closing_ends_every_process_even_mid_search() -> None:
    launches = Launches()
    pool = SearchPool(2, launch=launches)
    pool.start()
    asked = [pool.choose(Game.new().to_dict(), "hard", seed, within=30.0) for seed in (0, 1)]
    workers = await launches.count(2)
    await asyncio.wait_for(asyncio.gather(*(w.searching.wait() for w in workers)), LIMIT)
    assert len(search_processes()) == 2
    await asyncio.wait_for(pool.close(), LIMIT)
    assert all(w.worker.ended for w in workers)
    assert search_processes() == []
    for answer in asked:
        with pytest.raises(PoolClosed):
            await answer


async def test_an_analysis_in_a_process_is_the_same_as_in_this_one() -> None:
    game = Game.new()
    game.play("A1-C2")
    pool = search_pool(1)
    pool.start()
    try:
        found = await asyncio.wait_for(
            pool.analyse(game.to_dict(), "hard", node_limit=3000, time_limit=60.0), LIMIT
        )
    finally:
        await pool.close()
    assert found == analyse(game, level="hard", node_limit=3000, time_limit=60.0)
