"""The live board's page in a real browser against the real server: it draws the game the
service holds, lets the player to move play by clicks, keeps spectators' clicks to themselves,
follows moves made in Discord and shows what the server says; as the Discord Activity, with the
Embedded App SDK's own mock standing in for Discord's client and the loopback fake of Discord
behind the server, it signs in, gets a watch token for the channel's game and shows the same
board. The mock is used only when the server allows it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import BrowserContext, Locator, Page, WebSocket, WebSocketRoute, expect

from bot.service import Place
from bot.web.app import FLOOD_FRAMES
from tests.browser.conftest import (
    CHROMIUM,
    MOCK_CHANNEL,
    MOCK_INSTANCE_ID,
    LiveBoard,
    OpenPage,
    ServeBoard,
    ann_in_the_mocks_instance,
    chromium,
)
from tests.e2e.fake_discord import FakeDiscord
from tests.service.service_helpers import ANN, BOB, GUILD, start_match
from tests.web.conftest import activity_settings

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Chromium at /usr/bin/chromium: apt-get install chromium",
        allow_module_level=True,
    )


def point(page: Page, name: str) -> Locator:
    return page.locator(f'svg.board .point[data-point="{name}"]')


def frames_sent(page: Page) -> list[dict[str, Any]]:
    """The frames ``page`` sends over its sockets from now on, pings left out."""
    sent: list[dict[str, Any]] = []

    def record(payload: str | bytes) -> None:
        frame = json.loads(payload)
        if frame.get("type") != "ping":
            sent.append(frame)

    def listen(socket: WebSocket) -> None:
        socket.on("framesent", record)

    page.on("websocket", listen)
    return sent


async def moves_stored(live: LiveBoard, game_id: int) -> tuple[str, ...]:
    return (await live.service.watching.snapshot(game_id)).moves


async def test_the_page_draws_the_board_from_the_state(
    live: LiveBoard, open_page: OpenPage
) -> None:
    board = await start_match(live.service)
    page = await open_page(await live.link(board.game.id))

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
    assert page.url == f"{live.address}/watch"


async def test_a_game_played_by_clicks_is_followed_by_a_second_page(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = (await start_match(live.service)).game.id
    player = await open_page(await live.link(game_id, ANN.user_id))
    spectator = await open_page(await live.link(game_id))
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

    for page in (player, spectator):
        await expect(page.locator(".moves li")).to_have_text(["A1-C2"])
        await expect(point(page, "C2")).to_have_attribute("data-piece", "white")
        await expect(point(page, "A1")).not_to_have_attribute("data-piece", "white")
        await expect(page.locator(".player-black")).to_contain_class("to-move")
    assert await moves_stored(live, game_id) == ("A1-C2",)
    await expect(spectator.locator(".status")).to_have_text("Black to move")
    # Not the player's turn: nothing is lit, nothing can be chosen.
    await expect(player.locator(".point.legal")).to_have_count(0)

    # The opponent answers from Discord; the player moves again from the new state.
    black_move = (await live.service.watching.snapshot(game_id)).legal[0].text
    await live.play(game_id, black_move)
    await expect(player.locator(".moves li")).to_have_text(["A1-C2", black_move])
    shape = (await live.service.watching.snapshot(game_id)).legal[0]
    assert shape.origin is not None and shape.target is not None
    await point(player, shape.origin).click()
    await point(player, shape.target).click()
    for page in (player, spectator):
        await expect(page.locator(".moves li")).to_have_text(["A1-C2", black_move, shape.text])
    assert await moves_stored(live, game_id) == ("A1-C2", black_move, shape.text)


async def test_a_spectators_clicks_send_nothing(live: LiveBoard, browser: BrowserContext) -> None:
    game_id = (await start_match(live.service)).game.id
    spectator = await browser.new_page()
    sent = frames_sent(spectator)
    await spectator.goto(await live.link(game_id))
    await expect(point(spectator, "A1")).to_have_attribute("data-piece", "white")
    await expect(spectator.locator(".watchers")).to_have_text("1 watching")

    # The points are disabled buttons for a spectator; force clicks them anyway, as a mouse would.
    await point(spectator, "A1").click(force=True)
    await point(spectator, "C2").click(force=True)
    await expect(spectator.locator(".point.legal")).to_have_count(0)
    await expect(point(spectator, "A1")).to_have_attribute("aria-disabled", "true")
    # Closing the page ends its socket after anything it sent before: then all of it is in.
    await spectator.close()
    assert [frame["type"] for frame in sent] == ["watch"]
    assert await moves_stored(live, game_id) == ()


STALE = re.compile(r"^Another action was applied to this game at the same moment\. ")


async def test_a_move_from_a_stale_page_is_refused_and_can_be_made_again(
    live: LiveBoard, browser: BrowserContext
) -> None:
    game_id = (await start_match(live.service)).game.id
    player = await browser.new_page()
    # Between the server and the page: once ``holding``, the server's new states wait here, so
    # that the page still shows the game as it was while the game changes behind its back.
    holding = False
    held: list[str | bytes] = []
    to_page: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        to_page.append(ws)

        def from_server(message: str | bytes) -> None:
            if holding and json.loads(message)["type"] == "state":
                held.append(message)
            else:
                ws.send(message)

        ws.connect_to_server().on_message(from_server)

    await player.route_web_socket(re.compile(r"/ws$"), route)
    await player.goto(await live.link(game_id, ANN.user_id))
    await expect(point(player, "A1")).to_contain_class("legal")
    holding = True
    # Ann moves in Discord and Bob answers there: Ann is to move again, in another position.
    await live.play(game_id, "A1-C2")
    bob = (await live.service.watching.snapshot(game_id)).legal[0].text
    await live.play(game_id, bob)
    await point(player, "B1").click()
    await point(player, "A3").click()

    await expect(player.locator(".notice")).to_have_text(STALE)
    assert await moves_stored(live, game_id) == ("A1-C2", bob)
    await expect(player.locator(".moves li")).to_have_count(0)
    # The held states reach the page at last: the player moves from the game as it is.
    holding = False
    for message in held:
        to_page[-1].send(message)
    await expect(player.locator(".moves li")).to_have_text(["A1-C2", bob])
    await expect(player.locator(".notice")).to_have_text("")
    shape = (await live.service.watching.snapshot(game_id)).legal[0]
    assert shape.origin is not None and shape.target is not None
    await point(player, shape.origin).click()
    await point(player, shape.target).click()
    await expect(player.locator(".moves li")).to_have_text(["A1-C2", bob, shape.text])
    assert await moves_stored(live, game_id) == ("A1-C2", bob, shape.text)


async def test_a_server_that_turned_watching_off_is_told(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = (await start_match(live.service)).game.id
    await live.service.servers.set_watching(GUILD, False, can_manage=True)
    page = await open_page(await live.link(game_id))

    await expect(page.locator(".notice")).to_have_text(
        "Watching games is switched off in this server."
    )
    await expect(page.locator(".status")).to_have_text("")
    await expect(page.locator("svg.board .point")).to_have_count(0)


def first_frame_replaced(replacement: dict[str, Any]) -> Callable[[WebSocketRoute], None]:
    """A route between the page and the server that sends the server ``replacement`` instead
    of the page's first frame (and the rest as the page sends them)."""

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        replaced = False

        def from_page(message: str | bytes) -> None:
            nonlocal replaced
            server.send(message if replaced else json.dumps(replacement))
            replaced = True

        ws.on_message(from_page)

    return route


def flooding(ws: WebSocketRoute) -> None:
    """A route that passes the page's first frame to the server with more pings after it
    than the server allows."""
    server = ws.connect_to_server()
    flooded = False

    def from_page(message: str | bytes) -> None:
        nonlocal flooded
        server.send(message)
        if not flooded:
            flooded = True
            # With the watch frame, one more than the server takes: the last one floods, and
            # nothing is sent after it into the closing socket (Chromium would log that).
            for _ in range(FLOOD_FRAMES):
                server.send(json.dumps({"type": "ping"}))

    ws.on_message(from_page)


@pytest.mark.parametrize(
    ("route", "message"),
    [
        (
            first_frame_replaced({"type": "hello"}),
            "The page did not start watching in time. Reload it to watch again.",
        ),
        (
            flooding,
            "The page sent too many messages and was disconnected. Reload it to watch again.",
        ),
    ],
    ids=["no-watch-frame", "flood"],
)
async def test_each_final_close_of_the_server_says_why(
    live: LiveBoard,
    browser: BrowserContext,
    route: Callable[[WebSocketRoute], None],
    message: str,
) -> None:
    game_id = (await start_match(live.service)).game.id
    page = await browser.new_page()
    await page.route_web_socket(re.compile(r"/ws$"), route)
    await page.goto(await live.link(game_id))

    await expect(page.locator(".notice")).to_have_text(message)
    await expect(page.locator(".status")).to_have_text("")


async def test_a_link_that_is_no_longer_good_says_so_and_stays_closed(
    live: LiveBoard, browser: BrowserContext
) -> None:
    game_id = (await start_match(live.service)).game.id
    page = await browser.new_page()
    sent = frames_sent(page)
    await page.goto(await live.link(game_id, ANN.user_id, hours=-1))

    await expect(page.locator(".notice")).to_have_text(
        "This link has expired or is not valid. Ask for a new one with /jarmo watch."
    )
    await expect(page.locator("svg.board .point")).to_have_count(0)
    await page.close()
    assert [frame["type"] for frame in sent] == ["watch"]


async def test_a_dropped_connection_comes_back_by_itself(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = (await start_match(live.service)).game.id
    page = await open_page(await live.link(game_id, ANN.user_id))
    await expect(page.locator(".watchers")).to_have_text("1 watching")

    await live.stop()
    await expect(page.locator(".status")).to_have_text("Connection lost. Reconnecting…")
    await live.play(game_id, "A1-C2")
    await live.start()
    await expect(page.locator(".moves li")).to_have_text(["A1-C2"])
    await expect(page.locator(".status")).to_have_text("Black to move")


async def test_a_finished_game_shows_its_result(live: LiveBoard, open_page: OpenPage) -> None:
    game_id = (await start_match(live.service)).game.id
    page = await open_page(await live.link(game_id, BOB.user_id))
    await expect(page.locator(".watchers")).to_have_text("1 watching")
    game = await live.service.watching.snapshot(game_id)
    while game.turn is not None:
        await live.play(game_id, game.legal[0].text)
        game = await live.service.watching.snapshot(game_id)

    expected = "Drawn" if game.winner is None else f"{game.winner.capitalize()} wins"
    await expect(page.locator(".result")).to_contain_text(expected)
    await expect(page.locator(".moves li")).to_have_count(len(game.moves))
    await expect(page.locator(".point.legal")).to_have_count(0)
    await expect(page.locator(".clock")).to_have_text("")


async def test_a_move_is_made_with_the_keyboard(live: LiveBoard, open_page: OpenPage) -> None:
    game_id = (await start_match(live.service)).game.id
    player = await open_page(await live.link(game_id, ANN.user_id))
    await expect(point(player, "A1")).to_contain_class("legal")

    await point(player, "A1").focus()
    await player.keyboard.press("Enter")
    await expect(point(player, "A1")).to_contain_class("chosen")
    await expect(point(player, "A1")).to_be_focused()
    await point(player, "C2").focus()
    await player.keyboard.press(" ")
    await expect(player.locator(".moves li")).to_have_text(["A1-C2"])
    assert await moves_stored(live, game_id) == ("A1-C2",)


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
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = (await start_match(live.service, ruleset="ludos")).game.id
    for move in LUDOS_OPENING:
        await live.play(game_id, move)
    legal = (await live.service.watching.snapshot(game_id)).legal
    places = {s.place for s in legal if s.origin == "B3" and s.target == "A5" and s.place}
    assert "C1" in places
    player = await open_page(await live.link(game_id, ANN.user_id))

    await point(player, "B3").click()
    await point(player, "A5").click()
    await expect(player.locator(".status")).to_have_text("Now pick where the piece is placed.")
    await expect(player.locator(".point.legal")).to_have_count(len(places))
    for place in places:
        await expect(point(player, place)).to_contain_class("legal")
    await point(player, "C1").click()

    await expect(player.locator(".moves li").last).to_have_text("B3-A5@C1")
    assert (await moves_stored(live, game_id))[-1] == "B3-A5@C1"
    # Ludos names its sides as the bot's messages do.
    await expect(player.locator(".status")).to_have_text("Blue to move")
    await expect(player.locator(".player-white .side")).to_have_text("Green: ")


# A jasir game in which Bob (Black) may bring a captured piece back: "@C5" or "@E5".
JASIR_OPENING = [
    "B1-A3",
    "E5-C4",
    "A1-C2",
    "C4-B4",
    "C1-A2",
    "C5-A4",
    "E1-D3",
    "B5-D4",
    "D1-C3",
    "B4-B3",
    "C2-B2",
    "D4xD3",
    "A3-B5",
    "D3-C1",
    "C3xA4",
]


async def test_a_jasir_redeploy_is_one_click_on_the_point(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = (await start_match(live.service, ruleset="jasir")).game.id
    for move in JASIR_OPENING:
        await live.play(game_id, move)
    redeploys = {
        s.text for s in (await live.service.watching.snapshot(game_id)).legal if s.origin is None
    }
    assert redeploys == {"@C5", "@E5"}
    player = await open_page(await live.link(game_id, BOB.user_id))

    await expect(point(player, "C5")).to_contain_class("legal")
    await expect(point(player, "E5")).to_contain_class("legal")
    await point(player, "C5").click()

    await expect(player.locator(".moves li").last).to_have_text("@C5")
    await expect(point(player, "C5")).to_have_attribute("data-piece", "black")
    assert (await moves_stored(live, game_id))[-1] == "@C5"


async def test_the_page_speaks_the_browsers_language(live: LiveBoard, tmp_path: Path) -> None:
    game_id = (await start_match(live.service)).game.id
    async with chromium(tmp_path / "profile", locale="de-DE") as browser:
        page = await browser.new_page()
        sent = frames_sent(page)
        await page.goto(await live.link(game_id, ANN.user_id))

        await expect(page.locator(".status")).to_have_text(
            "Du bist am Zug: Wähle einen Stein, dann sein Ziel."
        )
        await expect(page.get_by_role("button", name="A1, weißer Stein, wählbar")).to_be_visible()
        await expect(page.locator("html")).to_have_attribute("lang", "de")
        # The server writes its refusals in the language the page names.
        assert sent[0]["lang"] == "de"


async def test_the_activity_signs_in_and_reaches_the_board(
    serve: ServeBoard, discord: FakeDiscord, open_page: OpenPage
) -> None:
    live = await serve(**activity_settings(discord))
    game_id = (await start_match(live.service, place=MOCK_CHANNEL)).game.id
    ann_in_the_mocks_instance(discord)
    page = await open_page(f"{live.address}/?sdk=mock&frame_id=x")

    await expect(page.locator("svg.board .point")).to_have_count(25)
    await expect(page.locator("svg.board .lines line")).to_have_count(39)
    await expect(page.locator(".player-white .you")).to_have_text(" (you)")
    await expect(page.get_by_role("button", name="Invite")).to_be_visible()
    [grant] = discord.oauth_grants
    assert grant.access_token is not None  # the server exchanged the mock's code
    assert len(discord.requests_to("GET", r".*/activity-instances/" + MOCK_INSTANCE_ID)) == 1
    # The player moves in the Activity as on the live page.
    await point(page, "A1").click()
    await point(page, "C2").click()
    await expect(page.locator(".moves li")).to_have_text(["A1-C2"])
    assert await moves_stored(live, game_id) == ("A1-C2",)


async def test_without_a_game_the_activity_offers_invites(
    serve: ServeBoard, discord: FakeDiscord, open_page: OpenPage
) -> None:
    live = await serve(**activity_settings(discord))
    ann_in_the_mocks_instance(discord)
    page = await open_page(f"{live.address}/?sdk=mock&frame_id=x")

    await expect(page.locator("#message")).to_have_text(
        "No game is being played in this channel yet. Start one with /jarmo play, or invite others."
    )
    await expect(page.get_by_role("button", name="Invite")).to_be_visible()
    await expect(page.locator("svg.board .point")).to_have_count(0)


async def test_the_sdk_mock_needs_the_servers_consent(
    serve: ServeBoard, discord: FakeDiscord, open_page: OpenPage
) -> None:
    live = await serve(**activity_settings(discord, sdk_mock=False))
    await start_match(live.service, place=MOCK_CHANNEL)
    ann_in_the_mocks_instance(discord)
    # Outside Discord the real SDK finds none of the launch parameters it needs and gives up.
    page = await open_page(f"{live.address}/?sdk=mock&frame_id=x")

    await expect(page.locator("#message")).to_have_text(
        "The Activity could not start. Close it and open it again."
    )
    assert [grant.access_token for grant in discord.oauth_grants] == [None]


async def test_a_link_to_another_game_opened_in_the_same_tab_shows_that_game(
    live: LiveBoard, open_page: OpenPage
) -> None:
    first = (await start_match(live.service)).game.id
    second = (await start_match(live.service, ruleset="ludos", place=Place(GUILD, 77))).game.id
    page = await open_page(await live.link(first))
    await expect(page.locator(".player-white .side")).to_have_text("White: ")
    # Only the fragment differs from the address the page is at: no new page is loaded by it.
    await page.goto(await live.link(second))
    await expect(page.locator(".player-white .side")).to_have_text("Green: ")
    assert page.url == f"{live.address}/watch"
