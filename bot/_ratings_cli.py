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
import dataclasses
import shlex
import sqlite3
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.config import BotConfig
from bot.exit_status import ExitStatus
from bot.store import (
    EVERY_POOL,
    DatabaseUnusable,
    NotFound,
    RatingHistoryRecord,
    RatingRecord,
    RatingScope,
    Skill,
    Store,
    StoreError,
    is_postgres_url,
    open_any,
    schema_version_of,
)
from bot.store.postgres import describe_safely

if TYPE_CHECKING:
    from bot.service.ratings import Difference, RatingCheck

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


def again(args: argparse.Namespace, *command: str) -> str:
    """``jarmo-bot`` running ``command`` on the same database as this run: with the same
    ``--config`` and ``--db`` (a password in a URL shown as ``<password>``), ready to copy."""
    words = ["jarmo-bot"]
    if args.config is not None:
        words += ["--config", str(args.config)]
    words += command
    if args.db is not None:
        words += ["--db", _without_password(args.db)]
    return shlex.join(words)


def _without_password(given: str) -> str:
    password = urlsplit(given).password if is_postgres_url(given) else None
    return given.replace(password, "<password>") if password else given


def plural(count: int, thing: str, things: str | None = None) -> str:
    """'1 rated game', '2 rated games'."""
    return f"{count} {thing if count == 1 else things or thing + 's'}"


def run_ratings(config: BotConfig, args: argparse.Namespace) -> int:
    """Run ``ratings --check`` or ``--rebuild``; returns the exit status."""
    target = database_of(config, args)
    rebuild = again(args, "ratings", "--rebuild", *_guild_option(args))
    return run_on_database(
        target, lambda store: _run(store, args.guild, rebuild=args.rebuild, advice=rebuild)
    )


def _guild_option(args: argparse.Namespace) -> list[str]:
    return [] if args.guild is None else ["--guild", str(args.guild)]


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
    if not postgres and _holds_no_database(Path(target)):
        print(
            f"jarmo-bot: {shown} holds no Jarmo database (it is empty, or an SQLite database "
            "of something else); it was left as it was",
            file=sys.stderr,
        )
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


def _holds_no_database(file: Path) -> bool:
    """Whether ``file`` is empty or an SQLite database without a Jarmo schema: opening it
    would create the tables, and a check must not write. A file that cannot be read, or is no
    SQLite database at all, is left for the store's own start-up check to name."""
    try:
        return file.is_file() and schema_version_of(file) == 0
    except (OSError, sqlite3.Error, DatabaseUnusable):
        return False


async def _open_and_run(target: str | Path, work: Work) -> int:
    async with contextlib.AsyncExitStack() as stack:
        try:
            store = await stack.enter_async_context(open_any(target))
        except (sqlite3.Error, StoreError) as exc:
            raise CannotOpen from exc
        return await work(store)


async def _run(store: Store, guild_id: int | None, *, rebuild: bool, advice: str) -> int:
    # Imported here: the rating library and the renderer are not needed to parse arguments.
    from bot.service.ratings import check_ratings, rebuild_ratings

    scope: RatingScope = EVERY_POOL if guild_id is None else guild_id  # no --guild: all of them
    if rebuild:
        done = await rebuild_ratings(store.ratings, scope)
        print(
            f"rebuilt {plural(len(done.tables.ratings), 'rating')} from "
            f"{plural(done.games, 'rated game')} "
            f"({plural(len(done.tables.history), 'history row')})"
        )
        return ExitStatus.OK
    return await _report(store, await check_ratings(store.ratings, scope), advice)


async def _report(store: Store, check: RatingCheck, advice: str) -> int:
    games = plural(check.games, "rated game")
    if check.ok:
        ratings = plural(check.players, "rating matches", "ratings match")
        print(f"ok: {ratings} {games} recomputed")
        return ExitStatus.OK
    gives = "gives" if check.games == 1 else "give"
    print(f"DIFFERENT: the stored ratings are not what {games} {gives}:")
    for difference in check.differences:
        print(f"  {await _describe(store, difference)}")
    print(f"run `{advice}` to replace them with the recomputed ones")
    return ExitStatus.PROBLEM


async def _describe(store: Store, difference: Difference) -> str:
    """One difference for the operator: whose rating, in which ruleset and server, stored
    against recomputed (and the fields that differ)."""
    either = difference.recomputed or difference.stored
    assert either is not None  # a difference has a row on at least one side
    who = await _player(store, either.guild_id, either.user_id)
    where = f"{who}, {either.ruleset}, server {either.guild_id}"
    changed = _changed_fields(difference.recomputed, difference.stored)
    if isinstance(either, RatingHistoryRecord):
        stored, recomputed = (_change(r) for r in (difference.stored, difference.recomputed))
        what = f"rating change in game {either.game_id} of {where}"
    else:
        stored, recomputed = (_standing(r) for r in (difference.stored, difference.recomputed))
        what = f"rating of {where}"
    return f"{what}: stored {stored}, recomputed {recomputed} (differs in {changed})"


async def _player(store: Store, guild_id: int | None, user_id: int) -> str:
    try:
        name = (await store.players.get(guild_id, user_id)).display_name
    except NotFound:
        return f"user {user_id}"
    return f"{name} (user {user_id})"


def _standing(record: object) -> str:
    if not isinstance(record, RatingRecord):
        return "none"
    return f"{_rating(record.skill)} after {plural(record.games, 'game')}"


def _change(record: object) -> str:
    if not isinstance(record, RatingHistoryRecord):
        return "none"
    return f"{_rating(record.before)} -> {_rating(record.after)}"


def _rating(skill: Skill) -> str:
    return f"{skill.rating:.1f} (mu {skill.mu:.2f}, sigma {skill.sigma:.2f})"


def _changed_fields(
    recomputed: RatingRecord | RatingHistoryRecord | None,
    stored: RatingRecord | RatingHistoryRecord | None,
) -> str:
    if recomputed is None or stored is None:
        return "the whole row: one side has none"
    fields = dataclasses.fields(recomputed)
    names = [f.name for f in fields if getattr(recomputed, f.name) != getattr(stored, f.name)]
    return ", ".join(names)
