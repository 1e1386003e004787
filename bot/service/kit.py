"""What every use case works with: the store's roles, the clock, the settings, the per-channel
locks, the names shown for players, and the signals that wake background jobs. It holds no
transaction: each write is one transaction of the store's own.

One ``ServiceKit`` is built per service and handed to each use-case module; none of them
changes it (the locks, names and signals are objects of their own). Nothing in it grows with
the number of channels or players: a channel's lock lives only while it is used, and the names
are a cache of the players seen most recently.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot import store as st
from bot.service.bounded import BoundedCache, KeyedLocks
from bot.service.models import Actor, Place, ServiceConfig
from bot.service.ratings import Ratings

# Players whose names are kept in memory (about 150 bytes each); the others are read again.
NAMES_CACHED = 20_000


def utc_now() -> datetime:
    """The real clock; tests pass their own."""
    return datetime.now(UTC)


class PlayerNames:
    """The names players are shown by, cached in front of the store's player role."""

    def __init__(self, players: st.PlayerStore, *, cached: int = NAMES_CACHED) -> None:
        self._players = players
        self._names: BoundedCache[tuple[int | None, int], str] = BoundedCache(cached)

    async def remember(self, place: Place, actor: Actor) -> None:
        """Store the actor's current display name in the place's server (if it changed)."""
        key = (place.guild_id, actor.user_id)
        if self._names.get(key) != actor.display_name:
            await self._players.upsert(place.guild_id, actor.user_id, actor.display_name)
            self._names.put(key, actor.display_name)

    async def __call__(self, guild_id: int | None, user_id: int) -> str:
        """The name last seen for a user in this server (``None``: outside servers)."""
        key = (guild_id, user_id)
        name = self._names.get(key)
        if name is None:
            try:
                player = await self._players.get(guild_id, user_id)
                name = player.display_name or f"Player {user_id}"
            except st.NotFound:
                name = f"Player {user_id}"
            self._names.put(key, name)
        return name

    def __len__(self) -> int:
        """How many names are held in memory."""
        return len(self._names)


@dataclass(frozen=True, slots=True)
class Signals:
    """Events that wake the background jobs of this process early (they poll anyway)."""

    # Set whenever a write gives some game a new deadline: wakes the deadline scheduler.
    deadlines_changed: asyncio.Event = field(default_factory=asyncio.Event)
    # Set whenever an announcement becomes deliverable: wakes the delivery loop.
    announcements_changed: asyncio.Event = field(default_factory=asyncio.Event)

    def new_deadline(self, match: st.MatchRecord) -> None:
        """A write gave a game of ``match`` a new clock: wake the deadline scheduler, if the
        match has a time limit (an untimed game has no deadline to wait for)."""
        if match.time_per_move_seconds is not None:
            self.deadlines_changed.set()


class ServiceKit:
    """What the use cases share. ``computer`` is the computer opponent's identity, if the front
    end plays one; ``ratings`` decides which games are rated."""

    def __init__(
        self,
        store: st.Store,
        *,
        config: ServiceConfig,
        clock: Callable[[], datetime],
        rng: random.Random,
        ratings: Ratings,
        computer: Actor | None = None,
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.rng = rng
        self.ratings = ratings
        self.computer = computer
        # Every change to a channel's game runs under its lock. It only saves work inside one
        # process; correctness comes from the store's version checks.
        self.locks: KeyedLocks[int] = KeyedLocks()
        self.names = PlayerNames(store.players)
        self.signals = Signals()

    def now(self) -> datetime:
        """The service's current time (UTC)."""
        return self.clock()

    def is_computer(self, user_id: int | None) -> bool:
        """Whether ``user_id`` is the computer opponent."""
        return self.computer is not None and user_id == self.computer.user_id
