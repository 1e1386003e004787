"""Leaderboard, stats and history speed on a big server.

Builds a database with 10,000 players and 200,000 ended games in one server (plus their
matches, ratings and 400,000 rating-history rows) with bulk inserts, then times the answers
in-process through ``PlayerStats`` / ``SqliteStore`` and prints medians. The target is 50 ms
per answer. One player (the "regular") plays 5 % of all games, the worst case for stats and
history.

    .venv/bin/python bench/leaderboard.py [--players 10000] [--games 200000] [--runs 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.service.stats import PlayerStats
from bot.store import SqliteStore, open_store

GUILD = 1
REGULAR = 1  # the busiest player
RULESETS = ("classic", "jasir", "ludos")
T0 = datetime(2024, 1, 1, tzinfo=UTC)
STATUSES = ("finished", "finished", "finished", "resigned", "stopped", "timeout")


def build(path: Path, players: int, games: int, seed: int = 6) -> None:
    """Fill a migrated database with players, matches, games, ratings and rating history."""
    rng = random.Random(seed)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO players (guild_id, user_id, display_name) VALUES (?, ?, ?)",
        [(GUILD, user, f"Player {user}") for user in range(1, players + 1)],
    )
    matches, rows, history = [], [], []
    counts: dict[tuple[str, int], list[int]] = {}
    for game_id in range(1, games + 1):
        white = REGULAR if rng.random() < 0.05 else rng.randint(2, players)
        black = rng.randint(2, players)
        while black == white:
            black = rng.randint(2, players)
        if rng.random() < 0.5:
            white, black = black, white
        ruleset = RULESETS[game_id % 3]
        at = (T0 + timedelta(minutes=game_id)).isoformat(timespec="microseconds")
        winner = rng.choice(("white", "black", None))
        status = rng.choice(STATUSES)
        pw, pb = rng.randint(0, 10), rng.randint(0, 10)
        first_winner = white if winner == "white" else black if winner else None
        matches.append((game_id, GUILD, 10, white, black, ruleset, "traditional", 1, 200,
                        "finished", first_winner, at, at))  # fmt: skip
        rows.append((game_id, game_id, 0, GUILD, 10, white, black, status, 40, "{}", winner,
                     pw, pb, status, at, at, at, 1))  # fmt: skip
        for user in (white, black):
            tally = counts.setdefault((ruleset, user), [0, 0, 0, 0, 0])
            before, after = 1000 + tally[0] * 3.0, 1000 + (tally[0] + 1) * 3.0
            history.append((game_id, GUILD, ruleset, user, 25.0, 8.0, before, 25.0, 7.9, after, at))
            tally[0] += 1
    db.executemany(
        "INSERT INTO matches (id, guild_id, channel_id, first_white_id, first_black_id, ruleset,"
        " layout, game_count, max_plies, state, winner_id, created_at, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        matches,
    )
    db.executemany(
        "INSERT INTO games (id, match_id, game_index, guild_id, channel_id, white_id, black_id,"
        " status, version, snapshot, winner, points_white, points_black, termination,"
        " started_at, last_activity, finished_at, rated)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.executemany(
        "INSERT INTO rating_history (game_id, guild_id, ruleset, user_id, mu_before,"
        " sigma_before, rating_before, mu_after, sigma_after, rating_after, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        history,
    )
    db.executemany(
        "INSERT INTO ratings (guild_id, ruleset, user_id, mu, sigma, rating, games, wins, draws,"
        " losses, points, match_wins, last_game_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)",
        [
            # Coarse ratings, so that many players tie and the tie-breaks are exercised.
            (GUILD, ruleset, user, 25.0, 7.0, float(round(rng.gauss(1100, 120) / 5) * 5),
             games_, games_ // 2, games_ - games_ // 2, games_ * 5, games_ // 4, T0.isoformat())
            for (ruleset, user), (games_, *_) in counts.items()
        ],
    )  # fmt: skip
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def median_ms(work: Callable[[], Awaitable[object]], runs: int) -> float:
    """The median wall time of ``work`` in milliseconds (after one warm-up run)."""
    await work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def measure(path: Path, runs: int) -> None:
    async with open_store(path) as store:
        stats = await _stats(store)
        size = await store.ratings.leaderboard_size(GUILD, "classic")
        last_page = (size - 1) // 10
        other = 5000
        cases: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("leaderboard page 1 (with the viewer's row)",
             lambda: stats.leaderboard(GUILD, "classic", page=0, viewer_id=other)),
            (f"leaderboard deep page ({last_page + 1} of {last_page + 1})",
             lambda: stats.leaderboard(GUILD, "classic", page=last_page, viewer_id=other)),
            ("player rank (store)", lambda: store.ratings.player_rank(GUILD, "classic", other)),
            ("stats: store reads, typical player",
             lambda: store.results.player_stats(GUILD, other)),
            ("stats: store reads, the regular (10k games)",
             lambda: store.results.player_stats(GUILD, REGULAR)),
            ("/jarmo stats answer incl. chart, typical player",
             lambda: stats.profile(GUILD, other, viewer_id=REGULAR)),
            ("/jarmo stats answer incl. chart, the regular",
             lambda: stats.profile(GUILD, REGULAR, viewer_id=other)),
            ("/jarmo history, the regular", lambda: stats.history(GUILD, REGULAR)),
            ("/jarmo history, regular v one opponent",
             lambda: stats.history(GUILD, REGULAR, other)),
        ]  # fmt: skip
        print(f"{'answer':52} {'median':>9}")
        for name, work in cases:
            print(f"{name:52} {await median_ms(work, runs):7.2f}ms")


async def _stats(store: SqliteStore) -> PlayerStats:
    async def names(guild_id: int, user_id: int) -> str:
        return f"Player {user_id}"

    return PlayerStats(store.ratings, store.results, store.games, names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        asyncio.run(_migrate(path))
        start = time.perf_counter()
        build(path, args.players, args.games)
        seconds, megabytes = time.perf_counter() - start, path.stat().st_size / 1e6
        built = f"{args.players} players, {args.games} games"
        print(f"built {built} in {seconds:.1f}s ({megabytes:.0f} MB)")
        asyncio.run(measure(path, args.runs))


async def _migrate(path: Path) -> None:
    async with open_store(path):
        pass


if __name__ == "__main__":
    main()
