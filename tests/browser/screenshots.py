"""Takes the live board's screenshots in docs/images/ (live-board-*.png) with the stub server:
`python -m tests.browser.screenshots` (needs /usr/bin/chromium, like the browser tests)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from aiohttp import web
from playwright.async_api import Page, async_playwright, expect

from bot.jarmo import POINT_NAMES, Game
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.stub_server import StubServer

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
OPENING = ["A1-C2", "E5-D3", "B1-A3", "D3xC1", "C2-E3", "C5-B3"]


async def _shoot(page: Page, name: str) -> None:
    await page.screenshot(path=IMAGES / f"{name}.png")
    print(IMAGES / f"{name}.png")


async def main() -> None:
    server = StubServer()
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    address = f"http://127.0.0.1:{runner.addresses[0][1]}"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await browser.new_context(viewport={"width": 900, "height": 600})
        for move in OPENING:
            server.game.play(move)
        player = await context.new_page()
        await player.goto(f"{address}/watch#white")
        spectator = await context.new_page()
        await spectator.goto(f"{address}/watch#spectator")
        await expect(player.locator(".watchers")).to_have_text("2 watching")
        origin = server.game.legal_actions()[-1].origin
        assert origin is not None
        await player.locator(f'.point[data-point="{POINT_NAMES[origin]}"]').click()
        await expect(player.locator(".point.chosen")).to_have_count(1)
        await _shoot(player, "live-board-game")

        while not server.game.over:
            await server.play(server.game.legal_moves()[0])
        await expect(player.locator(".result")).not_to_have_text("")
        await _shoot(player, "live-board-finished")

        server.game = Game.new()
        server.version += 1
        activity = await context.new_page()
        await activity.goto(f"{address}/?sdk=mock&frame_id=screenshot")
        await expect(activity.locator("svg.board .point")).to_have_count(25)
        await _shoot(activity, "live-board-activity")
        await browser.close()
    await runner.cleanup()


if __name__ == "__main__":
    if not CHROMIUM.exists():
        sys.exit("needs Chromium at /usr/bin/chromium: apt-get install chromium")
    asyncio.run(main())
