"""A pool of search processes for the computer opponent, shared fairly under a deadline.

Each worker searches one position at a time. Requests wait in arrival order. When a worker
takes one, the request's thinking time is its level's own, cut down to a fair share of the time
left before its deadline, counting every request queued behind it: with more games waiting than
workers, each answer is a little shallower and all of them still come in time. A worker that
dies is replaced and the request it held is searched again; closing the pool stops them all.

Analyses (a game review's positions) wait in a queue of their own, behind every move: a worker
takes one only when no move waits, and while the pool has more than one worker, one of them
never takes an analysis, so a move that comes in always finds a worker free or about to be. An
analysis is bounded by nodes, so it is short and the same on any machine.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from ._api import SearchResult, level_time_limit

log = logging.getLogger(__name__)
Found = TypeVar("Found")  # a search's answer: a move, or an analysis's result

# Sending the position and reading the answer back, on a busy machine.
HANDOVER_SECONDS = 0.05
# The least a search is given, even past its deadline: less finds no better than a guess.
MIN_THINK_SECONDS = 0.05
# A position that takes down its worker this many times fails instead of looping forever.
MAX_ATTEMPTS = 3


class WorkerDied(Exception):
    """The search process ended (or could not start) before it answered."""


class PoolClosed(RuntimeError):
    """The pool was closed before the request was answered."""


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One position to search: ``Game.to_dict()`` output, the level, the seed and the thinking
    time in seconds (the pool's share, never more than the level's own)."""

    game: dict[str, Any]
    level: str
    seed: int
    time_limit: float
    node_limit: int | None = None


class Worker(Protocol):
    """A search process as the pool sees it (see :class:`bot.ai._process.ProcessWorker`)."""

    async def search(self, request: SearchRequest) -> str:
        """The move for ``request``. Raises ``WorkerDied``, or ``ValueError`` for a request
        the search refuses (a finished game, an unknown level)."""
        ...

    async def analyse(self, request: SearchRequest) -> SearchResult:
        """The search's whole answer for ``request`` (move, score, depth, nodes, line).
        Raises as :meth:`search` does."""
        ...

    async def close(self) -> None:
        """Stop the process (at once if it is searching) and wait for it to end."""
        ...


Launcher = Callable[[], Awaitable[Worker]]


def fair_share(now: float, deadlines: Sequence[float], workers: int) -> float:
    """The longest thinking time, the same for every queued request, that lets each one end by
    its deadline: ``deadlines`` in queue order, the first request taken now, ``workers``
    working through the queue in rounds. Negative when the first deadline has passed."""
    return min(
        (deadline - now) / math.ceil((place + 1) / workers)
        for place, deadline in enumerate(deadlines)
    )


@dataclass(eq=False)
class _Job:
    game: dict[str, Any]
    level: str
    seed: int
    answer_by: float
    answer: asyncio.Future[str] = field(repr=False)
    attempts: int = 0


@dataclass(eq=False)
class _Analysis:
    game: dict[str, Any]
    level: str
    node_limit: int
    time_limit: float
    answer: asyncio.Future[SearchResult] = field(repr=False)
    attempts: int = 0


class SearchPool:
    """``size`` search processes behind one queue. Call :meth:`start` first and :meth:`close`
    at the end. ``launch`` starts one worker and ``clock`` tells the time in seconds (tests
    give their own); deadlines are on that clock."""

    def __init__(
        self,
        size: int,
        *,
        launch: Launcher,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if size < 1:
            raise ValueError("a search pool needs at least one worker")
        self.size = size
        self._launch = launch
        self._clock = clock
        self._queue: deque[_Job] = deque()
        self._analyses: deque[_Analysis] = deque()
        self._analysing = 0  # workers on an analysis now
        self._idle: deque[asyncio.Future[None]] = deque()  # slots waiting for a request
        self._slots: list[asyncio.Task[None]] = []
        self._closed = False

    def start(self) -> None:
        """Start the workers in the background; requests made meanwhile wait for them."""
        if self._slots or self._closed:
            raise RuntimeError("the search pool was started already")
        self._slots = [
            asyncio.create_task(self._serve(), name=f"jarmo-search-slot-{number}")
            for number in range(self.size)
        ]

    def choose(
        self, game: dict[str, Any], level: str, seed: int, *, within: float
    ) -> asyncio.Future[str]:
        """Queue a search for the move in ``game`` (``Game.to_dict()`` output) at ``level``, to
        be answered within ``within`` seconds from now when the queue allows it; await the
        result for the move. Cancelling it withdraws the request.

        Raises ``ValueError`` at once for an unknown level and ``PoolClosed`` once the pool is
        closed. The result raises ``ValueError`` for a request the search refuses,
        ``WorkerDied`` when the position kept taking its worker down, ``PoolClosed`` when the
        pool closes first.
        """
        if self._closed:
            raise PoolClosed("the search pool is closed")
        level_time_limit(level)  # an unknown level is refused here, not in a worker
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._queue.append(_Job(game, level, seed, self._clock() + within, answer))
        self._wake_one()
        return answer

    def analyse(
        self, game: dict[str, Any], level: str, *, node_limit: int, time_limit: float
    ) -> asyncio.Future[SearchResult]:
        """Queue an analysis of ``game`` at ``level`` bounded by ``node_limit`` nodes (and, as a
        guard only, ``time_limit`` seconds), behind every move; await it for the search's whole
        answer. Cancelling it withdraws the request. Raises and fails as :meth:`choose` does.
        """
        if self._closed:
            raise PoolClosed("the search pool is closed")
        level_time_limit(level)
        answer: asyncio.Future[SearchResult] = asyncio.get_running_loop().create_future()
        self._analyses.append(_Analysis(game, level, node_limit, time_limit, answer))
        self._wake_one()
        return answer

    def waiting(self) -> int:
        """How many requests wait for a worker (not counting those being searched)."""
        return len(self._queue)

    async def close(self) -> None:
        """Refuse what waits, stop every worker and wait until their processes have ended."""
        self._closed = True
        while self._queue:
            self._settle(self._queue.popleft(), PoolClosed("the search pool closed"))
        while self._analyses:
            self._settle(self._analyses.popleft(), PoolClosed("the search pool closed"))
        slots, self._slots = self._slots, []
        for slot in slots:
            slot.cancel()
        await asyncio.gather(*slots, return_exceptions=True)

    # -- one worker's loop --------------------------------------------------------------------

    async def _serve(self) -> None:
        worker = await self._replacement()
        job: _Job | _Analysis | None = None
        try:
            while (job := await self._take()) is not None:
                if worker is None:
                    worker = await self._replacement()
                if worker is None:
                    self._settle(job, WorkerDied("no search process could be started"))
                    continue
                if not await self._run(worker, job):
                    self._retry(job)
                    worker = await self._replacement()
        except asyncio.CancelledError:
            if job is not None:
                self._settle(job, PoolClosed("the search pool closed"))
            raise
        finally:
            if worker is not None:
                await worker.close()

    async def _replacement(self) -> Worker | None:
        try:
            return await self._launch()
        except Exception:
            log.exception("could not start a search process")
            return None

    async def _take(self) -> _Job | _Analysis | None:
        while not self._closed:
            while self._queue and self._queue[0].answer.done():  # its caller gave up
                self._queue.popleft()
            if self._queue:
                return self._queue.popleft()
            while self._analyses and self._analyses[0].answer.done():
                self._analyses.popleft()
            if self._analyses and self._analysing < max(1, self.size - 1):
                return self._analyses.popleft()
            woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._idle.append(woken)
            await woken
        return None

    def _wake_one(self) -> None:
        while self._idle:
            woken = self._idle.popleft()
            if not woken.done():
                woken.set_result(None)
                return

    async def _run(self, worker: Worker, job: _Job | _Analysis) -> bool:
        if isinstance(job, _Job):
            return await self._search(worker, job)
        self._analysing += 1
        try:
            return await self._analyse(worker, job)
        finally:
            self._analysing -= 1

    async def _analyse(self, worker: Worker, job: _Analysis) -> bool:
        """Analyse ``job`` on ``worker`` and settle it; False if the worker died meanwhile."""
        request = SearchRequest(job.game, job.level, 0, job.time_limit, job.node_limit)
        return await self._settle_by(worker, job, job.answer, worker.analyse(request))

    async def _search(self, worker: Worker, job: _Job) -> bool:
        """Search ``job`` on ``worker`` and settle it; False if the worker died meanwhile."""
        request = SearchRequest(job.game, job.level, job.seed, self._thinking_time(job))
        return await self._settle_by(worker, job, job.answer, worker.search(request))

    async def _settle_by(
        self,
        worker: Worker,
        job: _Job | _Analysis,
        answer: asyncio.Future[Found],
        asked: Awaitable[Found],
    ) -> bool:
        """Give ``job`` what ``asked`` finds (or its refusal); False if the worker died."""
        try:
            found = await asked
        except WorkerDied as died:
            log.warning("a search process died (%s); starting another", died)
            await worker.close()
            return False
        except ValueError as refused:
            self._settle(job, refused)
        else:
            if not answer.done():
                answer.set_result(found)
        return True

    def _thinking_time(self, job: _Job) -> float:
        deadlines = [job.answer_by, *(waiting.answer_by for waiting in self._queue)]
        share = fair_share(self._clock(), deadlines, self.size) - HANDOVER_SECONDS
        own = level_time_limit(job.level)
        return max(MIN_THINK_SECONDS, share if own is None else min(own, share))

    def _retry(self, job: _Job | _Analysis) -> None:
        job.attempts += 1
        if job.attempts >= MAX_ATTEMPTS:
            self._settle(job, WorkerDied(f"the position took down {job.attempts} workers"))
            return
        if isinstance(job, _Job):
            self._queue.appendleft(job)  # first again: it has waited longest
        else:
            self._analyses.appendleft(job)
        self._wake_one()

    @staticmethod
    def _settle(job: _Job | _Analysis, error: BaseException) -> None:
        if not job.answer.done():
            job.answer.set_exception(error)
