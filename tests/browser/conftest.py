"""The browser tests run the built page (bot/web/static/) in Debian's Chromium against the stub
server (stub_server.py), driven by Playwright, which never downloads a browser of its own here.
Without /usr/bin/chromium they skip (test_browser_page.py says so)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp import web
from playwright.async_api import BrowserContext, ConsoleMessage, Page, async_playwright, expect

from tests.browser.stub_server import StubServer

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


@pytest.fixture
async def stub() -> AsyncIterator[tuple[StubServer, str]]:
    """The stub server on a free port, and its address."""
    server = StubServer()
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@asynccontextmanager
async def chromium(profile: Path, locale: str = "en-US") -> AsyncIterator[BrowserContext]:
    """Chromium with a fresh profile; every page it opens fails the test on a script error or
    a Content Security Policy violation."""
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
            # A refusal (403) is an answer the page handles; the browser logs it all the same.
            if message.type == "error" and not message.text.endswith("status of 403 (Forbidden)"):
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
