"""``jarmo-bot ratings --check | --rebuild``: compare the stored ratings with ratings recomputed
from the stored game results, or replace them with the recomputed ones.

It is needed once after upgrading to schema 0003, to rate the games played before ratings
existed. Stop the bot first: one process at a time may use a database file. With PostgreSQL
(``--db postgresql://...`` or the configured URL), stop every bot process using that database.
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
from bot.store import DatabaseUnusable, StoreError, is_postgres_url, open_any
from bot.store.postgres import describe_safely

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
    add_database_argument(ratings)


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    """The operator commands' ``--db``: an SQLite file or a ``postgresql://`` URL."""
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the SQLite file or postgresql:// URL (default: from the config)",
    )


def database_of(config: BotConfig, args: argparse.Namespace) -> str | Path:
    """The database an operator command works on: ``--db``, else the configured one."""
    given: str | None = args.db
    if given is None:
        return config.store_target
    return given if is_postgres_url(given) else Path(given)


def run_ratings(config: BotConfig, args: argparse.Namespace) -> int:
    """Run ``ratings --check`` or ``--rebuild``; returns the exit status."""
    target = database_of(config, args)
    return run_on_database(target, lambda: _run(target, args.guild, rebuild=args.rebuild))


def run_on_database(target: str | Path, work: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run an operator command's ``work`` on an existing database (an SQLite file, or a
    PostgreSQL URL); its exit status, or a one-line message and a failure status when the
    database is missing or cannot be used (never showing a password)."""
    postgres = isinstance(target, str) and is_postgres_url(target)
    shown = describe_safely(str(target)) if postgres else str(target)
    if not postgres and not Path(target).exists():
        print(f"jarmo-bot: no database at {shown}", file=sys.stderr)
        return EXIT_FAILED
    try:
        return asyncio.run(work())
    except (sqlite3.Error, StoreError) as exc:
        if isinstance(exc, DatabaseUnusable):  # its message names the database already
            print(f"jarmo-bot: {exc}", file=sys.stderr)
        else:
            print(f"jarmo-bot: cannot use the database {shown}: {exc}", file=sys.stderr)
        return EXIT_FAILED


async def _run(target: str | Path, guild_id: int | None, *, rebuild: bool) -> int:
    # Imported here: the rating library and the renderer are not needed to parse arguments.
    from bot.service.ratings import check_ratings, rebuild_ratings

    async with open_any(target) as store:
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
