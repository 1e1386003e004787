"""The live board's word of stored games: every change of a game's version, from this process
and (PostgreSQL) from every process on the database, for whoever shows the game as it changes.

The store says what changed once it committed (``GameChangeStore``); the feed hands each change
to the subscriptions of its game. A subscription holds one change at most, the newest: a reader
that falls behind reads the game once, as it is now, rather than every step it missed, so a slow
reader never grows memory. Versions only go up, so a change no newer than the last one handed
out (heard twice, or read again after a gap) is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from bot import store as st

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameChange:
    """A stored game changed: ``version`` is its stored version after the change."""

    game_id: int
    version: int


class GameSubscription:
    """The changes of one game, newest only (``with feed.subscribe(game_id) as changes:``);
    leaving the block unsubscribes."""

    def __init__(self, feed: GameFeed, game_id: int) -> None:
        self.game_id = game_id
        self._feed = feed
        self._pending: GameChange | None = None
        self._last_version = -1  # of the change handed out or waiting
        self._arrived = asyncio.Event()
        self._open = True

    async def next(self) -> GameChange:
        """Wait for the game's next change; after several, the newest. Raises
        ``RuntimeError`` once unsubscribed."""
        while self._pending is None:
            if not self._open:
                raise RuntimeError(f"the subscription to game {self.game_id} has ended")
            self._arrived.clear()
            await self._arrived.wait()
        change, self._pending = self._pending, None
        return change

    def offer(self, change: GameChange) -> None:
        """Keep ``change`` for the reader if it is newer than what it was handed."""
        if change.version <= self._last_version:
            return
        self._last_version = change.version
        self._pending = change
        self._arrived.set()

    def close(self) -> None:
        """Unsubscribe: nothing arrives any more."""
        if self._open:
            self._open = False
            self._feed._unsubscribe(self)
            self._arrived.set()  # a reader waiting now hears that it has ended

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class GameFeed:
    """``service.feed``: changes of stored games, from this process and (PostgreSQL) from
    others once started."""

    def __init__(self, changes: st.GameChangeStore) -> None:
        self._changes = changes
        self._subscriptions: dict[int, set[GameSubscription]] = {}
        self._stop_listening: Callable[[], None] | None = None
        self._catching_up: set[asyncio.Task[None]] = set()

    def subscribe(self, game_id: int) -> GameSubscription:
        """A subscription to the changes of ``game_id`` from now on."""
        subscription = GameSubscription(self, game_id)
        if not self._subscriptions:  # the store is listened to while anyone subscribes
            self._stop_listening = self._changes.listen(self._changed, self._missed)
        self._subscriptions.setdefault(game_id, set()).add(subscription)
        return subscription

    async def start(self) -> None:
        """Hear other processes' changes too (PostgreSQL: LISTEN; SQLite: nothing)."""
        await self._changes.start()

    async def stop(self) -> None:
        """Stop hearing other processes' changes, and any catching up after a gap."""
        await self._changes.stop()
        for task in list(self._catching_up):
            task.cancel()
        if self._catching_up:
            await asyncio.wait(list(self._catching_up))

    def subscribed(self) -> int:
        """How many subscriptions are open (for tests and diagnostics)."""
        return sum(len(of_game) for of_game in self._subscriptions.values())

    def _unsubscribe(self, subscription: GameSubscription) -> None:
        of_game = self._subscriptions.get(subscription.game_id)
        if of_game is None:
            return
        of_game.discard(subscription)
        if not of_game:
            del self._subscriptions[subscription.game_id]
        if not self._subscriptions and self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None

    def _changed(self, game_id: int, version: int) -> None:
        of_game = self._subscriptions.get(game_id)
        if of_game:
            change = GameChange(game_id, version)
            for subscription in of_game:
                subscription.offer(change)

    def _missed(self) -> None:
        """Changes may have gone unheard: read the subscribed games' versions again."""
        if self._subscriptions:
            task = asyncio.create_task(self._catch_up(list(self._subscriptions)))
            self._catching_up.add(task)
            task.add_done_callback(self._catching_up.discard)

    async def _catch_up(self, game_ids: list[int]) -> None:
        try:
            versions = await self._changes.versions(game_ids)
        except st.StoreError as exc:  # the next change of each game is heard anyway
            log.warning("could not read the watched games' versions again: %s", exc)
            return
        for game_id, version in versions.items():
            self._changed(game_id, version)
