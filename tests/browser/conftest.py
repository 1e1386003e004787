"""The browser tests run the built page (bot/web/static/) in Debian's Chromium against the real
live board (bot/web) over a real service on an SQLite store, driven by Playwright, which never
downloads a browser of its own here. The Activity's sign-in talks to the loopback fake of
Discord (tests/e2e/fake_discord.py). Without /usr/bin/chromium they skip (each test module
says so)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from playwright.async_api import BrowserContext, ConsoleMessage, Page, async_playwright, expect

from bot.service import JarmoService, Place, ServiceConfig, read_action
from bot.store import open_store
from bot.web.app import WebSettings, bound_port, create_web_app, start_web_server
from bot.web.tokens import sign_server_token, sign_watch_token
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import ActivityInstance, OAuthGrant, User
from tests.service.service_helpers import ANN, BOB, GUILD, HERE
from tests.web.conftest import discord  # noqa: F401  (a fixture the browser tests use)

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


PLAYERS = {ANN.user_id: ANN, BOB.user_id: BOB}
# What the browser logs of the server's refusals that the page puts into words.
HANDLED_REFUSALS = (
    "status of 401 (Unauthorized)",
    "status of 403 (Forbidden)",
    "status of 404 (Not Found)",
    "status of 502 (Bad Gateway)",
)


@dataclass
class LiveBoard:
    """The live board's server over ``service``, on a free port of 127.0.0.1."""

    service: JarmoService
    settings: WebSettings
    runner: web.AppRunner | None = None
    port: int = 0

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Serve (again on the same port, after ``stop``)."""
        service = self.service
        app = create_web_app(
            service,
            feed=service.feed,
            spectators=service.spectators,
            secret=service.web_secret,
            settings=self.settings,
        )
        self.runner = await start_web_server(app, "127.0.0.1", self.port)
        self.port = bound_port(self.runner)

    async def stop(self) -> None:
        """Stop serving, as a restarting server does (it closes every page's socket)."""
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def link(self, game_id: int, user_id: int | None = None, *, hours: float = 1.0) -> str:
        """A /jarmo watch link to the game for ``user_id`` (None: a spectator's)."""
        expires = self.service.now() + timedelta(hours=hours)
        secret = await self.service.web_secret()
        token = sign_watch_token(secret, game_id, expires_at=expires, user_id=user_id)
        return f"{self.address}/watch#{token}"

    async def server_link(self, guild_id: int = GUILD, *, hours: float = 1.0) -> str:
        """A link to the server page of ``guild_id`` (as /jarmo leaderboard gives)."""
        expires = self.service.now() + timedelta(hours=hours)
        secret = await self.service.web_secret()
        return f"{self.address}/server#{sign_server_token(secret, guild_id, expires_at=expires)}"

    async def play(self, game_id: int, move: str, place: Place = HERE) -> None:
        """A move of the player to move, made in Discord (``/jarmo move``)."""
        game = await self.service.watching.snapshot(game_id)
        assert game.turn is not None, "the game is over"
        actor = PLAYERS[game.player_ids[game.turn]]
        await self.service.play.move(place, actor, read_action(move))


ServeBoard = Callable[..., Awaitable[LiveBoard]]


@pytest.fixture
async def serve(tmp_path: Path) -> AsyncIterator[ServeBoard]:
    """Starts the live board with the given ``WebSettings`` over one service on an SQLite file
    (moves have an hour each, so that the page shows a clock)."""
    boards: list[LiveBoard] = []
    async with open_store(tmp_path / "jarmo.sqlite3") as store:
        config = ServiceConfig(time_per_move_seconds=3600)
        service = JarmoService(store, config=config, rng=random.Random(0))

        async def start(**settings: Any) -> LiveBoard:
            board = LiveBoard(service, WebSettings(**settings))
            await board.start()
            boards.append(board)
            return board

        try:
            yield start
        finally:
            for board in boards:
                await board.stop()


@pytest.fixture
async def live(serve: ServeBoard) -> LiveBoard:
    """The live board without the Activity."""
    return await serve()


# The Activity: the SDK's mock is in guild 1, channel 2, instance MOCK_INSTANCE_ID, and its
# authorize() answers MOCK_CODE; the fake Discord behind the server knows them as Ann's.
MOCK_CODE = "mock_code"
MOCK_INSTANCE_ID = "123456789012345678"
MOCK_CHANNEL = Place(guild_id=HERE.guild_id, channel_id=2)


def ann_in_the_mocks_instance(fake: FakeDiscord) -> None:
    """Ann's page in the instance the SDK's mock names: her code, and the instance in the
    mock's channel with her in it."""
    app = fake.world.application_id
    fake.oauth_grants.append(OAuthGrant(User(ANN.user_id, "ann", "Ann"), MOCK_CODE))
    instance = ActivityInstance(MOCK_INSTANCE_ID, fake.ids(), app, 2, HERE.guild_id, [ANN.user_id])
    fake.activity_instances[MOCK_INSTANCE_ID] = instance


@asynccontextmanager
async def chromium(
    profile: Path, locale: str = "en-US", *, failures: tuple[str, ...] = ()
) -> AsyncIterator[BrowserContext]:
    """Chromium with a fresh profile; every page it opens fails the test on a script error or
    a Content Security Policy violation. ``failures``: the ends of what else the browser may log
    as an error, for a test that makes a request fail on purpose."""
    async with async_playwright() as playwright:
        context = await playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            locale=locale,
            viewport={"width": 960, "height": 640},
        )
        # Generous limits for a busy machine; every wait still ends as soon as its condition holds.
        context.set_default_timeout(15_000)
        expect.set_options(timeout=15_000)
        errors: list[str] = []

        def console(message: ConsoleMessage) -> None:
            # A refusal (401, 403, 404, 502) is an answer the page handles; the browser logs it
            # all the same.
            if message.type == "error" and not message.text.endswith(HANDLED_REFUSALS + failures):
                errors.append(message.text)

        def watch(page: Page) -> None:
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", console)

        context.on("page", watch)
        for page in context.pages:
            watch(page)
        try:
            yield context
        finally:
            await context.close()
        assert errors == []


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[BrowserContext]:
    """Chromium in English (see ``chromium``)."""
    async with chromium(tmp_path / "profile") as context:
        yield context


OpenPage = Callable[[str], Awaitable[Page]]


@pytest.fixture
def open_page(browser: BrowserContext) -> OpenPage:
    """Opens a new tab at an address."""

    async def open_at(url: str) -> Page:
        page = await browser.new_page()
        await page.goto(url)
        return page

    return open_at
