"""The live board's page in a real browser: it draws the game the server sends, lets the player
to move play by clicks, keeps spectators' clicks to themselves and shows what the server says;
as the Discord Activity, with the Embedded App SDK's own mock standing in for Discord, it signs
in through our server's endpoints, gets a watch token for the channel's game and shows the same
board. The mock is used only when the server allows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Locator, Page, expect

from bot.jarmo import Game
from tests.browser.conftest import CHROMIUM, OpenPage, chromium
from tests.browser.stub_server import (
    ACCESS_TOKEN,
    MOCK_CODE,
    MOCK_INSTANCE_ID,
    StubServer,
)

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Chromium at /usr/bin/chromium: apt-get install chromium",
        allow_module_level=True,
    )

Stub = tuple[StubServer, str]


def point(page: Page, name: str) -> Locator:
    return page.locator(f'svg.board .point[data-point="{name}"]')


def moves_sent(server: StubServer) -> list[tuple[str | None, dict[str, object]]]:
    return [(side, frame) for side, frame in server.frames if frame.get("type") == "move"]


async def test_the_page_draws_the_board_from_the_state(stub: Stub, open_page: OpenPage) -> None:
    _, address = stub
    page = await open_page(f"{address}/watch#spectator")

    await expect(page.locator("svg.board .point")).to_have_count(25)
    await expect(page.locator("svg.board .lines line")).to_have_count(39)
    await expect(page.locator("svg.board .point[data-piece=white]")).to_have_count(5)
    await expect(page.locator("svg.board .point[data-piece=black]")).to_have_count(5)
    await expect(page.get_by_role("button", name="A1, white piece")).to_be_visible()
    await expect(page.get_by_role("button", name="C3, empty")).to_be_visible()
    await expect(page.locator(".player-white .name")).to_have_text("Ann")
    await expect(page.locator(".player-black .name")).to_have_text("Bob")
    await expect(page.locator(".player-white")).to_contain_class("to-move")
    await expect(page.locator(".status")).to_have_text("White to move")
    await expect(page.locator(".watchers")).to_have_text("1 watching")
    await expect(page.locator(".clock")).to_have_text(re.compile(r"^(1:00:00|59:\d\d)$"))
    # The token leaves the address bar as soon as the page has read it.
    assert page.url == f"{address}/watch"


async def test_a_game_played_by_clicks_is_followed_by_a_second_page(
    stub: Stub, open_page: OpenPage
) -> None:
    server, address = stub
    player = await open_page(f"{address}/watch#white")
    spectator = await open_page(f"{address}/watch#spectator")
    await expect(spectator.locator(".watchers")).to_have_text("2 watching")
    await expect(player.locator(".status")).to_have_text(
        "Your turn: pick a piece, then where it goes."
    )
    await expect(player.locator(".player-white .you")).to_have_text(" (you)")

    # Only what the legal list allows lights up: the pieces that can move, then their targets.
    await expect(point(player, "A1")).to_contain_class("legal")
    await expect(point(player, "C3")).not_to_contain_class("legal")
    await point(player, "A1").click()
    await expect(point(player, "A1")).to_contain_class("chosen")
    await expect(point(player, "C2")).to_contain_class("legal")
    await expect(point(player, "B3")).to_contain_class("legal")
    await expect(point(player, "C3")).not_to_contain_class("legal")
    await expect(player.get_by_role("button", name="C2, empty, selectable")).to_be_visible()
    await point(player, "C2").click()

    await server.until(lambda: len(moves_sent(server)) == 1)
    assert moves_sent(server) == [("white", {"type": "move", "move": "A1-C2", "version": 1})]
    for page in (player, spectator):
        await expect(page.locator(".moves li")).to_have_text(["A1-C2"])
        await expect(point(page, "C2")).to_have_attribute("data-piece", "white")
        await expect(point(page, "A1")).not_to_have_attribute("data-piece", "white")
        await expect(page.locator(".player-black")).to_contain_class("to-move")
    await expect(spectator.locator(".status")).to_have_text("Black to move")
    # Not the player's turn: nothing is lit, nothing can be chosen.
    await expect(player.locator(".point.legal")).to_have_count(0)

    # The opponent answers from Discord; the player moves again from the new state.
    black_move = server.game.legal_moves()[0]
    await server.play(black_move)
    await expect(player.locator(".moves li")).to_have_text(["A1-C2", black_move])
    text = server.game.notation(server.game.legal_actions()[0])
    origin, target = re.split(r"[-x]", text)
    await point(player, origin).click()
    await point(player, target).click()
    for page in (player, spectator):
        await expect(page.locator(".moves li")).to_have_text(["A1-C2", black_move, text])
    assert [frame["version"] for _, frame in moves_sent(server)] == [1, 3]


async def test_a_spectators_clicks_send_nothing(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    spectator = await open_page(f"{address}/watch#spectator")
    await expect(point(spectator, "A1")).to_have_attribute("data-piece", "white")

    # The points are disabled buttons for a spectator; force clicks them anyway, as a mouse would.
    await point(spectator, "A1").click(force=True)
    await point(spectator, "C2").click(force=True)
    await expect(spectator.locator(".point.legal")).to_have_count(0)
    await expect(point(spectator, "A1")).to_have_attribute("aria-disabled", "true")
    # Closing the page ends its socket after anything it sent before: then all of it is in.
    await spectator.close()
    await server.until(lambda: not server.viewers)
    assert server.frames == []


async def test_a_refused_move_shows_the_servers_words_and_can_be_made_again(
    stub: Stub, open_page: OpenPage
) -> None:
    server, address = stub
    server.refuse_next = ("stale_page", "The game changed meanwhile: look again and move.")
    player = await open_page(f"{address}/watch#white")
    await point(player, "A1").click()
    await point(player, "C2").click()

    await expect(player.locator(".notice")).to_have_text(
        "The game changed meanwhile: look again and move."
    )
    assert server.game.history == []
    await point(player, "A1").click()
    await point(player, "C2").click()
    await expect(player.locator(".moves li")).to_have_text(["A1-C2"])
    await expect(player.locator(".notice")).to_have_text("")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (4400, "The page did not start watching in time. Reload it to watch again."),
        (4403, "Watching games is switched off in this server."),
        (4408, "The page sent too many messages and was disconnected. Reload it to watch again."),
    ],
)
async def test_each_final_close_says_why(
    stub: Stub, open_page: OpenPage, code: int, message: str
) -> None:
    server, address = stub
    page = await open_page(f"{address}/watch#close-{code}")

    await expect(page.locator(".notice")).to_have_text(message)
    await expect(page.locator(".status")).to_have_text("")
    assert len(server.watch_frames) == 1


async def test_a_link_that_is_no_longer_good_says_so_and_stays_closed(
    stub: Stub, open_page: OpenPage
) -> None:
    server, address = stub
    page = await open_page(f"{address}/watch#expired")

    await expect(page.locator(".notice")).to_have_text(
        "This link has expired or is not valid. Ask for a new one with /jarmo watch."
    )
    await expect(page.locator("svg.board .point")).to_have_count(0)
    assert server.viewers == []


async def test_a_dropped_connection_comes_back_by_itself(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    page = await open_page(f"{address}/watch#white")
    await expect(page.locator(".watchers")).to_have_text("1 watching")

    await server.drop_connections()
    await server.until(lambda: not server.viewers)
    await server.until(lambda: len(server.viewers) == 1)
    await server.play("A1-C2")
    await expect(page.locator(".moves li")).to_have_text(["A1-C2"])
    await expect(page.locator(".status")).to_have_text("Black to move")


async def test_a_finished_game_shows_its_result(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    page = await open_page(f"{address}/watch#black")
    while not server.game.over:
        await server.play(server.game.legal_moves()[0])

    winner = server.game.winner()
    expected = "Drawn" if winner is None else f"{winner.capitalize()} wins"
    await expect(page.locator(".result")).to_contain_text(expected)
    await expect(page.locator(".moves li")).to_have_count(len(server.game.history))
    await expect(page.locator(".point.legal")).to_have_count(0)
    await expect(page.locator(".clock")).to_have_text("")


async def test_a_move_is_made_with_the_keyboard(stub: Stub, open_page: OpenPage) -> None:
    server, address = stub
    player = await open_page(f"{address}/watch#white")
    await expect(point(player, "A1")).to_contain_class("legal")

    await point(player, "A1").focus()
    await player.keyboard.press("Enter")
    await expect(point(player, "A1")).to_contain_class("chosen")
    await expect(point(player, "A1")).to_be_focused()
    await point(player, "C2").focus()
    await player.keyboard.press(" ")
    await expect(player.locator(".moves li")).to_have_text(["A1-C2"])
    assert server.game.history == ["A1-C2"]


LUDOS_OPENING = [
    "A1-B3",
    "A5xB3",
    "B1-A3",
    "B5xA3",
    "C1-A2",
    "A3-B1",
    "A2-C1",
    "B3-A1",
    "C1-A2",
    "C5-A4",
    "A2-C1",
    "A4-C3",
    "D1xC3",
    "D5-B4",
    "C1-A2",
    "B4-B3",
    "C3xB3",
    "E5-C4",
]


async def test_a_ludos_step_that_reaches_the_far_camp_asks_where_to_place(
    stub: Stub, open_page: OpenPage
) -> None:
    server, address = stub
    server.game = Game.new("ludos")
    for move in LUDOS_OPENING:
        server.game.play(move)
    with_place = [
        server.game.notation(a) for a in server.game.legal_actions() if a.place is not None
    ]
    assert "B3-A5@C1" in with_place
    player = await open_page(f"{address}/watch#white")

    await point(player, "B3").click()
    await point(player, "A5").click()
    await expect(player.locator(".status")).to_have_text("Now pick where the piece is placed.")
    places = {text.split("@")[1] for text in with_place if text.startswith("B3-A5@")}
    await expect(player.locator(".point.legal")).to_have_count(len(places))
    for place in places:
        await expect(point(player, place)).to_contain_class("legal")
    await point(player, "C1").click()

    await server.until(lambda: len(moves_sent(server)) == 1)
    assert moves_sent(server)[0][1]["move"] == "B3-A5@C1"
    await expect(player.locator(".moves li").last).to_have_text(server.game.history[-1])


async def test_the_page_speaks_the_browsers_language(stub: Stub, tmp_path: Path) -> None:
    server, address = stub
    async with chromium(tmp_path / "profile", locale="de-DE") as browser:
        page = await browser.new_page()
        await page.goto(f"{address}/watch#white")

        await expect(page.locator(".status")).to_have_text(
            "Du bist am Zug: Wähle einen Stein, dann sein Ziel."
        )
        await expect(page.get_by_role("button", name="A1, weißer Stein, wählbar")).to_be_visible()
        await expect(page.locator("html")).to_have_attribute("lang", "de")
        # The server writes its refusals in the language the page names.
        assert server.watch_frames[0]["lang"] == "de"


# The Activity


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
