"""``jarmo-bot doctor [--quarantine]``: find the games whose stored record cannot be loaded, and
optionally set them aside (as a moderator's ``/jarmo abort`` does for one channel).

Every game is checked by replaying its actions, so on a large database this takes a while; the
bot must be stopped first (one process per database file; with PostgreSQL, every process).
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import Any

from bot._ratings_cli import add_database_argument, again, database_of, plural, run_on_database
from bot.config import BotConfig
from bot.exit_status import ExitStatus
from bot.store import DamagedGame, Store


def add_doctor_parser(commands: Any, shared: argparse.ArgumentParser) -> None:
    """Add the ``doctor`` command to the ``jarmo-bot`` sub-command parsers."""
    doctor = commands.add_parser(
        "doctor", parents=[shared], help="list damaged games (and set them aside)"
    )
    doctor.add_argument(
        "--quarantine",
        action="store_true",
        help="set every damaged game aside: active ones are aborted (nothing counts); the raw "
        "records are kept in the quarantined_games table",
    )
    add_database_argument(doctor)


def run_doctor(config: BotConfig, args: argparse.Namespace) -> int:
    """Run ``doctor``; returns the exit status (``PROBLEM`` while damaged games remain)."""
    target = database_of(config, args)
    advice = again(args, "doctor", "--quarantine")
    return run_on_database(
        target, lambda store: _run(store, quarantine=args.quarantine, advice=advice)
    )


async def _run(store: Store, *, quarantine: bool, advice: str) -> int:
    damaged = await store.quarantine.damaged_games()
    if not damaged:
        print("ok: every stored game loads")
        return ExitStatus.OK
    print(f"{plural(len(damaged), 'damaged game')}:")
    for game in damaged:
        print(f"  {_describe(game)}")
    if not quarantine:
        print(f"run `{advice}` to set them aside")
        return ExitStatus.PROBLEM
    now = datetime.now(UTC)
    for game in damaged:
        status = await store.quarantine.set_aside(game.game_id, reason=game.reason, now=now)
        print(f"quarantined game {game.game_id} (now {status})")
    return ExitStatus.OK


def _describe(game: DamagedGame) -> str:
    return (
        f"game {game.game_id} ({game.status}; server {game.guild_id}, channel "
        f"{game.channel_id}): {game.reason}"
    )
