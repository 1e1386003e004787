"""Moves per second through the service: one bot process, then two processes on one database,
measured side by side.

Run: ``python bench/cluster.py [--database-url postgresql://...] [--seconds 5] [--runs 3]
[--channels 16] [--sqlite]``. Without a URL a private PostgreSQL server is started
(``tests/postgres.py``, unix socket, ``synchronous_commit=off`` as in ``bench/store.py``);
``--sqlite`` measures one process on a temporary SQLite file instead (a file serves one
process). Each node is a child process with its own service over its own
connections, as a bot process is; its ``--channels`` games each play random moves through
``service.play.move`` (version-checked commit, board rendered), one at a time per channel, a new
match starting when one ends. The nodes set up, then start together and count the moves they
commit in ``--seconds`` of wall time. One and two processes take turns, ``--runs`` times each;
prints each run (with the bot processes' CPU time per move), the medians and their ratio.
Target (issue 17): two processes >= 1.7x one. The ratio needs two idle cores beside the
database server's: on a busy machine, an unchanged CPU time per move shows that the second
process costs no extra work (no waiting on each other), only that the cores were taken.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # PostgreSQL helper

from bot.service import Actor, ChallengeRequest, JarmoService, Place
from bot.store import Store

SECONDS = 5.0
CHANNELS = 16
GAMES_PER_MATCH = 6


async def open_target(target: str) -> Store:
    """The store at ``target``: a ``postgresql://`` URL or an SQLite file."""
    if target.startswith(("postgresql://", "postgres://")):
        from bot.store import open_database  # the PostgreSQL backend (issue 17)

        return await open_database(target)
    from bot.store import SqliteStore

    return await SqliteStore.open(Path(target))


class Table:
    """One channel's match between two players, replayed with random legal moves."""

    def __init__(self, service: JarmoService, place: Place, rng: random.Random) -> None:
        self.service = service
        self.place = place
        self.rng = rng
        self.players = {
            actor.user_id: actor
            for actor in (
                Actor(place.channel_id * 10 + 1, "A"),
                Actor(place.channel_id * 10 + 2, "B"),
            )
        }

    async def start_match(self) -> None:
        challenger, opponent = self.players.values()
        request = ChallengeRequest(opponent, games=GAMES_PER_MATCH, side="white")
        view = await self.service.challenges.post(self.place, challenger, request)
        await self.service.challenges.accept(opponent, view.challenge.id)

    async def play_one(self) -> None:
        record = await self.service.unit.store.games.active(self.place.channel_id)
        if record is None:  # the match ended with the last move
            await self.start_match()
            return
        mover = self.players[record.player_id(record.game.turn) or 0]
        await self.service.play.move(self.place, mover, self.rng.choice(record.game.legal_moves()))


async def node(
    target: str, guild: int, channels: int, seconds: float, start: Barrier
) -> tuple[int, float]:
    """Set up ``channels`` matches in server ``guild``, wait at ``start`` for the other nodes,
    then play for ``seconds``; returns the moves committed and the CPU seconds this process
    spent on them (all its threads)."""
    store = await open_target(target)
    try:
        service = JarmoService(store, rng=random.Random(guild))
        tables = [
            Table(service, Place(guild, guild * 1_000 + c), random.Random(c))
            for c in range(channels)
        ]
        for table in tables:
            await table.start_match()
        await asyncio.to_thread(start.wait)
        stop = time.perf_counter() + seconds
        cpu = time.process_time()
        moves = 0

        async def keep_playing(table: Table) -> None:
            nonlocal moves
            while time.perf_counter() < stop:
                await table.play_one()
                moves += 1

        await asyncio.gather(*(keep_playing(t) for t in tables))
        return moves, time.process_time() - cpu
    finally:
        await store.close()


def _node_process(
    target: str,
    guild: int,
    channels: int,
    seconds: float,
    start: Barrier,
    out: Queue[tuple[int, float]],
) -> None:
    out.put(asyncio.run(node(target, guild, channels, seconds, start)))


def measure(
    target: str, processes: int, run: int, channels: int, seconds: float
) -> tuple[float, float]:
    """Moves per second of ``processes`` nodes playing at the same time (each its own servers),
    and the bot processes' CPU milliseconds per move (the database server's not counted)."""
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(processes + 1), context.Queue()
    guilds = [(run * 10 + n + 1) << 22 for n in range(processes)]  # fresh channels every run
    children = [
        context.Process(target=_node_process, args=(target, g, channels, seconds, start, out))
        for g in guilds
    ]
    for child in children:
        child.start()
    start.wait(timeout=120)  # every node has opened its store and started its matches
    results = [out.get(timeout=seconds + 120) for _ in children]
    moves, cpu = sum(m for m, _ in results), sum(c for _, c in results)
    for child in children:
        child.join(30)
        if child.exitcode != 0:
            raise SystemExit(f"a node failed with exit code {child.exitcode}")
    return moves / seconds, cpu * 1_000 / max(moves, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("JARMO_DATABASE_URL"))
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--channels", type=int, default=CHANNELS, help="games per process")
    parser.add_argument("--sqlite", action="store_true", help="one process on an SQLite file")
    args = parser.parse_args()
    print(
        f"{args.channels} games per process, {args.seconds:.0f} s per run; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as folder:
        if args.sqlite:
            print("SQLite (one process only)")
            compare(str(Path(folder) / "bench.sqlite3"), (1,), args)
        elif args.database_url:
            compare(args.database_url, (1, 2), args)
        else:
            from postgres import start_server

            server = start_server("-c synchronous_commit=off -c listen_addresses=''")
            try:
                compare(server.fresh_database(), (1, 2), args)
            finally:
                server.stop()


def compare(target: str, layouts: tuple[int, ...], args: argparse.Namespace) -> None:
    """Take turns between the layouts (numbers of processes); print the runs, the medians and
    the ratio of two processes to one."""
    rates: dict[int, list[float]] = {n: [] for n in layouts}
    costs: dict[int, list[float]] = {n: [] for n in layouts}
    for run in range(args.runs):
        for processes in layouts:
            rate, cost = measure(
                target, processes, run * 2 + processes, args.channels, args.seconds
            )
            rates[processes].append(rate)
            costs[processes].append(cost)
            print(
                f"run {run + 1}: {processes} process(es): {rate:,.0f} moves/s, "
                f"{cost:.1f} ms CPU per move"
            )
    medians = {n: statistics.median(r) for n, r in rates.items()}
    for processes, median in medians.items():
        print(
            f"median, {processes} process(es): {median:,.0f} moves/s, "
            f"{statistics.median(costs[processes]):.1f} ms CPU per move"
        )
    if 2 in medians:
        print(f"two processes / one: {medians[2] / medians[1]:.2f}x (target >= 1.7x)")


if __name__ == "__main__":
    main()
