"""Is the bot healthy? A heartbeat file written by the running bot, and ``jarmo-bot health``,
which reads it (for Docker's ``HEALTHCHECK`` and for anyone at a terminal).

The running bot rewrites its heartbeat every :data:`BEAT_SECONDS` seconds with the time and
whether its gateway connection to Discord is up, in the file the configuration names
(:attr:`bot.config.BotConfig.heartbeat_file`: ``[health] heartbeat``, else ``<database>.health``,
or on PostgreSQL, which has no file of ours, ``jarmo-bot.health`` in the configuration's
folder), and creates its folder if need be. ``jarmo-bot health`` reads the same file: the bot
is healthy when it is fresh (a stuck event loop stops the beats too), says the gateway is
connected, and the database opens read-only (on PostgreSQL: the server answers and its schema is
one this code can use, asked through ``server_problem``, which keeps the driver out of this
module). It never touches Discord and never writes to the database, so it can run beside the
bot at any time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.config import BotConfig, heartbeat_beside
from bot.exit_status import ExitStatus

BEAT_SECONDS = 30.0
MAX_AGE_SECONDS = 90.0  # three missed beats: Docker's default check interval is 30 s too
DB_TIMEOUT_SECONDS = 5.0

log = logging.getLogger(__name__)
# Why the PostgreSQL database at a URL cannot be used ("unhealthy: ..."), or None when it can.
ServerProblem = Callable[[str], str | None]


def write_heartbeat(
    path: Path, *, connected: bool, running: bool = True, now: float | None = None
) -> None:
    """Replace the heartbeat file in one step (a reader never sees half of it), in a folder
    created if need be. ``running`` False is the last beat of a bot that is shutting down."""
    path.parent.mkdir(parents=True, exist_ok=True)
    beat = {"time": time.time() if now is None else now, "connected": connected, "running": running}
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(beat) + "\n", encoding="utf-8")
    os.replace(partial, path)


def gateway_connected(client: Any) -> bool:
    """Whether a ``discord.Client`` is ready and its gateway websocket is open right now (it is
    closed while discord.py reconnects)."""
    ws = getattr(client, "ws", None)
    return bool(client.is_ready() and not client.is_closed() and ws is not None and ws.open)


class Heartbeat:
    """Writes the heartbeat file: at every :meth:`beat`, and every ``interval`` seconds while
    :meth:`run` runs. ``connected`` says whether the gateway is up."""

    def __init__(
        self,
        path: Path,
        connected: Callable[[], bool],
        *,
        interval: float = BEAT_SECONDS,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.path = path
        self._connected = connected
        self._interval = interval
        self._sleep = sleep

    @classmethod
    def of_client(cls, client: Any, path: Path) -> Heartbeat:
        """The heartbeat of a ``discord.Client``, written to ``path``."""
        return cls(path, lambda: gateway_connected(client))

    def beat(self, *, running: bool = True) -> None:
        """Write the file now (a bot that is not running is not connected either)."""
        try:
            write_heartbeat(self.path, connected=running and self._connected(), running=running)
        except OSError as exc:  # a full disk must not stop the bot; the check will notice
            log.warning("cannot write the heartbeat %s: %s", self.path, exc)

    async def beat_now(self) -> None:
        """:meth:`beat`, as a background job's pass."""
        self.beat()

    async def pause(self) -> None:
        """Wait until the next beat is due."""
        await self._sleep(self._interval)

    async def run(self) -> None:
        """Beat until cancelled; the last beat, on the way out, says the bot has stopped."""
        try:
            while True:
                await self.beat_now()
                await self.pause()
        finally:
            self.beat(running=False)


@dataclass(frozen=True)
class Health:
    """The verdict of :func:`check_health`: healthy or not, and one line saying why."""

    healthy: bool
    message: str


def check_health(
    database: Path,
    *,
    heartbeat: Path | None = None,
    now: float | None = None,
    max_age: float = MAX_AGE_SECONDS,
    database_url: str | None = None,
    server_problem: ServerProblem | None = None,
) -> Health:
    """Read the ``heartbeat`` file (by default the one beside ``database``) and open the
    database read-only; with ``database_url``, ask ``server_problem(database_url)`` instead
    (required then)."""
    now = time.time() if now is None else now
    beat = heartbeat_beside(database) if heartbeat is None else heartbeat
    verdict = _heartbeat_verdict(beat, now, max_age)
    if verdict is not None:
        return verdict
    if database_url:
        if server_problem is None:
            raise ValueError("checking a PostgreSQL database needs its server_problem")
        problem, shown = server_problem(database_url), "on PostgreSQL"
    else:
        problem, shown = _database_problem(database), str(database)
    if problem is not None:
        return Health(False, problem)
    return Health(True, f"healthy: the bot is connected to Discord and the database {shown} opens")


def _heartbeat_verdict(path: Path, now: float, max_age: float) -> Health | None:
    """An unhealthy verdict from the heartbeat file, or None when it is fresh and connected."""
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        stamp, connected, running = float(beat["time"]), beat["connected"], beat["running"]
    except FileNotFoundError:
        return Health(False, f"unhealthy: no heartbeat at {path}; the bot is not running (yet)")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return Health(False, f"unhealthy: the heartbeat {path} cannot be read ({exc})")
    if running is False:
        return Health(False, "unhealthy: the bot has stopped")
    age = now - stamp
    if not math.isfinite(age) or age > max_age:
        return Health(
            False,
            f"unhealthy: the last heartbeat is {age:.0f} s old (at most {max_age:.0f} s expected);"
            " the bot has stopped or is stuck",
        )
    if connected is not True:
        return Health(False, "unhealthy: the bot is running but not connected to Discord")
    return None


def _database_problem(database: Path) -> str | None:
    """Why the database does not open read-only, or None when it does."""
    uri = f"{database.absolute().as_uri()}?mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=DB_TIMEOUT_SECONDS)) as db:
            db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.Error as exc:
        return f"unhealthy: cannot open the database {database} ({exc})"
    return None


def add_health_parser(commands: Any, shared: argparse.ArgumentParser) -> None:
    """Add the ``health`` command to the ``jarmo-bot`` sub-command parsers."""
    commands.add_parser(
        "health",
        parents=[shared],
        help="exit 0 if the running bot is connected and its database opens, else 1",
    )


def run_health(config: BotConfig, server_problem: ServerProblem | None = None) -> int:
    """``jarmo-bot health``: print one line and return the exit status (``server_problem``:
    see :func:`check_health`)."""
    verdict = check_health(
        config.database,
        heartbeat=config.heartbeat_file,
        database_url=config.database_url,
        server_problem=server_problem,
    )
    print(verdict.message, file=sys.stdout if verdict.healthy else sys.stderr)
    return ExitStatus.OK if verdict.healthy else ExitStatus.PROBLEM
