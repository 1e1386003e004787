"""Takes the live board's screenshots in docs/images/ (live-board-*.png) with the real server
over a fresh SQLite store and the fake Discord: `python -m tests.browser.screenshots` (needs
/usr/bin/chromium, like the browser tests)."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from bot.service import JarmoService, ServiceConfig
from bot.store import open_store
from bot.web.app import WebSettings
from tests.browser.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    MOCK_CHANNEL,
    LiveBoard,
    ann_in_the_mocks_instance,
)
from tests.e2e.fake_discord import FakeDiscord
from tests.service.service_helpers import ANN, start_match
from tests.web.conftest import activity_settings

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
OPENING = ["A1-C2", "E5-D3", "B1-A3", "D3xC1", "C2-E3", "C5-B3"]


async def _shoot(page: Page, name: str) -> None:
    await page.screenshot(path=IMAGES / f"{name}.png")
    print(IMAGES / f"{name}.png")


async def main(folder: Path) -> None:
    fake = FakeDiscord().start()
    try:
        async with open_store(folder / "jarmo.sqlite3") as store:
            config = ServiceConfig(time_per_move_seconds=3600)
            service = JarmoService(store, config=config, rng=random.Random(0))
            live = LiveBoard(service, WebSettings(**activity_settings(fake)))
            await live.start()
            try:
                await _take(live, fake)
            finally:
                await live.stop()
    finally:
        fake.close()


async def _take(live: LiveBoard, fake: FakeDiscord) -> None:
    game_id = (await start_match(live.service)).game.id
    for move in OPENING:
        await live.play(game_id, move)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await browser.new_context(viewport={"width": 900, "height": 600})
        player = await context.new_page()
        await player.goto(await live.link(game_id, ANN.user_id))
        spectator = await context.new_page()
        await spectator.goto(await live.link(game_id))
        await expect(player.locator(".watchers")).to_have_text("2 watching")
        origin = (await live.service.watching.snapshot(game_id)).legal[-1].origin
        await player.locator(f'.point[data-point="{origin}"]').click()
        await expect(player.locator(".point.chosen")).to_have_count(1)
        await _shoot(player, "live-board-game")

        game = await live.service.watching.snapshot(game_id)
        while game.turn is not None:
            await live.play(game_id, game.legal[0].text)
            game = await live.service.watching.snapshot(game_id)
        await expect(player.locator(".result")).not_to_have_text("")
        await _shoot(player, "live-board-finished")

        await start_match(live.service, place=MOCK_CHANNEL)
        ann_in_the_mocks_instance(fake)
        activity = await context.new_page()
        await activity.goto(f"{live.address}/?sdk=mock&frame_id=screenshot")
        await expect(activity.locator("svg.board .point")).to_have_count(25)
        await _shoot(activity, "live-board-activity")
        await browser.close()


if __name__ == "__main__":
    if not CHROMIUM.exists():
        sys.exit("needs Chromium at /usr/bin/chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(Path(scratch)))
