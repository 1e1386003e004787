"""The Activity's share dialog in a real browser: the Embedded App SDK's own mock stands in for
Discord's client (it logs every command it is given, which the tests read as a spy) and the
loopback fake of Discord takes the picture's upload behind the real server. Share is offered
only once the game has ended; a click opens Discord's dialog with the uploaded picture's url,
and a refusal is said in words."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import ConsoleMessage, Page, expect

from tests.browser.conftest import (
    CHROMIUM,
    MOCK_CHANNEL,
    LiveBoard,
    OpenPage,
    ServeBoard,
    ann_in_the_mocks_instance,
)
from tests.e2e.fake_discord import DiscordError, FakeDiscord
from tests.service.service_helpers import BOB, start_match
from tests.web.conftest import activity_settings

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Chromium at /usr/bin/chromium: apt-get install chromium",
        allow_module_level=True,
    )

SHARE_COMMAND = "DiscordSDKMock: openShareMomentDialog("


def is_share_command(message: ConsoleMessage) -> bool:
    return message.text.startswith(SHARE_COMMAND)


async def activity_of_anns_game(
    serve: ServeBoard, discord: FakeDiscord, open_page: OpenPage
) -> tuple[LiveBoard, Page]:
    """Ann (White) plays Bob in the mock's channel, and has the Activity open on the game."""
    live = await serve(**activity_settings(discord))
    await start_match(live.service, place=MOCK_CHANNEL)
    ann_in_the_mocks_instance(discord)
    page = await open_page(f"{live.address}/?sdk=mock&frame_id=x")
    await expect(page.locator(".player-white .you")).to_have_text(" (you)")
    return live, page


async def test_share_appears_when_the_game_ends_and_opens_discords_dialog(
    serve: ServeBoard, discord: FakeDiscord, open_page: OpenPage
) -> None:
    live, page = await activity_of_anns_game(serve, discord, open_page)
    share = page.get_by_role("button", name="Share")
    await expect(page.get_by_role("button", name="Invite")).to_be_visible()
    await expect(share).to_have_count(0)  # the game is still played

    await live.service.play.resign(MOCK_CHANNEL, BOB)
    await expect(page.locator(".result")).to_contain_text("White wins")
    await expect(share).to_be_visible()
    async with page.expect_console_message(is_share_command) as command:
        await share.click()

    [uploaded] = discord.app_attachments
    arguments = json.loads((await command.value).text.removeprefix(SHARE_COMMAND)[:-1])
    assert arguments == [{"mediaUrl": uploaded.url}]
    assert uploaded.content_type == "image/png"
    await expect(page.locator("#message")).to_have_text("")


async def test_discord_refusing_the_picture_is_said_in_words(
    serve: ServeBoard, discord: FakeDiscord, open_page: OpenPage
) -> None:
    live, page = await activity_of_anns_game(serve, discord, open_page)
    await live.service.play.resign(MOCK_CHANNEL, BOB)
    discord.refuse = lambda method, path: (
        DiscordError(500, "500: Internal Server Error") if path.endswith("/attachment") else None
    )
    shares: list[str] = []

    def spy(message: ConsoleMessage) -> None:
        if is_share_command(message):
            shares.append(message.text)

    page.on("console", spy)

    await page.get_by_role("button", name="Share").click()
    await expect(page.locator("#message")).to_have_text(
        "Discord did not take the picture. Try again in a moment."
    )
    await expect(page.get_by_role("button", name="Share")).to_be_enabled()
    assert discord.app_attachments == [] and shares == []
