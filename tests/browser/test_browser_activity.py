"""The Discord Activity in a real browser, with the Embedded App SDK's own mock standing in for
Discord: it signs in through our server's endpoints, gets a watch token for the channel's game
and shows the live board. The mock is used only when the server allows it."""

from __future__ import annotations

from playwright.async_api import expect

from tests.browser.conftest import OpenPage
from tests.browser.stub_server import ACCESS_TOKEN, MOCK_CODE, MOCK_INSTANCE_ID, StubServer

Stub = tuple[StubServer, str]


async def test_the_activity_signs_in_and_reaches_the_board(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    page = await open_page(f"{address}/?sdk=mock&frame_id=x")

    await expect(page.locator("svg.board .point")).to_have_count(25)
    await expect(page.locator("svg.board .lines line")).to_have_count(39)
    await expect(page.locator(".player-white .you")).to_have_text(" (you)")
    await expect(page.get_by_role("button", name="Invite")).to_be_visible()
    assert server.activity_requests == [
        ("/api/activity/token", {"code": MOCK_CODE}),
        (
            "/api/activity/game",
            {"access_token": ACCESS_TOKEN, "instance_id": MOCK_INSTANCE_ID, "channel_id": "2"},
        ),
    ]
    # The player moves in the Activity as on the live page.
    await page.locator('.point[data-point="A1"]').click()
    await page.locator('.point[data-point="C2"]').click()
    await expect(page.locator(".moves li")).to_have_text(["A1-C2"])


async def test_without_a_game_the_activity_offers_invites(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    server.activity_game = None
    page = await open_page(f"{address}/?sdk=mock&frame_id=x")

    await expect(page.locator("#message")).to_have_text(
        "No game is being played in this channel yet. Start one with /jarmo play, or invite others."
    )
    await expect(page.get_by_role("button", name="Invite")).to_be_visible()
    await expect(page.locator("svg.board .point")).to_have_count(0)


async def test_the_sdk_mock_needs_the_servers_consent(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    server.sdk_mock = False
    # Outside Discord the real SDK finds none of the launch parameters it needs and gives up.
    page = await open_page(f"{address}/?sdk=mock&frame_id=x")

    await expect(page.locator("#message")).to_have_text(
        "The Activity could not start. Close it and open it again."
    )
    assert server.activity_requests == []
