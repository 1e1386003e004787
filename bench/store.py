"""Speed of the store on SQLite and PostgreSQL side by side, with 10,000 finished games already
in the database.

Run: ``.venv/bin/python bench/store.py [--finished N] [--runs R] [--moves M] [--dir D]
[--backends sqlite,postgresql] [--postgres-url URL]``.

Without ``--postgres-url`` a private PostgreSQL 15 server is started (``tests/postgres.py``),
reached over a unix socket, with its durable defaults (``fsync``, ``synchronous_commit=on``): a
committed move survives a power cut. The PostgreSQL database gets the same preloaded games
(copied with ``migrate-store``'s copy). Runs alternate between the backends, so both see the same
machine load; compare the ratios, not the absolute figures, on a busy machine.

Each PostgreSQL run is followed by a ceiling measured on the same server and pool size: 8 tasks
committing a one-row ``UPDATE`` each, straight on ``asyncpg`` (one round trip, one durable
commit, nothing of the bot's). Its median and the store's share of it are printed.

* writes: 8 tasks record random moves concurrently, each to its own game (a new match is
  started in the task's channel whenever its game ends); each task's clock advances a few
  seconds per move, as a game's does. Prints committed moves per second (wall time, including
  move generation and match set-up) and the latency of each ``games.record_move`` /
  ``games.end`` call, waiting for the writer included (median, p99, max); the CPU per move of
  this process and of a PostgreSQL server on this machine (``/proc``); and for PostgreSQL the
  WAL written per move and the share of the games updates that were HOT (heap-only: no index
  written).
* loads: ``active_game(channel)`` of 500 active games of 1-199 plies, first load in a freshly
  opened store (the action list is replayed) and again (the snapshot is trusted); and the first
  ``get_game`` of 500 finished games.

Targets: >= 1,000 moves/s with p99 < 5 ms and max < 50 ms for the writes, and a
median ``active_game`` under 1 ms. WAL with ``synchronous=NORMAL``. Issue 17 (PostgreSQL over a
local socket): >= 2,000 moves/s, p99 <= 10 ms, max <= 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # PostgreSQL helper

from _server_cpu import postmaster_pid, server_cpu_seconds

from bot._migrate_cli import migrate_store
from bot.jarmo import Game
from bot.store import (
    ChallengeOptions,
    FinalMove,
    GameEnding,
    GameRecord,
    MatchOver,
    NewChallenge,
    Store,
    open_any,
    open_store,
)

T0 = datetime(2025, 3, 1, tzinfo=UTC)
GUILD, WHITE, BLACK = 1, 101, 202
WRITERS = 8
ACTIVE = 500


def random_game(rng: random.Random, stop_at: int | None = None) -> Game:
    """A random game, played to its end or for ``stop_at`` plies."""
    game = Game.new(ruleset="classic", max_plies=200)
    while not game.over and (stop_at is None or len(game.history) < stop_at):
        game.play(rng.choice(game.legal_moves()))
    return game


def long_game(rng: random.Random, plies: int) -> Game:
    """A game kept alive for ``plies`` plies by avoiding moves that end it."""
    game = Game.new(ruleset="classic", max_plies=200)
    while len(game.history) < plies:
        moves = game.legal_moves()
        rng.shuffle(moves)
        move = next((m for m in moves if not _ends(game, m)), None)
        if move is None:  # cornered: start again
            return long_game(rng, plies)
        game.play(move)
    return game


def _ends(game: Game, move: str) -> bool:
    trial = game.copy()
    trial.play(move)
    return trial.over


def populate(path: Path, finished: int, rng: random.Random) -> None:
    """Bulk-insert ``finished`` finished one-game matches and ``ACTIVE`` active games.

    Raw SQL in one transaction: going through the store would take minutes of setup.
    """
    asyncio.run(_create(path))
    at = T0.isoformat(timespec="microseconds")
    with sqlite3.connect(path) as db:
        for n in range(finished + ACTIVE):
            active = n >= finished
            game = long_game(rng, rng.randint(1, 199)) if active else random_game(rng)
            channel = (
                1_000_000 + n - finished if active else 10 + n % 50
            )  # old games share 50 channels
            match_id = db.execute(
                "INSERT INTO matches (guild_id, channel_id, first_white_id, first_black_id,"
                " ruleset, layout, game_count, max_plies, state, created_at)"
                " VALUES (?, ?, ?, ?, 'classic', 'traditional', 1, 200, ?, ?)",
                (GUILD, channel, WHITE, BLACK, "running" if active else "finished", at),
            ).lastrowid
            points = game.points()
            game_id = db.execute(
                "INSERT INTO games (match_id, game_index, guild_id, channel_id, white_id,"
                " black_id, status, version, snapshot, winner, points_white, points_black,"
                " termination, started_at, last_activity)"
                " VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id, GUILD, channel, WHITE, BLACK, "active" if active else "finished",
                    len(game.history), json.dumps(game.to_dict()),
                    None if active else game.winner(), None if active else points["white"],
                    None if active else points["black"], None if active else "camp", at, at,
                ),
            ).lastrowid  # fmt: skip
            db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, ply, WHITE if ply % 2 else BLACK, move, at)
                    for ply, move in enumerate(game.history, 1)
                ],
            )


async def _create(path: Path) -> None:
    async with open_store(path):
        pass


def summary(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {statistics.median(ordered):6.3f} ms  p99 {p99:6.3f} ms"
        f"  max {ordered[-1]:6.3f} ms  (n={len(ordered)})"
    )


async def start(store: Store, channel: int, now: datetime = T0) -> GameRecord:
    """A fresh one-game match in ``channel``, challenged and accepted at ``now``."""
    new = NewChallenge(GUILD, channel, WHITE, BLACK, ChallengeOptions(), now + timedelta(hours=1))
    posted = await store.challenges.create(new, now=now)
    fresh = Game.new(ruleset="classic", max_plies=200)
    _, record = await store.challenges.accept(
        posted.id, first_white_id=WHITE, first_game=fresh, now=now
    )
    return record


async def writer(
    store: Store, channel: int, moves: int, rng: random.Random, latencies: list[float]
) -> None:
    """Record ``moves`` random moves in ``channel``, timing each commit. The store's clock
    advances between moves as a game's does, so each move changes the game's last activity
    (what a database has to index, or not)."""
    record = await start(store, channel)
    now = T0
    for _ in range(moves):
        now += timedelta(seconds=rng.uniform(2, 60))
        game = record.engine.copy()
        mover = record.player_id(game.turn)
        move = game.play(rng.choice(game.legal_moves()))
        began = time.perf_counter()
        if game.over:
            outcome = game.outcome()
            assert outcome is not None
            ending = GameEnding(
                status="finished", winner=outcome.winner, points=outcome.points,
                termination=outcome.termination.value, game=game, then=MatchOver("finished"),
                final_move=FinalMove(mover, move),
            )  # fmt: skip
            await store.games.end(record.id, ending, expected_version=record.version, now=now)
            latencies.append((time.perf_counter() - began) * 1000)
            record = await start(store, channel, now)
        else:
            record = await store.games.record_move(
                record.id, expected_version=record.version, player_id=mover, move=move,
                game=game, now=now,
            )  # fmt: skip
            latencies.append((time.perf_counter() - began) * 1000)


async def write_run(target: Path | str, run: int, moves: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    async with open_any(target) as store:
        began = time.perf_counter()
        await asyncio.gather(
            *(
                writer(
                    store, 2_000_000 + run * 100 + w, moves, random.Random(run * 100 + w), latencies
                )
                for w in range(WRITERS)
            )
        )
        elapsed = time.perf_counter() - began
    return WRITERS * moves / elapsed, latencies


async def server_counters(url: str) -> tuple[int, int, int]:
    """The server's WAL position (bytes), and the updates and HOT updates of ``games``."""
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow(
            "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS wal,"
            " n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relid = 'games'::regclass"
        )
        return row["wal"], row["n_tup_upd"], row["n_tup_hot_upd"]
    finally:
        await connection.close()


async def wal_and_hot(url: str, before: tuple[int, int, int], moves: int) -> tuple[float, float]:
    """WAL bytes per move and the HOT share of the games updates since ``before``. The WAL is
    read at once; the update counts arrive when the store's server processes have ended (a
    moment after the store closed), so they are waited for, up to 10 s."""
    wal = (await server_counters(url))[0] - before[0]
    deadline = time.perf_counter() + 10
    while True:
        _, updates, hot = await server_counters(url)
        updates, hot = updates - before[1], hot - before[2]
        if updates >= moves or time.perf_counter() > deadline:
            return wal / moves, hot / max(updates, 1)
        await asyncio.sleep(0.05)


async def ceiling_run(url: str, commits: int) -> tuple[float, list[float]]:
    """The plain asyncpg ceiling: ``WRITERS`` tasks, each committing ``commits`` one-row
    updates of its own row on a pool of ``WRITERS`` connections."""
    latencies: list[float] = []
    async with asyncpg.create_pool(url, min_size=WRITERS, max_size=WRITERS) as pool:
        await pool.execute(
            "CREATE TABLE IF NOT EXISTS bench_ceiling (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)"
        )
        await pool.execute(
            "INSERT INTO bench_ceiling SELECT g, 0 FROM generate_series(1, $1) AS g"
            " ON CONFLICT DO NOTHING",
            WRITERS,
        )

        async def commit_many(row: int) -> None:
            for _ in range(commits):
                began = time.perf_counter()
                await pool.execute("UPDATE bench_ceiling SET n = n + 1 WHERE id = $1", row)
                latencies.append((time.perf_counter() - began) * 1000)

        began = time.perf_counter()
        await asyncio.gather(*(commit_many(row) for row in range(1, WRITERS + 1)))
        elapsed = time.perf_counter() - began
    return WRITERS * commits / elapsed, latencies


async def load_run(target: Path | str, finished: int, seed: int) -> dict[str, list[float]]:
    """Time ``active_game`` cold and warm, and ``get_game`` of finished games cold."""
    channels = [1_000_000 + n for n in range(ACTIVE)]
    finished_ids = random.Random(seed).sample(range(1, finished + 1), min(ACTIVE, finished))
    times: dict[str, list[float]] = {"cold": [], "warm": [], "finished": []}

    async def timed(kind: str, load: Awaitable[object]) -> None:
        began = time.perf_counter()
        assert await load is not None
        times[kind].append((time.perf_counter() - began) * 1000)

    async with open_any(target) as store:
        for channel in channels:  # first load in this process: replayed
            await timed("cold", store.games.active(channel))
        for _ in range(4):
            for channel in channels:  # checked already: snapshot trusted
                await timed("warm", store.games.active(channel))
        for game_id in finished_ids:
            await timed("finished", store.games.get(game_id))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=10_000, help="finished games to preload")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=500, help="moves per writer per run")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the SQLite file")
    parser.add_argument("--backends", default="sqlite,postgresql", help="comma-separated")
    parser.add_argument("--postgres-url", default=None, help="an empty database to use")
    args = parser.parse_args()
    backends = args.backends.split(",")

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "bench.sqlite3"
        began = time.perf_counter()
        populate(path, args.finished, random.Random(1))
        print(
            f"SQLite {sqlite3.sqlite_version}, WAL, synchronous=NORMAL; preloaded {args.finished}"
            f" finished + {ACTIVE} active games in {time.perf_counter() - began:.1f} s;"
            f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (tails follow it)"
        )
        targets: dict[str, Path | str] = {"sqlite": path}
        server = None
        if "postgresql" in backends:
            url = args.postgres_url
            if url is None:
                from postgres import start_server

                server = start_server("-c listen_addresses=''")
                url = server.fresh_database(migrated=False)
            began = time.perf_counter()
            asyncio.run(migrate_store(path, url))
            print(f"PostgreSQL: copied the same games in {time.perf_counter() - began:.1f} s")
            targets["postgresql"] = url
        try:
            measure({name: targets[name] for name in backends}, args)
        finally:
            if server is not None:
                server.stop()


def measure(targets: dict[str, Path | str], args: argparse.Namespace) -> None:
    """Alternate the backends run by run; print each run, then the medians and the ratios."""
    rates: dict[str, list[float]] = {name: [] for name in targets}
    commits: dict[str, list[float]] = {name: [] for name in targets}
    ceiling: list[float] = []
    wal_per_move: list[float] = []
    hot_shares: list[float] = []
    # CPU per move: the bench's own process (the store's threads, and SQLite itself) and the
    # PostgreSQL server's processes; steadier than the rates on a shared machine.
    cpu: dict[str, list[float]] = {name: [] for name in targets}
    server_cpu: list[float] = []
    postmaster = None
    if "postgresql" in targets:
        postmaster = asyncio.run(postmaster_pid(str(targets["postgresql"])))
    moves = WRITERS * args.moves
    for run in range(args.runs):
        for name, target in targets.items():
            if name == "postgresql":
                before = asyncio.run(server_counters(str(target)))
            cpu_before = time.process_time()
            server_before = server_cpu_seconds(postmaster) if postmaster else 0.0
            rate, latencies = asyncio.run(write_run(target, run, args.moves))
            cpu[name].append((time.process_time() - cpu_before) * 1000 / moves)
            rates[name].append(rate)
            commits[name] += latencies
            print(f"{name:10} writes run {run}: {rate:7.0f} moves/s  commit {summary(latencies)}")
            if name == "postgresql" and postmaster:
                server_cpu.append((server_cpu_seconds(postmaster) - server_before) * 1000 / moves)
            if name == "postgresql":
                wal, hot = asyncio.run(wal_and_hot(str(target), before, WRITERS * args.moves))
                wal_per_move.append(wal)
                hot_shares.append(hot)
                print(f"postgresql run {run}: {wal:,.0f} WAL bytes per move, {hot:.0%} HOT updates")
                rate, latencies = asyncio.run(ceiling_run(str(target), args.moves))
                ceiling.append(rate)
                print(f"ceiling    writes run {run}: {rate:7.0f} commits/s {summary(latencies)}")
    for name in targets:
        median = statistics.median(rates[name])
        commit = summary(commits[name])
        print(f"{name:10} writes all runs: median {median:.0f} moves/s  commit {commit}")
        server = ""
        if name == "postgresql" and server_cpu:
            server = f", the server {statistics.median(server_cpu):.2f} ms"
        print(
            f"{name:10} CPU per move (median of runs): this process"
            f" {statistics.median(cpu[name]):.2f} ms{server}"
        )
    if wal_per_move:
        print(
            f"postgresql all runs: median {statistics.median(wal_per_move):,.0f} WAL bytes per"
            f" move, {statistics.median(hot_shares):.0%} of the games updates HOT"
        )
    if ceiling:
        top, ours = statistics.median(ceiling), statistics.median(rates["postgresql"])
        print(
            f"ceiling    plain asyncpg one-row commits: median {top:.0f}/s; the store's moves reach"
            f" {ours / top:.0%} of it"
        )
    if len(targets) == 2:
        first, second = (statistics.median(rates[name]) for name in targets)
        names = list(targets)
        print(f"ratio {names[1]}/{names[0]} moves/s (median of runs): {second / first:.2f}")

    labels = {
        "cold": "active_game, first load (replay)",
        "warm": "active_game, trusted snapshot ",
        "finished": "get_game finished, first load ",
    }
    for name, target in targets.items():
        totals: dict[str, list[float]] = {kind: [] for kind in labels}
        for run in range(args.runs):
            times = asyncio.run(load_run(target, args.finished, run))
            for kind in labels:
                totals[kind] += times[kind]
        for kind, label in labels.items():
            print(f"{name:10} loads all runs: {label} {summary(totals[kind])}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
