"""Changes of games' versions as they commit, told to whoever listens in this process.

A game's version moves on with every change of it (a move, a takeback, an ending, a clock's
change, a vacation's start or end, a quarantine), and every such write is an ``UPDATE`` of
``games`` that sets ``version``:

* SQLite: each of those writes tells :func:`tell_changed` the game's new version (from the row
  its ``UPDATE`` returns), which collects them on the writer's connection during the
  transaction; the writer hands them over once it committed, and drops them when it rolled
  back. This adds no statement to a move (a trigger calling Python would run inside it), and
  ``tests/store/test_store_game_changes.py`` holds every version write to it.
* PostgreSQL: a trigger (revision 0021) sends ``NOTIFY jarmo_games, 'game_id:version'`` inside
  the writing transaction, which the server delivers only once it commits, to every process
  listening on the database; PostgreSQL's one-statement move stays one statement. This process
  hears its own changes the same way, on a connection of its own that ``start`` opens and keeps
  open (again after a drop, after which the listeners are told they may have missed changes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any

import asyncpg
from sqlalchemy import Connection, select

from bot.store._sql import Reader
from bot.store.schema import games

log = logging.getLogger(__name__)

CHANNEL = "jarmo_games"
# Where a connection collects its transaction's changes (``Connection.info``): only the SQLite
# writer's connection has it.
COLLECTED = "jarmo_game_changes"
# A listening connection that dropped is opened again after this, doubling up to the most.
RECONNECT_SECONDS = 0.5
RECONNECT_MOST_SECONDS = 30.0
# How often a quiet listening connection is asked whether it is still there.
PROBE_SECONDS = 60.0

Changed = Callable[[int, int], None]
Missed = Callable[[], None]


def collect_changes(db: Connection, changed: list[tuple[int, int]]) -> None:
    """Let the writes on ``db`` tell ``changed`` of each change of a game's version."""
    db.info[COLLECTED] = changed


def tell_changed(db: Connection, game_id: int, version: int) -> None:
    """Game ``game_id`` is at ``version`` once this transaction commits (see the module)."""
    collected = db.info.get(COLLECTED)
    if collected is not None:
        collected.append((game_id, version))


class GameChanges:
    """The :class:`~bot.store.interface.GameChangeStore` of one SQLite store: its writer
    ``publish``-es what each transaction changed, once committed."""

    def __init__(self, reader: Reader) -> None:
        self._read = reader
        self._listeners: list[tuple[Changed, Missed]] = []

    def listen(self, changed: Changed, missed: Missed) -> Callable[[], None]:
        """Call ``changed(game_id, version)`` for each committed change of a game's version, and
        ``missed()`` when changes may have gone unheard; returns what stops it."""
        listener = (changed, missed)
        self._listeners.append(listener)

        def stop() -> None:
            with contextlib.suppress(ValueError):  # stopped already
                self._listeners.remove(listener)

        return stop

    async def start(self) -> None:
        """Begin hearing changes made elsewhere (nothing to do where only this process
        writes)."""

    async def stop(self) -> None:
        """Stop hearing changes made elsewhere."""

    async def versions(self, game_ids: Collection[int]) -> dict[int, int]:
        """The stored version of each of ``game_ids`` that exists."""
        if not game_ids:
            return {}
        rows = await self._read.rows(
            select(games.c.id, games.c.version).where(games.c.id.in_(list(game_ids)))
        )
        return {int(row["id"]): int(row["version"]) for row in rows}

    def publish(self, changes: Iterable[tuple[int, int]]) -> None:
        """Tell every listener of ``changes`` (game id, version), in order."""
        for game_id, version in changes:
            for changed, _ in list(self._listeners):
                _safely(changed, game_id, version)

    def missed(self) -> None:
        """Tell every listener that changes may have gone unheard."""
        for _, missed in list(self._listeners):
            _safely(missed)


def _safely(call: Callable[..., None], *arguments: int) -> None:
    try:
        call(*arguments)
    except Exception:  # one listener's bug must not keep the others from hearing
        log.exception("a listener to game changes failed")


def parse_change(payload: str) -> tuple[int, int] | None:
    """``(game_id, version)`` from a notification's ``"game_id:version"``; None if malformed."""
    game_id, _, version = payload.partition(":")
    try:
        return int(game_id), int(version)
    except ValueError:
        return None


class PgGameChanges(GameChanges):
    """The :class:`~bot.store.interface.GameChangeStore` on PostgreSQL: every process's changes
    arrive as notifications on one connection of this process's own (see the module)."""

    def __init__(self, reader: Reader, connect: Callable[[], Awaitable[Any]]) -> None:
        super().__init__(reader)
        self._connect = connect
        self._task: asyncio.Task[None] | None = None
        # Whether it is listening right now, as events to wait for (tests, diagnostics).
        self.connected = asyncio.Event()
        self.disconnected = asyncio.Event()
        self.disconnected.set()

    async def start(self) -> None:
        """Listen on a connection of its own, kept open until ``stop``; returns once listening
        (or once the first try failed: it goes on trying in the background)."""
        if self._task is not None and not self._task.done():
            return
        first_try = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._listen(first_try), name="jarmo game changes")
        await asyncio.wait([first_try, self._task], return_when=asyncio.FIRST_COMPLETED)

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _listen(self, first_try: asyncio.Future[None]) -> None:
        delay = RECONNECT_SECONDS
        while True:
            try:
                connection = await self._connect()
            except Exception as exc:
                if not first_try.done():
                    first_try.set_result(None)
                log.warning("cannot listen for game changes (again in %.1f s): %s", delay, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MOST_SECONDS)
                continue
            try:
                await self._hear(connection, first_try)
                delay = RECONNECT_SECONDS
            finally:
                self.connected.clear()
                self.disconnected.set()
                with contextlib.suppress(Exception):
                    await asyncio.shield(connection.close(timeout=1.0))

    async def _hear(self, connection: Any, first_try: asyncio.Future[None]) -> None:
        """Listen on ``connection`` until it drops."""
        dropped = asyncio.Event()
        connection.add_termination_listener(lambda _: dropped.set())
        try:
            await connection.add_listener(CHANNEL, self._notified)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("cannot listen for game changes: %s", exc)
            return
        self.connected.set()
        self.disconnected.clear()
        if not first_try.done():
            first_try.set_result(None)
        else:
            log.info("listening for game changes again")
        self.missed()  # whatever changed while nobody listened
        while not dropped.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(dropped.wait(), PROBE_SECONDS)
                break
            try:  # a connection that died quietly (a cut network) is only found by asking
                await connection.execute("SELECT 1", timeout=PROBE_SECONDS / 2)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                break
        log.warning("the connection listening for game changes dropped: connecting again")

    def _notified(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        change = parse_change(payload)
        if change is None:
            log.warning("a game change notification not understood: %r", payload)
            return
        self.publish((change,))
