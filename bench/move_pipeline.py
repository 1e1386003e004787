"""In-process latency of ``/jarmo move``: from the handler being called to the response payload
being ready (parse, validate, commit, render, embed + file built), without any network.

Run: ``python bench/move_pipeline.py [--channels 100] [--moves 1000] [--runs 3]``.
Moves are spread across concurrently running channel games, as on a busy server. Prints p50,
p99 and max per run and the median over runs. Target: p50 ≤ 15 ms, p99 ≤ 40 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.cogs.replies import report_message
from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.store import open_store


async def one_run(channels: int, moves: int, in_flight: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with open_store(Path(folder) / "bench.sqlite3") as store:
            service = JarmoService(store, rng=random.Random(seed))
            places = [Place(1, 1000 + c) for c in range(channels)]
            players = {}
            for c, place in enumerate(places):
                a, b = Actor(10 * c + 1, f"A{c}"), Actor(10 * c + 2, f"B{c}")
                request = ChallengeRequest(b, games=6, side="white")
                view = await service.challenges.post(place, a, request)
                await service.challenges.accept(b, view.challenge.id)
                players[place] = {a.user_id: a, b.user_id: b}
            latencies: list[float] = []
            turn_order = [place for _ in range(max(1, moves // channels)) for place in places]

            async def play(place: Place) -> None:
                record = await store.games.active(place.channel_id)
                mover = players[place][record.player_id(record.engine.turn)]
                move = rng.choice(record.engine.legal_moves())
                start = time.perf_counter()
                report = await service.play.move(place, mover, read_action(move))
                await report_message(report)
                latencies.append(time.perf_counter() - start)

            # Moves arrive interleaved across the channels, ``in_flight`` at a time.
            for i in range(0, len(turn_order), in_flight):
                await asyncio.gather(*(play(place) for place in turn_order[i : i + in_flight]))
            return latencies


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--in-flight",
        type=int,
        default=1,
        help="moves being handled at the same moment (other channels' moves)",
    )
    args = parser.parse_args()
    p50s, p99s = [], []
    for run in range(args.runs):
        lat = asyncio.run(one_run(args.channels, args.moves, args.in_flight, seed=run))
        p50, p99 = percentile(lat, 0.5) * 1e3, percentile(lat, 0.99) * 1e3
        p50s.append(p50)
        p99s.append(p99)
        print(
            f"run {run + 1}: {len(lat)} moves over {args.channels} channels, "
            f"{args.in_flight} in flight: "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(lat) * 1e3:.1f} ms"
        )
    print(
        f"median over {args.runs} runs: p50 {statistics.median(p50s):.1f} ms "
        f"(target ≤ 15), p99 {statistics.median(p99s):.1f} ms (target ≤ 40)"
    )


if __name__ == "__main__":
    main()
