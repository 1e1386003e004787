"""``jarmo-bot ratings --check | --rebuild``: compare the stored ratings with ratings recomputed
from the stored game results, or replace them with the recomputed ones.

It is needed once after upgrading to schema 0003, to rate the games played before ratings
existed. Stop the bot first: one process at a time may use a database file.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import BotConfig
from bot.store import DatabaseUnusable, StoreError, open_store

if TYPE_CHECKING:
    from bot.service.ratings import RatingCheck

EXIT_OK, EXIT_DIFFERENT, EXIT_FAILED = 0, 1, 1


def add_ratings_parser(commands: Any, shared: argparse.ArgumentParser) -> None:
    """Add the ``ratings`` command to the ``jarmo-bot`` sub-command parsers."""
    ratings = commands.add_parser(
        "ratings", parents=[shared], help="check or rebuild the ratings from the game results"
    )
    action = ratings.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "--check", action="store_true", help="recompute and compare; exit 1 on any difference"
    )
    action.add_argument(
        "--rebuild", action="store_true", help="recompute and store the result in their place"
    )
    ratings.add_argument("--guild", type=int, metavar="ID", help="only this server")
    ratings.add_argument(
        "--db", type=Path, metavar="PATH", help="the database (default: from the config)"
    )


def run_ratings(config: BotConfig, args: argparse.Namespace) -> int:
    """Run ``ratings --check`` or ``--rebuild``; returns the exit status."""
    path = args.db or config.database
    return run_on_database(path, lambda: _run(path, args.guild, rebuild=args.rebuild))


def run_on_database(path: Path, work: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run an operator command's ``work`` on an existing database; its exit status, or a
    one-line message and a failure status when the database is missing or cannot be used."""
    if not Path(path).exists():
        print(f"jarmo-bot: no database at {path}", file=sys.stderr)
        return EXIT_FAILED
    try:
        return asyncio.run(work())
    except (sqlite3.Error, StoreError) as exc:
        if isinstance(exc, DatabaseUnusable):  # its message names the file already
            print(f"jarmo-bot: {exc}", file=sys.stderr)
        else:
            print(f"jarmo-bot: cannot use the database {path}: {exc}", file=sys.stderr)
        return EXIT_FAILED


async def _run(path: Path, guild_id: int | None, *, rebuild: bool) -> int:
    # Imported here: the rating library and the renderer are not needed to parse arguments.
    from bot.service.ratings import check_ratings, rebuild_ratings

    async with open_store(path) as store:
        if rebuild:
            done = await rebuild_ratings(store.ratings, guild_id)
            print(
                f"rebuilt {len(done.tables.ratings)} ratings from {done.games} rated games"
                f" ({len(done.tables.history)} history rows)"
            )
            return EXIT_OK
        return _report(await check_ratings(store.ratings, guild_id))


def _report(check: RatingCheck) -> int:
    if check.ok:
        print(f"ok: {check.players} ratings match {check.games} rated games recomputed")
        return EXIT_OK
    print(f"DIFFERENT: the stored ratings are not what {check.games} rated games give:")
    for line in check.differences:
        print(f"  {line}")
    print("run `jarmo-bot ratings --rebuild` to replace them with the recomputed ones")
    return EXIT_DIFFERENT
