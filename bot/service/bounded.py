"""Per-key state that stays bounded however many channels, servers and players the bot meets:
locks that exist only while someone holds or waits for them, and caches of a fixed size."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar
from weakref import WeakValueDictionary

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class KeyedLocks(Generic[K]):
    """One ``asyncio.Lock`` per key, for as long as it is in use.

    A lock lives while a task holds it or waits for it (each keeps a reference), so every task
    that asks for a key meanwhile gets the same lock; once nobody uses it, it is dropped. A
    bot that has seen a million channels keeps locks only for those busy right now.
    """

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[K, asyncio.Lock] = WeakValueDictionary()

    def __call__(self, key: K) -> asyncio.Lock:
        """The lock of ``key``: take it at once (``async with locks(key):``)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        """How many keys have a lock in use."""
        return len(self._locks)


class BoundedCache(Generic[K, V]):
    """A mapping that keeps the ``size`` keys used most recently and forgets the rest."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a cache holds at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recently used), or ``None``."""
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        """Remember ``value`` for ``key``, forgetting the least recently used key if full."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)
