"""The search pool's scheduling, with in-process workers the test answers and a clock it moves:
fair shares under a deadline, retries when a worker dies, a clean close."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import pytest

from bot.ai import (
    PoolClosed,
    SearchPool,
    SearchRequest,
    SearchResult,
    WorkerDied,
    fair_share,
    level_time_limit,
)
from bot.ai._pool import HANDOVER_SECONDS, MAX_ATTEMPTS, MIN_THINK_SECONDS
from bot.jarmo import Game

LIMIT = 5.0  # seconds any condition may take to come true
WITHIN = 2.1  # what the service asks for: 2.5 s minus the work around the search
POSITION = Game.new().to_dict()


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass(eq=False)
class Search:
    """One search a fake worker was asked for; the test finishes it."""

    worker: FakeWorker
    request: SearchRequest
    started_at: float
    outcome: asyncio.Future[str] = field(default_factory=asyncio.Future)

    def answer(self, move: str = "A1-C2") -> None:
        self.outcome.set_result(move)

    def die(self) -> None:
        self.outcome.set_exception(WorkerDied("killed by the test"))


class Farm:
    """Launches fake workers and records every search they are given."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.searches: list[Search] = []
        self.launched: list[FakeWorker] = []
        self.changed = asyncio.Condition()
        self.fail_launches = False

    async def launch(self) -> FakeWorker:
        if self.fail_launches:
            raise OSError("no more processes")
        worker = FakeWorker(self)
        self.launched.append(worker)
        return worker

    def running(self) -> list[Search]:
        return [s for s in self.searches if not s.outcome.done()]

    async def until(self, check: Callable[[], bool]) -> None:
        """Wait (with a time limit) until ``check()`` holds."""
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(check), LIMIT)

    async def until_running(self, count: int) -> list[Search]:
        await self.until(lambda: len(self.running()) == count)
        return self.running()


class FakeWorker:
    def __init__(self, farm: Farm) -> None:
        self.farm = farm
        self.closed = False

    async def search(self, request: SearchRequest) -> str:
        search = Search(self, request, self.farm.clock())
        async with self.farm.changed:
            self.farm.searches.append(search)
            self.farm.changed.notify_all()
        try:
            return await search.outcome
        finally:
            async with self.farm.changed:
                self.farm.changed.notify_all()

    async def analyse(self, request: SearchRequest) -> SearchResult:
        move = await self.search(request)
        return SearchResult(move, 25, 3, request.node_limit or 0, (move,))

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def farm(clock: Clock) -> Farm:
    return Farm(clock)


@pytest.fixture
async def pool(farm: Farm, clock: Clock) -> AsyncIterator[SearchPool]:
    opened = SearchPool(2, launch=farm.launch, clock=clock)
    opened.start()
    yield opened
    await opened.close()


def ask(pool: SearchPool, count: int, level: str = "hard") -> list[asyncio.Future[str]]:
    """``count`` games asking at once, in this order."""
    return [pool.choose(POSITION, level, seed, within=WITHIN) for seed in range(count)]


# -- the fair share ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deadlines", "workers", "share"),
    [
        ([2.1], 2, 2.1),  # alone: all the time there is
        ([2.1, 2.1], 2, 2.1),  # one each
        ([2.1] * 6, 2, 0.7),  # three rounds on two workers
        ([2.1] * 6, 6, 2.1),
        ([2.1] * 5, 2, 0.7),  # the fifth needs a third round too
        ([1.0, 3.0, 3.0], 1, 1.0),  # the first's own deadline is the tightest
        ([3.0, 3.0, 1.5], 1, 0.5),  # a late, tight one behind two others squeezes all three
    ],
)
def test_the_fair_share_lets_every_queued_request_end_by_its_deadline(
    deadlines: list[float], workers: int, share: float
) -> None:
    assert fair_share(0.0, deadlines, workers) == pytest.approx(share)


def test_a_passed_deadline_leaves_no_share() -> None:
    assert fair_share(5.0, [4.0, 9.0], 2) < 0


# -- deadlines under load ---------------------------------------------------------------------


async def test_one_game_thinks_for_its_level_s_own_time(pool: SearchPool, farm: Farm) -> None:
    (task,) = ask(pool, 1)
    (search,) = await farm.until_running(1)
    assert search.request.time_limit == level_time_limit("hard") == 2.0
    search.answer("B1-C3")
    assert await task == "B1-C3"


async def test_easy_keeps_its_own_shorter_time(pool: SearchPool, farm: Farm) -> None:
    ask(pool, 1, level="easy")
    (search,) = await farm.until_running(1)
    assert search.request.time_limit == level_time_limit("easy") == 1.0
    search.answer()


async def test_six_games_at_once_are_all_answered_within_the_deadline(
    pool: SearchPool, farm: Farm, clock: Clock
) -> None:
    tasks = ask(pool, 6)
    finished_at: list[float] = []
    while len(finished_at) < 6:
        running = await farm.until_running(min(2, 6 - len(finished_at)))
        # Each search uses all the time it was given (a hard search does), and the handover.
        ends = {s: s.started_at + s.request.time_limit + HANDOVER_SECONDS for s in running}
        clock.now = min(ends.values())
        for search, end in ends.items():
            if end <= clock.now:
                search.answer()
                await asyncio.wait_for(tasks[search.request.seed], LIMIT)
                finished_at.append(clock.now)
    assert all(t.result() == "A1-C2" for t in tasks)
    assert max(finished_at) <= WITHIN + 1e-9
    limits = [s.request.time_limit for s in farm.searches]
    # Shortened from hard's 2 s, but fairly: each of the six thinks about a third of the time.
    assert all(0.6 <= limit < 2.0 for limit in limits), limits
    assert max(limits) - min(limits) < 0.01


async def test_a_game_that_arrives_late_shortens_only_what_is_still_waiting(
    pool: SearchPool, farm: Farm, clock: Clock
) -> None:
    first_two = ask(pool, 2)
    running = await farm.until_running(2)
    assert [s.request.time_limit for s in running] == [2.0, 2.0]
    clock.now = 0.5
    third = pool.choose(POSITION, "hard", 9, within=WITHIN)
    clock.now = 2.0
    for search in running:
        search.answer()
    (late,) = await farm.until_running(1)
    # Its deadline is 2.6: it gets what is left, not hard's full 2 s.
    assert late.request.time_limit == pytest.approx(0.6 - HANDOVER_SECONDS)
    late.answer()
    assert await asyncio.gather(*first_two, third) == ["A1-C2"] * 3


async def test_past_its_deadline_a_search_still_gets_a_minimum(
    pool: SearchPool, farm: Farm, clock: Clock
) -> None:
    blockers = ask(pool, 2)
    running = await farm.until_running(2)
    late = pool.choose(POSITION, "hard", 7, within=0.5)
    clock.now = 2.0
    for search in running:
        search.answer()
    (search,) = await farm.until_running(1)
    assert search.request.time_limit == MIN_THINK_SECONDS
    search.answer()
    await asyncio.gather(late, *blockers)


# -- faults and the end -----------------------------------------------------------------------


async def test_a_worker_that_dies_is_replaced_and_the_request_retried(
    pool: SearchPool, farm: Farm
) -> None:
    (task,) = ask(pool, 1)
    (first,) = await farm.until_running(1)
    first.die()
    (again,) = await farm.until_running(1)
    assert again.request.game == first.request.game and again.worker is not first.worker
    again.answer("B1-C3")
    assert await task == "B1-C3"
    assert len(farm.launched) == 3  # two at the start, one in place of the dead one


async def test_a_position_that_keeps_killing_workers_fails_and_the_pool_goes_on(
    pool: SearchPool, farm: Farm
) -> None:
    (task,) = ask(pool, 1)
    for _ in range(MAX_ATTEMPTS):
        (search,) = await farm.until_running(1)
        search.die()
    with pytest.raises(WorkerDied):
        await asyncio.wait_for(task, LIMIT)
    (next_one,) = ask(pool, 1)
    (search,) = await farm.until_running(1)
    search.answer()
    assert await next_one == "A1-C2"


async def test_a_refused_request_reaches_the_caller_and_keeps_the_worker(
    pool: SearchPool, farm: Farm
) -> None:
    (task,) = ask(pool, 1)
    (search,) = await farm.until_running(1)
    search.outcome.set_exception(ValueError("the game is over"))
    with pytest.raises(ValueError, match="over"):
        await task
    assert len(farm.launched) == 2


async def test_an_unknown_level_is_refused_before_it_queues(pool: SearchPool) -> None:
    with pytest.raises(ValueError, match="unknown level"):
        pool.choose(POSITION, "genius", 0, within=WITHIN)
    assert pool.waiting() == 0


async def test_when_no_worker_can_start_the_caller_hears_it(farm: Farm, clock: Clock) -> None:
    farm.fail_launches = True
    pool = SearchPool(1, launch=farm.launch, clock=clock)
    pool.start()
    try:
        with pytest.raises(WorkerDied, match="could be started"):
            await asyncio.wait_for(pool.choose(POSITION, "hard", 0, within=WITHIN), LIMIT)
    finally:
        await pool.close()


async def test_closing_refuses_what_waits_and_closes_every_worker(farm: Farm, clock: Clock) -> None:
    pool = SearchPool(2, launch=farm.launch, clock=clock)
    pool.start()
    tasks = ask(pool, 3)
    await farm.until_running(2)
    await pool.close()
    for task in tasks:
        with pytest.raises(PoolClosed):
            await task
    assert len(farm.launched) == 2 and all(worker.closed for worker in farm.launched)
    with pytest.raises(PoolClosed):
        pool.choose(POSITION, "hard", 0, within=WITHIN)


# -- analyses (a game review's positions) -----------------------------------------------------


def analyses(pool: SearchPool, count: int) -> list[asyncio.Future[SearchResult]]:
    return [
        pool.analyse(POSITION, "hard", node_limit=1000 + n, time_limit=60.0) for n in range(count)
    ]


async def test_an_analysis_returns_the_search_s_whole_answer_with_its_node_limit(
    pool: SearchPool, farm: Farm
) -> None:
    (task,) = analyses(pool, 1)
    (search,) = await farm.until_running(1)
    assert search.request.node_limit == 1000
    search.answer("B1-D2")
    assert await task == SearchResult("B1-D2", 25, 3, 1000, ("B1-D2",))


async def test_analyses_leave_one_worker_free_for_moves(pool: SearchPool, farm: Farm) -> None:
    waiting = analyses(pool, 3)
    (first,) = await farm.until_running(1)
    assert first.request.node_limit is not None
    assert pool.waiting() == 0  # the two other analyses wait in their own queue
    move = pool.choose(POSITION, "hard", 5, within=WITHIN)
    running = await farm.until_running(2)
    (searching,) = [s for s in running if s.request.node_limit is None]
    assert searching.request.time_limit == 2.0  # a full think: the analyses took none of it
    searching.answer("C1-D3")
    assert await move == "C1-D3"
    for _ in range(3):
        (search,) = await farm.until_running(1)
        search.answer()
    assert [found.move for found in await asyncio.gather(*waiting)] == ["A1-C2"] * 3


async def test_a_move_that_waits_goes_before_every_analysis(farm: Farm, clock: Clock) -> None:
    single = SearchPool(1, launch=farm.launch, clock=clock)
    single.start()
    try:
        waiting = analyses(single, 2)
        (first,) = await farm.until_running(1)
        move = single.choose(POSITION, "hard", 5, within=WITHIN)
        first.answer()
        (second,) = await farm.until_running(1)
        assert second.request.node_limit is None  # the move, before the other analysis
        second.answer("E1-D3")
        assert await move == "E1-D3"
        (third,) = await farm.until_running(1)
        third.answer()
        await asyncio.gather(*waiting)
    finally:
        await single.close()


async def test_closing_refuses_the_analyses_that_wait(farm: Farm, clock: Clock) -> None:
    single = SearchPool(1, launch=farm.launch, clock=clock)
    single.start()
    waiting = analyses(single, 2)
    await farm.until_running(1)
    await single.close()
    for task in waiting:
        with pytest.raises(PoolClosed):
            await task
