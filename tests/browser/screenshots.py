"""Takes the live board's screenshots in docs/images/ (live-board-*.png, and the server page's
server-page-*.png) with the real server over a fresh SQLite store and the fake Discord:
`python -m tests.browser.screenshots` (needs /usr/bin/chromium, like the browser tests)."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from playwright.async_api import Browser, Page, async_playwright, expect

from bot.service import Actor, JarmoService, Place, ServiceConfig
from bot.service.tournaments.views import TournamentRequest
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
from tests.ratings.ratings_helpers import play_draw, play_resign
from tests.service.service_helpers import ANN, BOB, GUILD, start_match
from tests.tournament.event_service import LOBBY, MODERATOR, RecordingHost, always
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
        await _take_server_page(live, browser, game_id)
        await browser.close()


CLEO, DANA, EMIL = Actor(303, "Cleo"), Actor(404, "Dana"), Actor(505, "Emil")
SERVER_PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CLEO, DANA, EMIL)}


async def _a_swiss_cup(service: JarmoService) -> None:
    """Five sign up; the first round's matches end (the higher id resigns), round 2 starts."""
    service.tournaments.attach(RecordingHost())
    request = TournamentRequest("Winter Cup", "swiss", rounds=3, games=2)
    cup = (await service.tournaments.create(LOBBY, MODERATOR, request, moderator=True)).tournament
    for actor in SERVER_PLAYERS.values():
        await service.tournaments.join(cup.id, actor)
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    for pairing in await service.kit.store.tournaments.pairings(cup.id):
        if pairing.match_id is not None and pairing.second_id is not None:
            match = await service.kit.store.games.match(pairing.match_id)
            loser = SERVER_PLAYERS[max(pairing.first_id, pairing.second_id)]
            await service.play.resign(Place(GUILD, match.channel_id), loser)
    await service.tournaments.rounds.advance_all()


async def _take_server_page(live: LiveBoard, browser: Browser, game_id: int) -> None:
    """The server page after the live board's game (``game_id``, played out) and a few more,
    with a Swiss cup in its second round."""
    service = live.service
    await play_resign(service, winner=CLEO, loser=DANA)
    await play_draw(service, BOB, EMIL)
    await play_resign(service, winner=ANN, loser=EMIL)
    await _a_swiss_cup(service)
    await service.servers.set_web_pages(GUILD, True, can_manage=True)
    link = await live.server_link()

    wide = await browser.new_context(viewport={"width": 1000, "height": 720})
    page = await wide.new_page()
    await page.goto(link)
    await expect(page.locator(".tournament")).to_have_count(1)
    await page.screenshot(path=IMAGES / "server-page-overview.png", full_page=True)
    print(IMAGES / "server-page-overview.png")
    await page.locator(f'.game[data-game="{game_id}"]').click()
    await expect(page.locator(".replay-view")).to_have_attribute("data-at", "0")
    for _ in range(12):
        await page.keyboard.press("ArrowRight")
    await expect(page.locator(".replay-view")).to_have_attribute("data-at", "12")
    await page.mouse.move(0, 0)  # no card lit by the pointer left where it clicked
    await _shoot(page, "server-page-replay")
    await page.goto(await live.server_link(hours=-1))
    await expect(page.locator("#message")).not_to_have_text("")
    await page.set_viewport_size({"width": 1000, "height": 260})
    await _shoot(page, "server-page-refusal")

    phone = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = await phone.new_page()
    await page.goto(link)
    await page.locator(f'.game[data-game="{game_id}"]').click()
    await expect(page.locator(".replay-view")).to_have_attribute("data-at", "0")
    for _ in range(12):
        await page.keyboard.press("ArrowRight")
    await expect(page.locator(".replay-view")).to_have_attribute("data-at", "12")
    await _shoot(page, "server-page-phone")


if __name__ == "__main__":
    if not CHROMIUM.exists():
        sys.exit("needs Chromium at /usr/bin/chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(Path(scratch)))
