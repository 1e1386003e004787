"""The live board's server on a real SQLite store, served on a loopback port by aiohttp's test
server. The game feed and the spectator counts are small in-memory stand-ins with the service's
shapes: the feed hears every move the store records, as the real one does after each commit."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot import store as st
from bot.service import JarmoService, ServiceConfig
from bot.store import SqliteStore, open_store
from bot.web.app import WebSettings, create_web_app
from bot.web.tokens import sign_watch_token
from tests.fakes import FakeClock

SECRET = b"s" * 32
WAIT_SECONDS = 10.0  # the longest any test waits for a frame or a count


@dataclass(frozen=True, slots=True)
class Change:
    game_id: int
    version: int


class MemorySubscription:
    """One game's changes; a slow reader sees only the newest."""

    def __init__(self, feed: MemoryFeed, game_id: int) -> None:
        self._feed, self.game_id = feed, game_id
        self._newest: Change | None = None
        self._arrived = asyncio.Event()

    def put(self, change: Change) -> None:
        self._newest = change
        self._arrived.set()

    async def next(self) -> Change:
        await self._arrived.wait()
        self._arrived.clear()
        assert self._newest is not None
        return self._newest

    def __enter__(self) -> MemorySubscription:
        self._feed.subscriptions.append(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._feed.subscriptions.remove(self)


@dataclass
class MemoryFeed:
    subscriptions: list[MemorySubscription] = field(default_factory=list)

    def subscribe(self, game_id: int) -> MemorySubscription:
        return MemorySubscription(self, game_id)

    def publish(self, game_id: int, version: int) -> None:
        for subscription in list(self.subscriptions):
            if subscription.game_id == game_id:
                subscription.put(Change(game_id, version))

    def follow(self, store: SqliteStore) -> None:
        """Publish every move ``store`` records (the real feed publishes after each commit)."""
        record_move = store.games.record_move

        async def recorded(game_id: int, **kwargs: Any) -> st.GameRecord:
            updated = await record_move(game_id, **kwargs)
            self.publish(updated.id, updated.version)
            return updated

        store.games.record_move = recorded  # type: ignore[method-assign]  # the stand-in listens


class MemorySpectators:
    """The counts reported, and a way to wait for one."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self._changed = asyncio.Condition()

    async def report(self, game_id: int, watching: int) -> None:
        async with self._changed:
            self.counts[game_id] = watching
            self._changed.notify_all()

    async def count(self, game_id: int) -> int:
        return self.counts.get(game_id, 0)

    async def wait_for(self, game_id: int, watching: int) -> None:
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self.counts.get(game_id) == watching),
                WAIT_SECONDS,
            )


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock) -> JarmoService:
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))


@pytest.fixture
def feed(store: SqliteStore) -> MemoryFeed:
    made = MemoryFeed()
    made.follow(store)
    return made


@pytest.fixture
def spectators() -> MemorySpectators:
    return MemorySpectators()


@dataclass
class Live:
    """A running live board and what the tests need around it."""

    service: JarmoService
    client: TestClient[web.Request, web.Application]
    feed: MemoryFeed
    spectators: MemorySpectators
    now: Callable[[], datetime]

    def token(
        self,
        game_id: int,
        *,
        user_id: int | None = None,
        hours: float = 1.0,
        secret: bytes = SECRET,
    ) -> str:
        expires = self.now() + timedelta(hours=hours)
        return sign_watch_token(secret, game_id, expires_at=expires, user_id=user_id)


LiveFactory = Callable[..., Awaitable[Live]]


@pytest.fixture
async def live_factory(
    service: JarmoService, feed: MemoryFeed, spectators: MemorySpectators, tmp_path: Path
) -> AsyncIterator[LiveFactory]:
    clients: list[TestClient[web.Request, web.Application]] = []

    async def secret() -> bytes:
        return SECRET

    async def make(**settings: Any) -> Live:
        settings.setdefault("static_dir", tmp_path / "static")
        app = create_web_app(
            service,
            feed=feed,
            spectators=spectators,
            secret=secret,
            settings=WebSettings(**settings),
        )
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        clients.append(client)
        return Live(service, client, feed, spectators, service.now)

    yield make
    for client in clients:
        await client.close()


@pytest.fixture
async def live(live_factory: LiveFactory) -> Live:
    return await live_factory()
