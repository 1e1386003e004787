"""Memory per active game: how much the bot's resident set grows as games are started.

Through the service, as the bot does it, on a SQLite file: each game is a challenge posted and
accepted in a channel of its own, between two players of its own, then two moves (so the game
is loaded, checked, locked, stored and drawn). The resident set size (RSS, from /proc) is read
after every ``--step`` games, after a garbage collection; the growth is printed per 1,000 games,
with what the per-channel and per-player state in memory holds at that point: channel locks in
use, names cached (bounded), checked snapshots remembered (bounded).

Run: ``python bench/memory.py [--games 6000] [--step 2000]``. Linux only (/proc/self/statm).
A few hundred games are started first to warm up (imports, fonts, the board's first drawings,
SQLite's page cache), so the figures are the cost of more active games.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
import time
from pathlib import Path

from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.service.kit import NAMES_CACHED
from bot.store import open_store
from bot.store._games import TRUSTED_GAMES

PAGE = os.sysconf("SC_PAGE_SIZE")
WARM_UP = 200


def rss_mb() -> float:
    """The resident set size of this process in MiB, after a garbage collection."""
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


async def start_games(service: JarmoService, first: int, count: int) -> None:
    """``count`` active games in channels ``first`` onward, two moves each."""
    for number in range(first, first + count):
        place = Place(1 + number % 50, 10_000 + number)  # fifty servers
        white, black = Actor(2 * number + 1, f"White {number}"), Actor(2 * number + 2, f"B{number}")
        view = await service.challenges.post(place, white, ChallengeRequest(black, side="white"))
        await service.challenges.accept(black, view.challenge.id)
        game = (await service.play.board(place)).game.engine
        await service.play.move(place, white, read_action(game.legal_moves()[0]))
        game = (await service.play.board(place)).game.engine
        await service.play.move(place, black, read_action(game.legal_moves()[0]))


def checked_snapshots(store: object) -> str:
    """How many checked snapshots the SQLite store remembers (its loader is private)."""
    trusted = getattr(getattr(getattr(store, "games", None), "_loader", None), "_trusted", None)
    return "?" if trusted is None else str(len(trusted))


async def measure(games: int, step: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with open_store(Path(folder) / "bench.sqlite3") as store:
            service = JarmoService(store, rng=random.Random(0))
            print(
                f"{'games':>7} {'RSS MiB':>8} {'MiB/1000':>9} {'s/1000':>7}"
                f" {'locks':>6} {'names':>7} {'checked':>8}"
            )
            # Imports, fonts, the first drawings and SQLite's page cache are not per game.
            await start_games(service, games, WARM_UP)
            before = rss_mb()
            print(f"{0:>7} {before:>8.1f}   (after {WARM_UP} games to warm up)")
            for first in range(0, games, step):
                start = time.perf_counter()
                await start_games(service, first, step)
                seconds = time.perf_counter() - start
                now = rss_mb()
                print(
                    f"{first + step:>7} {now:>8.1f} {(now - before) * 1000 / step:>9.2f}"
                    f" {seconds * 1000 / step:>7.1f} {len(service.kit.locks):>6}"
                    f" {len(service.kit.names):>7} {checked_snapshots(store):>8}",
                    flush=True,
                )
                before = now
            print(
                f"bounds: names {NAMES_CACHED:,}, checked snapshots {TRUSTED_GAMES:,};"
                " channel locks exist only while a channel is busy"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6_000)
    parser.add_argument("--step", type=int, default=2_000)
    args = parser.parse_args()
    asyncio.run(measure(args.games, args.step))


if __name__ == "__main__":
    main()
