"""End to end in a browser: the bot process serves the live board beside Discord (the fake),
a /jarmo watch link opens it in Chromium, and a move made in Discord with /jarmo move appears in
the page. Skips without /usr/bin/chromium, like the browser tests."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.browser.conftest import CHROMIUM, chromium
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.postgres import postgres_server

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Chromium at /usr/bin/chromium: apt-get install chromium",
        allow_module_level=True,
    )

PUBLIC_URL = "https://jarmo.example.org"
LINK = re.compile(re.escape(PUBLIC_URL) + r"/watch#([A-Za-z0-9_-]+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def bot(
    fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory, e2e_backend: str
) -> Iterator[BotProcess]:
    """A bot that serves the live board on a free port of 127.0.0.1."""
    process = BotProcess(fake, tmp_path_factory.mktemp("bot"), live_board_url=PUBLIC_URL)
    if e2e_backend == "postgresql":
        process.database_url = postgres_server().fresh_database()
    process.start()
    yield process
    fake.wait_idle()
    status, _ = process.stop()
    assert status == 0, process.log_tail()


async def test_a_move_made_in_discord_appears_in_the_page(
    fake: FakeDiscord, bot: BotProcess, tmp_path: Path
) -> None:
    world = fake.world
    here = world.channel("arena-1")
    table = await asyncio.to_thread(Table.start, fake, here, world.ann, world.bob)
    answer = await asyncio.to_thread(
        lambda: fake.slash(world.cat, here, "jarmo watch").wait_answer()
    )
    check_private(answer, "live board")
    found = LINK.search(answer.content)
    assert found is not None, answer.content
    address = await asyncio.to_thread(bot.live_board_address)

    async with chromium(tmp_path / "profile") as browser:
        page = await browser.new_page()
        await page.goto(f"{address}/watch#{found[1]}")
        await expect(page.locator(".player-white .name")).to_have_text("Ann")
        await expect(page.locator(".status")).to_have_text("White to move")
        await expect(page.locator(".moves li")).to_have_count(0)

        await asyncio.to_thread(table.play, "A1-C2")
        await expect(page.locator(".moves li")).to_have_text(["A1-C2"])
        await expect(page.locator('.point[data-point="C2"]')).to_have_attribute(
            "data-piece", "white"
        )
        await expect(page.locator(".status")).to_have_text("Black to move")
        reply = await asyncio.to_thread(table.play)
        assert reply.message is not None
        await expect(page.locator(".moves li")).to_have_text(table.game.history)
