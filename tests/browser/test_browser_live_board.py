"""The live page in a real browser: it draws the game the server sends, lets the player to move
play by clicks, keeps spectators' clicks to themselves and shows what the server says."""

from __future__ import annotations

from playwright.async_api import expect

from tests.browser.conftest import OpenPage
from tests.browser.stub_server import StubServer


async def test_the_page_draws_the_board_from_the_state(
    stub: tuple[StubServer, str], open_page: OpenPage
) -> None:
    server, address = stub
    page = await open_page(f"{address}/watch#spectator")

    await expect(page.locator("svg.board .point")).to_have_count(25)
    await expect(page.locator("svg.board .lines line")).to_have_count(39)
    await expect(page.locator("svg.board .point[data-piece]")).to_have_count(10)
    await expect(page.get_by_role("button", name="A1, white piece")).to_be_visible()
    await expect(page.locator(".player-white .name")).to_have_text("Ann")
    await expect(page.locator(".status")).to_have_text("White to move")
    await expect(page.locator(".watchers")).to_have_text("1 watching")
    # The token leaves the address bar as soon as the page has read it.
    assert page.url == f"{address}/watch"
