"""A player's unfinished games in every server (``games.active_of_player``, the read behind
``/jarmo games``) on a database of 100,000 games, on SQLite and PostgreSQL side by side.

Run: ``.venv/bin/python bench/players_games.py [--games N] [--runs R] [--cold C] [--dir D]
[--backends sqlite,postgresql] [--postgres-url URL]``.

The database holds ``--games`` one-game matches in 2,000 servers between 20,000 players, a
fifth of them active. The player measured has 200 active games in 50 servers (4 in each,
White in half of them), each 40 plies in, with its action list. Without ``--postgres-url`` a
private PostgreSQL server is started (``tests/postgres.py``, unix socket) and gets the same
rows through ``migrate-store``'s copy, then an ``ANALYZE`` (as autovacuum would soon do).

Prints each backend's plan for the read, then:

* cold: the first read in a freshly opened store, ``--cold`` times (each game's action list is
  replayed once, as after a restart);
* warm: ``--runs`` reads in one store (each snapshot trusted): median, p99, max;
* /jarmo games: ``--runs`` calls of the whole use case (``service.player_games.page``: the
  read, the order, the names and a page of lines, the pages in turn): median, p99, max.

Target: p99 <= 300 ms on both backends.
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
from pathlib import Path

import asyncpg
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.asyncio import create_async_engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # PostgreSQL helper

from bot._migrate_cli import migrate_store
from bot.jarmo import Game
from bot.service import JarmoService
from bot.store import open_any, open_store
from bot.store._games import _ACTIVE_OF_PLAYER

AT = "2025-03-01T00:00:00.000000+00:00"
PLAYER = 7
SERVERS, PLAYERS = 2_000, 20_000
PLAYER_SERVERS, PLAYER_GAMES = 50, 200
PLIES = 40


def long_game(rng: random.Random, plies: int) -> Game:
    """A game kept alive for ``plies`` plies by avoiding moves that end it."""
    game = Game.new(ruleset="classic", max_plies=200)
    while len(game.history) < plies:
        moves = game.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            trial = game.copy()
            trial.play(move)
            if not trial.over:
                game.play(move)
                break
        else:  # cornered: start again
            return long_game(rng, plies)
    return game


def populate(path: Path, total: int, rng: random.Random) -> None:
    """Bulk-insert ``total`` one-game matches, the measured player's 200 among them.

    Raw SQL in one transaction: going through the store would take minutes of setup. The other
    players' games share one fresh snapshot; they are never loaded, only indexed.
    """
    asyncio.run(_create(path))
    theirs = long_game(rng, PLIES)
    their_snapshot = json.dumps(theirs.to_dict())
    fresh = json.dumps(Game.new(ruleset="classic", max_plies=200).to_dict())
    mine = set(rng.sample(range(1, total + 1), PLAYER_GAMES))
    matches, games, actions = [], [], []
    mine_so_far = 0
    for n in range(1, total + 1):
        if n in mine:
            guild = 1 + mine_so_far % PLAYER_SERVERS
            opponent = rng.randrange(1_000, 1_000 + PLAYERS)
            white, black = (PLAYER, opponent) if mine_so_far % 2 else (opponent, PLAYER)
            status, version, snapshot = "active", PLIES, their_snapshot
            actions += [
                (n, ply, white if ply % 2 else black, move, AT)
                for ply, move in enumerate(theirs.history, 1)
            ]
            mine_so_far += 1
        else:
            guild = rng.randrange(1, SERVERS + 1)
            white, black = rng.sample(range(1_000, 1_000 + PLAYERS), 2)
            status = "active" if rng.random() < 0.2 else "finished"
            version, snapshot = 0, fresh
        state = "running" if status == "active" else "finished"
        matches.append((n, guild, n, white, black, state, AT))
        finished = status == "finished"
        games.append(
            (
                n, n, guild, n, white, black, status, version, snapshot,
                "white" if finished else None, 5 if finished else None,
                0 if finished else None, "camp" if finished else None, AT, AT,
                AT if finished else None,
            )
        )  # fmt: skip
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO matches (id, guild_id, channel_id, first_white_id, first_black_id,"
            " ruleset, layout, game_count, max_plies, state, created_at)"
            " VALUES (?, ?, ?, ?, ?, 'classic', 'traditional', 1, 200, ?, ?)",
            matches,
        )
        db.executemany(
            "INSERT INTO games (id, match_id, game_index, guild_id, channel_id, white_id,"
            " black_id, status, version, snapshot, winner, points_white, points_black,"
            " termination, started_at, last_activity, finished_at)"
            " VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            games,
        )
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", actions)


async def _create(path: Path) -> None:
    async with open_store(path):
        pass


def summary(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {statistics.median(ordered):7.2f} ms  p99 {p99:7.2f} ms"
        f"  max {ordered[-1]:7.2f} ms  (n={len(ordered)})"
    )


def sqlite_plan(path: Path) -> list[str]:
    sql, arguments = _ACTIVE_OF_PLAYER.prepared(sqlite.dialect(), {"user_id": PLAYER})
    with sqlite3.connect(path) as db:
        return [row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", arguments)]


async def postgres_plan(url: str, generic: bool) -> list[str]:
    dialect = create_async_engine("postgresql+asyncpg://").dialect
    sql, arguments = _ACTIVE_OF_PLAYER.prepared(dialect, {"user_id": PLAYER})
    connection = await asyncpg.connect(url)
    try:
        if generic:  # what a statement prepared once and run many times may get
            await connection.execute(f"PREPARE by_player AS {sql}")
            await connection.execute("SET plan_cache_mode = force_generic_plan")
            rows = await connection.fetch(f"EXPLAIN (COSTS OFF) EXECUTE by_player({PLAYER})")
        else:
            rows = await connection.fetch(f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", *arguments)
        return [row[0] for row in rows]
    finally:
        await connection.close()


async def timed_reads(target: Path | str, runs: int) -> tuple[float, list[float]]:
    """The first read in a freshly opened store, then ``runs`` more (ms)."""
    async with open_any(target) as store:
        began = time.perf_counter()
        found = await store.games.active_of_player(PLAYER)
        cold = (time.perf_counter() - began) * 1000
        assert len(found) == PLAYER_GAMES, len(found)
        assert len({game.guild_id for game in found}) == PLAYER_SERVERS
        warm = []
        for _ in range(runs):
            began = time.perf_counter()
            await store.games.active_of_player(PLAYER)
            warm.append((time.perf_counter() - began) * 1000)
    return cold, warm


async def timed_pages(target: Path | str, runs: int) -> list[float]:
    """``runs`` calls of the whole ``/jarmo games`` use case (the read, the order, the names
    and the first page's lines) in one store (ms)."""
    async with open_any(target) as store:
        service = JarmoService(store)
        page = await service.player_games.page(PLAYER)
        assert page.total == PLAYER_GAMES and len(page.lines) == 10, page.total
        samples = []
        for run in range(runs):
            began = time.perf_counter()
            await service.player_games.page(PLAYER, page=run % page.pages)
            samples.append((time.perf_counter() - began) * 1000)
    return samples


def measure(targets: dict[str, Path | str], args: argparse.Namespace) -> None:
    for name, target in targets.items():
        print(f"\n{name}: plan")
        if isinstance(target, Path):
            plans = {"EXPLAIN QUERY PLAN": sqlite_plan(target)}
        else:
            plans = {
                "EXPLAIN ANALYZE (custom plan)": asyncio.run(postgres_plan(target, False)),
                "EXPLAIN (generic plan)": asyncio.run(postgres_plan(target, True)),
            }
        for title, lines in plans.items():
            print(f"  {title}:")
            for line in lines:
                print(f"    {line}")
    colds: dict[str, list[float]] = {name: [] for name in targets}
    warms: dict[str, list[float]] = {name: [] for name in targets}
    pages: dict[str, list[float]] = {name: [] for name in targets}
    for _ in range(args.cold):  # alternating, so both see the same machine load
        for name, target in targets.items():
            cold, warm = asyncio.run(timed_reads(target, args.runs // args.cold))
            colds[name].append(cold)
            warms[name] += warm
            pages[name] += asyncio.run(timed_pages(target, args.runs // args.cold))
    print()
    for name in targets:
        print(f"{name:10} cold (first read, replayed): {summary(colds[name])}")
        print(f"{name:10} warm (snapshots trusted):    {summary(warms[name])}")
        print(f"{name:10} /jarmo games (use case):     {summary(pages[name])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in the database")
    parser.add_argument("--runs", type=int, default=500, help="warm reads in all")
    parser.add_argument("--cold", type=int, default=5, help="freshly opened stores")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the SQLite file")
    parser.add_argument("--backends", default="sqlite,postgresql", help="comma-separated")
    parser.add_argument("--postgres-url", default=None, help="an empty database to use")
    args = parser.parse_args()
    backends = args.backends.split(",")

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "bench.sqlite3"
        began = time.perf_counter()
        populate(path, args.games, random.Random(1))
        print(
            f"SQLite {sqlite3.sqlite_version}: {args.games} games, player {PLAYER} in"
            f" {PLAYER_GAMES} of them in {PLAYER_SERVERS} servers, made in"
            f" {time.perf_counter() - began:.1f} s; {os.cpu_count()} CPUs, load average"
            f" {os.getloadavg()[0]:.1f}"
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
            asyncio.run(_analyze(url))
            print(f"PostgreSQL: copied the same games in {time.perf_counter() - began:.1f} s")
            targets["postgresql"] = url
        try:
            measure({name: targets[name] for name in backends}, args)
        finally:
            if server is not None:
                server.stop()


async def _analyze(url: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("ANALYZE")
    finally:
        await connection.close()


if __name__ == "__main__":
    main()
