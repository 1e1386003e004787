"""The live board's server on a real SQLite store, served on a loopback port by aiohttp's test
server, with the service's own game feed and spectator counts (the counts watched, so that a
test can wait for one)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.service import JarmoService, ServiceConfig
from bot.service.game_feed import GameFeed
from bot.service.spectators import Spectators
from bot.store import SqliteStore, open_store
from bot.web.app import WebSettings, create_web_app
from bot.web.tokens import sign_watch_token
from tests.e2e.fake_discord import FakeDiscord
from tests.fakes import FakeClock

SECRET = b"s" * 32
WAIT_SECONDS = 10.0  # the longest any test waits for a frame or a count


class WatchedSpectators:
    """The service's spectator counts, and a way to wait for one to be reported."""

    def __init__(self, counts: Spectators) -> None:
        self._counts = counts
        self._changed = asyncio.Condition()
        self.reported: dict[int, int] = {}

    async def report(self, game_id: int, watching: int) -> None:
        await self._counts.report(game_id, watching)
        async with self._changed:
            self.reported[game_id] = watching
            self._changed.notify_all()

    async def count(self, game_id: int) -> int:
        return await self._counts.count(game_id)

    async def wait_for(self, game_id: int, watching: int) -> None:
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self.reported.get(game_id) == watching),
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
def spectators(service: JarmoService) -> WatchedSpectators:
    return WatchedSpectators(service.spectators)


@dataclass
class Live:
    """A running live board and what the tests need around it."""

    service: JarmoService
    client: TestClient[web.Request, web.Application]
    feed: GameFeed
    spectators: WatchedSpectators
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
    service: JarmoService, spectators: WatchedSpectators, tmp_path: Path
) -> AsyncIterator[LiveFactory]:
    clients: list[TestClient[web.Request, web.Application]] = []

    async def secret() -> bytes:
        return SECRET

    async def make(**settings: Any) -> Live:
        settings.setdefault("static_dir", tmp_path / "static")
        app = create_web_app(
            service,
            feed=service.feed,
            spectators=spectators,
            secret=secret,
            settings=WebSettings(**settings),
        )
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        clients.append(client)
        return Live(service, client, service.feed, spectators, service.now)

    yield make
    for client in clients:
        await client.close()


@pytest.fixture
async def live(live_factory: LiveFactory) -> Live:
    return await live_factory()


@pytest.fixture
def discord() -> Iterator[FakeDiscord]:
    """The loopback fake of Discord (its own thread); nothing Discord would refuse reaches it."""
    fake = FakeDiscord().start()
    fake.activity = True
    try:
        yield fake
        assert fake.take_problems() == []
    finally:
        fake.close()


def activity_settings(fake: FakeDiscord, *, sdk_mock: bool = True) -> dict[str, Any]:
    """The live board's settings for the fake's app, its Activity on, the SDK's mock allowed
    unless told otherwise."""
    return {
        "activity": True,
        "client_id": fake.world.application_id,
        "client_secret": fake.client_secret,
        "bot_token": fake.token,
        "discord_api": fake.api_base_url,
        "sdk_mock": sdk_mock,
    }
