"""Moves per second through the service: one bot process, then two processes on one database,
measured side by side; with the CPU each move costs the bot and the database server.

Run: ``python bench/cluster.py [--database-url postgresql://...] [--seconds 5] [--runs 3]
[--channels 16] [--cpu-per-process F] [--render] [--sqlite]``. Without a URL a private
PostgreSQL server is started (``tests/postgres.py``, unix socket, ``synchronous_commit=off`` as in
``bench/store.py``); ``--sqlite`` measures one process on a temporary SQLite file instead (a
file serves one process). Each node is a child process with its own service over its own
connections, as a bot process is; its ``--channels`` games each play random moves through
``service.play.move`` (the checks and the version-checked commit; with ``--render`` also the
board image, which the front end draws for each move), one at a time per channel, a new match
starting when one ends. The nodes set up, then start together and count the moves they
commit in ``--seconds`` of wall time. One and two processes take turns, ``--runs`` times each;
prints each run, the medians and their ratio.

Target: two processes >= 1.7x one. Each run prints the bot processes' CPU per move
and, for a server on this machine, the server's (from ``/proc``). From these comes the ceiling
of the ratio on this machine: min(2, C / ((b + p) * r1)) for C cores, b and p the bot's and the
server's CPU seconds per move and r1 one process's moves per second. When one process with its
server already keeps the cores busy, no second process can double the rate, however little the
two get in each other's way.

``--cpu-per-process F`` (default 0.5; 0 turns it off) then measures again with each bot process
confined to F of a core (a cgroup v1 quota, ``bench/_cpu_quota.py``): the machine the 1.7x
target describes, where each bot process has its own core budget and the database does not
compete for it. There, a ratio near 2 says the processes do not slow each other down.
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
from contextlib import nullcontext
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # PostgreSQL helper

from _cpu_quota import CpuQuota, cpu_quotas
from _server_cpu import postmaster_pid, server_cpu_seconds

from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.store import Store

SECONDS = 5.0
CHANNELS = 16
GAMES_PER_MATCH = 6


async def open_target(target: str) -> Store:
    """The store at ``target``: a ``postgresql://`` URL or an SQLite file."""
    if target.startswith(("postgresql://", "postgres://")):
        from bot.store import open_database  # the PostgreSQL backend

        return await open_database(target)
    from bot.store import SqliteStore

    return await SqliteStore.open(Path(target))


class Table:
    """One channel's match between two players, replayed with random legal moves."""

    def __init__(
        self, service: JarmoService, place: Place, rng: random.Random, render: bool
    ) -> None:
        self.service = service
        self.render = render
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
        record = await self.service.kit.store.games.active(self.place.channel_id)
        if record is None:  # the match ended with the last move
            await self.start_match()
            return
        mover = self.players[record.player_id(record.engine.turn) or 0]
        move = self.rng.choice(record.engine.legal_moves())
        report = await self.service.play.move(self.place, mover, read_action(move))
        if self.render:
            await report.board.image.png()


async def node(
    target: str,
    guild: int,
    args: argparse.Namespace,
    start: Barrier,
    out: Queue[tuple[int, float]],
) -> None:
    """Set up ``args.channels`` matches in server ``guild``, wait at ``start`` for the other
    nodes, then play for ``args.seconds``; puts the moves committed and the CPU seconds this
    process spent on them (all its threads) on ``out``, before closing its connections (so the
    server's processes for them are still there when the parent reads the server's CPU)."""
    store = await open_target(target)
    try:
        service = JarmoService(store, rng=random.Random(guild))
        tables = [
            Table(service, Place(guild, guild * 1_000 + c), random.Random(c), args.render)
            for c in range(args.channels)
        ]
        for table in tables:
            await table.start_match()
        await asyncio.to_thread(start.wait)
        stop = time.perf_counter() + args.seconds
        cpu = time.process_time()
        moves = 0

        async def keep_playing(table: Table) -> None:
            nonlocal moves
            while time.perf_counter() < stop:
                await table.play_one()
                moves += 1

        await asyncio.gather(*(keep_playing(t) for t in tables))
        out.put((moves, time.process_time() - cpu))
    finally:
        await store.close()


def _node_process(
    target: str,
    guild: int,
    args: argparse.Namespace,
    start: Barrier,
    out: Queue[tuple[int, float]],
) -> None:
    asyncio.run(node(target, guild, args, start, out))


class Run(NamedTuple):
    """One measurement: moves per second, and CPU milliseconds per move of the bot processes
    and of the database server (None when the server is not on this machine)."""

    rate: float
    bot_ms: float
    server_ms: float | None


def measure(
    target: str,
    processes: int,
    run: int,
    args: argparse.Namespace,
    quotas: list[CpuQuota] | None,
    postmaster: int | None,
) -> Run:
    """``processes`` nodes playing at the same time (each its own servers), each confined to
    its own quota if ``quotas`` are given."""
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(processes + 1), context.Queue()
    guilds = [(run * 10 + n + 1) << 22 for n in range(processes)]  # fresh channels every run
    children = [
        context.Process(target=_node_process, args=(target, g, args, start, out)) for g in guilds
    ]
    for n, child in enumerate(children):
        child.start()
        if quotas is not None and child.pid is not None:
            quotas[n].add(child.pid)
    start.wait(timeout=120)  # every node has opened its store and started its matches
    server_before = server_cpu_seconds(postmaster) if postmaster else 0.0
    results = [out.get(timeout=args.seconds + 120) for _ in children]
    server_cpu = server_cpu_seconds(postmaster) - server_before if postmaster else None
    moves, cpu = sum(m for m, _ in results), sum(c for _, c in results)
    for child in children:
        child.join(30)
        if child.exitcode != 0:
            raise SystemExit(f"a node failed with exit code {child.exitcode}")
    per_move = 1_000 / max(moves, 1)
    return Run(
        moves / args.seconds,
        cpu * per_move,
        None if server_cpu is None else server_cpu * per_move,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("JARMO_DATABASE_URL"))
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--channels", type=int, default=CHANNELS, help="games per process")
    parser.add_argument(
        "--cpu-per-process",
        type=float,
        default=0.5,
        help="then measure again with each bot process confined to this share of a core (0: no)",
    )
    parser.add_argument("--render", action="store_true", help="draw each move's board image")
    parser.add_argument("--sqlite", action="store_true", help="one process on an SQLite file")
    args = parser.parse_args()
    print(
        f"{args.channels} games per process, {args.seconds:.0f} s per run; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as folder:
        if args.sqlite:
            print("SQLite (one process only)")
            compare(str(Path(folder) / "bench.sqlite3"), (1,), args, None, 0)
        elif args.database_url:
            on_postgres(args.database_url, args)
        else:
            from postgres import start_server

            server = start_server("-c synchronous_commit=off -c listen_addresses=''")
            try:
                on_postgres(server.fresh_database(), args)
            finally:
                server.stop()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


def on_postgres(url: str, args: argparse.Namespace) -> None:
    """One and two processes, freely; then, if asked, each confined to its CPU quota."""
    postmaster = asyncio.run(postmaster_pid(url))
    if postmaster is None:
        print("the server is not on this machine: its CPU per move is not measured")
    compare(url, (1, 2), args, postmaster, 0)
    if args.cpu_per_process > 0:
        print(f"each bot process confined to {args.cpu_per_process:g} of a core:")
        compare(url, (1, 2), args, postmaster, 1, cores=args.cpu_per_process)


def compare(
    target: str,
    layouts: tuple[int, ...],
    args: argparse.Namespace,
    postmaster: int | None,
    series: int,
    *,
    cores: float = 0,
) -> None:
    """Take turns between the layouts (numbers of processes); print the runs, the medians, the
    ratio of two processes to one and, without quotas, its ceiling on this machine."""
    runs: dict[int, list[Run]] = {n: [] for n in layouts}
    for run in range(args.runs):
        for processes in layouts:
            number = series * 100 + run * 2 + processes  # fresh channels in every run
            confined = cpu_quotas(processes, cores, label="jarmo-bench") if cores else None
            with confined or nullcontext() as quotas:
                if cores and quotas is None:
                    return  # cpu_quotas said why
                measured = measure(target, processes, number, args, quotas, postmaster)
            runs[processes].append(measured)
            print(f"run {run + 1}: {processes} process(es): {describe(measured)}")
    medians = {n: median_run(r) for n, r in runs.items()}
    for processes, median in medians.items():
        print(f"median, {processes} process(es): {describe(median)}")
    if 2 not in medians:
        return
    ratio = medians[2].rate / medians[1].rate
    one = medians[1]
    if cores or one.server_ms is None:
        print(f"two processes / one: {ratio:.2f}x (target >= 1.7x)")
        return
    cpus = os.cpu_count() or 1
    ceiling = min(2.0, cpus / ((one.bot_ms + one.server_ms) / 1_000 * one.rate))
    print(
        f"two processes / one: {ratio:.2f}x (target >= 1.7x); ceiling on this machine"
        f" {ceiling:.2f}x = min(2, {cpus} cores / (({one.bot_ms:.1f} + {one.server_ms:.1f}) ms"
        f" x {one.rate:,.0f} moves/s))"
    )


def median_run(runs: list[Run]) -> Run:
    """Each figure's median over ``runs``."""
    servers = [r.server_ms for r in runs if r.server_ms is not None]
    return Run(
        statistics.median(r.rate for r in runs),
        statistics.median(r.bot_ms for r in runs),
        statistics.median(servers) if servers else None,
    )


def describe(run: Run) -> str:
    server = "" if run.server_ms is None else f", server {run.server_ms:.2f} ms"
    return f"{run.rate:,.0f} moves/s, CPU per move: bot {run.bot_ms:.2f} ms{server}"


if __name__ == "__main__":
    main()
