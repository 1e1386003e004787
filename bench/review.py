"""How long a game review takes: a 60-move game (60 plies, both players' moves together, as
the rules count them) reviewed through the service, as the bot does it, with the search pool.

Each run replays the same game in a fresh channel of a temporary SQLite store (so nothing is
read back from an earlier review), ends it by resignation and times ``reviews.review``: every
position searched in the pool at the review's fixed node budget, labelled and stored. The pool
has one process per core, or ``JARMO_COMPUTER_WORKERS`` / ``--workers`` processes; it is
started (and warmed by one search) before the first run.

Run: ``python bench/review.py [--runs 5] [--plies 60] [--workers N]``.
Targets: at most 10 s on the 2-core development machine; at most 3 s with 16 workers.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.ai import choose_move
from bot.ai.review import REVIEW_LEVEL, REVIEW_NODE_LIMIT, search_verdict
from bot.config import WORKERS_ENV
from bot.jarmo import Game
from bot.service import Actor, ChallengeRequest, JarmoService, Place, ServiceConfig, read_action
from bot.service.computer import ProcessThinker
from bot.service.reviews import pool_analyser
from bot.store import open_store

ANN, BOB = Actor(1, "Ann"), Actor(2, "Bob")


def a_long_game(plies: int, rules: ServiceConfig) -> list[str]:
    """The moves of a game that lasts ``plies`` plies without ending: the computer at medium
    against itself, the seed moving on until a game lasts that long."""
    for seed in range(1000):
        game = Game.new(rules.default_ruleset, max_plies=plies + 10)
        rng = random.Random(seed)
        while game.ply < plies and not game.over:
            # A few random moves keep the games apart; the rest are sound.
            if rng.random() < 0.2:
                game.play(rng.choice(game.legal_moves()))
            else:
                game.play(choose_move(game, level="medium", seed=seed + game.ply))
        if game.ply == plies and not game.over:
            return game.history
    raise RuntimeError(f"no game of {plies} plies found")


async def one_run(service: JarmoService, channel: int, moves: list[str]) -> float:
    place = Place(1, channel)
    request = ChallengeRequest(BOB, games=1, side="white")
    view = await service.challenges.post(place, ANN, request)
    await service.challenges.accept(BOB, view.challenge.id)
    for ply, move in enumerate(moves):
        await service.play.move(place, ANN if ply % 2 == 0 else BOB, read_action(move))
    await service.play.resign(place, ANN if len(moves) % 2 == 0 else BOB)
    game_id = await service.reviews.last_game(place)
    start = time.perf_counter()
    await service.reviews.review(place.guild_id, game_id)
    return time.perf_counter() - start


async def bench(runs: int, plies: int, workers: int) -> None:
    rules = ServiceConfig()  # the service's own defaults: its games are played on them
    moves = a_long_game(plies, rules)
    positions = [Game.new(rules.default_ruleset, max_plies=plies + 10)]
    for move in moves:
        positions.append(positions[-1].copy())
        positions[-1].play(move)
    start = time.perf_counter()
    for position in positions[::10]:
        search_verdict(position)
    one = (time.perf_counter() - start) / len(positions[::10])
    thinker = ProcessThinker.open(workers)
    try:
        await pool_analyser(thinker.analyse)(positions[0].to_dict())  # the workers are up
        with tempfile.TemporaryDirectory() as folder:
            async with open_store(Path(folder) / "bench.sqlite3") as store:
                service = JarmoService(store, config=rules)
                service.reviews.use(pool_analyser(thinker.analyse))
                times = [await one_run(service, 100 + run, moves) for run in range(runs)]
    finally:
        await thinker.close()
    print(
        f"review of a {plies}-ply game: {REVIEW_LEVEL}, {REVIEW_NODE_LIMIT} nodes a position, "
        f"{workers} worker(s), {runs} runs"
    )
    print(f"  one position in this process: {one * 1000:.0f} ms")
    print("  runs: " + ", ".join(f"{t:.2f} s" for t in times))
    print(f"  median {statistics.median(times):.2f} s, best {min(times):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    workers = args.workers or int(os.environ.get(WORKERS_ENV, 0)) or os.cpu_count() or 1
    asyncio.run(bench(args.runs, args.plies, workers))


if __name__ == "__main__":
    main()
