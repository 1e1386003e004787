"""The computer under load: how long after a human's move the computer's answer is stored.

Through the service, as the bot does it: a SQLite store, ``ComputerOpponent`` over the
``ProcessThinker`` pool (one process per core unless ``--workers``), ``hard`` games. With 1, 3
and 6 games at once, each human moves again as soon as the computer has answered, so the games
keep the pool as busy as they can. A time runs from the human's ``play.move`` (stored and
drawn) to the end of ``computer.reply`` (searched, stored and drawn); "search" is the part
spent waiting for the pool. ``--baseline`` adds the bot as it was before the pool: one process,
every search its full 2 s, one after the other.

Run: ``python bench/ai_load.py [--answers 24] [--workers N] [--baseline]``.
Target: every answer within 2.5 s of the human's move, with 6 games on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from bot.ai import SearchPool, search_pool
from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.service.computer import ANSWER_WITHIN_SECONDS, ComputerOpponent, ProcessThinker, Thinker
from bot.store import open_store

ROBOT = Actor(999, "Jarmo Bot", is_bot=True)
GAME_COUNTS = (1, 3, 6)


class TimedThinker:
    """A thinker with the time spent waiting for each answer recorded."""

    def __init__(self, inner: Thinker) -> None:
        self.inner = inner
        self.waits: list[float] = []

    async def __call__(self, data: dict[str, Any], level: str, seed: int) -> str:
        start = time.perf_counter()
        try:
            return await self.inner(data, level, seed)
        finally:
            self.waits.append(time.perf_counter() - start)


def thinker_before_the_pool(pool: SearchPool) -> Thinker:
    """The baseline: a deadline so far away that every search gets its level's full time."""

    def think(data: dict[str, Any], level: str, seed: int) -> Awaitable[str]:
        return pool.choose(data, level, seed, within=1e9)

    return think


async def one_load(
    games: int, answers: int, workers: int, baseline: bool
) -> dict[str, list[float]]:
    """``answers`` answer times (and search waits) over ``games`` simultaneous games."""
    rng = random.Random(games)
    with tempfile.TemporaryDirectory() as folder:
        async with open_store(Path(folder) / "bench.sqlite3") as store:
            service = JarmoService(store, rng=random.Random(games)).with_computer(ROBOT)
            pool = search_pool(1 if baseline else workers)
            pool.start()
            thinker = TimedThinker(
                thinker_before_the_pool(pool) if baseline else ProcessThinker(pool)
            )
            computer = ComputerOpponent(service, thinker)
            times: list[float] = []
            per_game = max(1, answers // games)

            async def human(place: Place, player: Actor) -> None:
                request = ChallengeRequest(ROBOT, side="white", level="hard")
                await computer.start(place, player, request)
                while len(times) < per_game * games:
                    moves = await service.play.move_suggestions(
                        place, player.user_id, "", limit=None
                    )
                    start = time.perf_counter()
                    report = await service.play.move(place, player, read_action(rng.choice(moves)))
                    if not report.ended:
                        reply = await computer.reply(place)
                        times.append(time.perf_counter() - start)
                        if reply is None or not reply.ended:
                            continue
                    await computer.start(place, player, request)  # the next game at once

            try:
                await asyncio.gather(
                    *(human(Place(1, 100 + g), Actor(10 + g, f"Human {g}")) for g in range(games))
                )
            finally:
                await pool.close()
            return {"answer": times, "search": thinker.waits}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def row(label: str, games: int, results: dict[str, list[float]]) -> str:
    answer, search = results["answer"], results["search"]
    within = sum(t <= ANSWER_WITHIN_SECONDS for t in answer) / len(answer)
    around = statistics.median(a - s for a, s in zip(answer, search, strict=False))
    return (
        f"{label:<22} {games:>5} {len(answer):>7} {statistics.median(answer):>7.2f}"
        f" {percentile(answer, 0.99):>7.2f} {max(answer):>7.2f} {within:>8.0%}"
        f" {statistics.median(search):>8.2f} {around:>8.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=24, help="computer answers per load")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--baseline", action="store_true", help="also one process, no deadline")
    args = parser.parse_args()
    print(f"{len(os.sched_getaffinity(0))} cores, pool of {args.workers}; seconds, hard level")
    print(
        f"{'':<22} {'games':>5} {'answers':>7} {'p50':>7} {'p99':>7} {'max':>7}"
        f" {'<=2.5s':>8} {'search50':>8} {'around50':>8}"
    )
    setups = [(f"pool of {args.workers}", False)]
    if args.baseline:
        setups.append(("one process (before)", True))
    for games in GAME_COUNTS:
        for label, baseline in setups:
            results = asyncio.run(one_load(games, args.answers, args.workers, baseline))
            print(row(label, games, results), flush=True)


if __name__ == "__main__":
    main()
