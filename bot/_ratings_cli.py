"""``jarmo-bot ratings --check | --rebuild``: compare the stored ratings with ratings recomputed
from the stored game results, or replace them with the recomputed ones.

It is needed once after upgrading to schema 0003, to rate the games played before ratings
existed. Stop the bot first: one process at a time may use a database file. With PostgreSQL
(``--db postgresql://...`` or the configured URL), stop every bot process using that database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import BotConfig
from bot.exit_status import ExitStatus
from bot.store import DatabaseUnusable, Store, StoreError, is_postgres_url, open_any
from bot.store.postgres import describe_safely

if TYPE_CHECKING:
    from bot.service.ratings import RatingCheck

Work = Callable[[Store], Coroutine[Any, Any, int]]


class CannotOpen(Exception):
    """The operator command's database could not be opened; the cause is chained."""


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
    return run_on_database(target, lambda store: _run(store, args.guild, rebuild=args.rebuild))


def run_on_database(target: str | Path, work: Work) -> int:
    """Open an existing database (an SQLite file, or a PostgreSQL URL) and run an operator
    command's ``work`` on it; its exit status, or a one-line message (never showing a password)
    and ``CANNOT_START`` when the database is missing or cannot be opened, ``PROBLEM`` when it
    fails later."""
    postgres = isinstance(target, str) and is_postgres_url(target)
    shown = describe_safely(str(target)) if postgres else str(target)
    if not postgres and not Path(target).exists():
        print(f"jarmo-bot: no database at {shown}", file=sys.stderr)
        return ExitStatus.CANNOT_START
    try:
        return asyncio.run(_open_and_run(target, work))
    except CannotOpen as exc:
        cause = exc.__cause__
        if isinstance(cause, DatabaseUnusable):  # its message names the database already
            print(f"jarmo-bot: {cause}", file=sys.stderr)
        else:
            print(f"jarmo-bot: cannot use the database {shown}: {cause}", file=sys.stderr)
        return ExitStatus.CANNOT_START
    except (sqlite3.Error, StoreError) as exc:
        print(f"jarmo-bot: the database {shown} failed: {exc}", file=sys.stderr)
        return ExitStatus.PROBLEM


async def _open_and_run(target: str | Path, work: Work) -> int:
    async with contextlib.AsyncExitStack() as stack:
        try:
            store = await stack.enter_async_context(open_any(target))
        except (sqlite3.Error, StoreError) as exc:
            raise CannotOpen from exc
        return await work(store)


async def _run(store: Store, guild_id: int | None, *, rebuild: bool) -> int:
    # Imported here: the rating library and the renderer are not needed to parse arguments.
    from bot.service.ratings import check_ratings, rebuild_ratings

    if rebuild:
        done = await rebuild_ratings(store.ratings, guild_id)
        print(
            f"rebuilt {len(done.tables.ratings)} ratings from {done.games} rated games"
            f" ({len(done.tables.history)} history rows)"
        )
        return ExitStatus.OK
    return _report(await check_ratings(store.ratings, guild_id))


def _report(check: RatingCheck) -> int:
    if check.ok:
        print(f"ok: {check.players} ratings match {check.games} rated games recomputed")
        return ExitStatus.OK
    print(f"DIFFERENT: the stored ratings are not what {check.games} rated games give:")
    for line in check.differences:
        print(f"  {line}")
    print("run `jarmo-bot ratings --rebuild` to replace them with the recomputed ones")
    return ExitStatus.PROBLEM
