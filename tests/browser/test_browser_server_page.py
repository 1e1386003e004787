"""The server page in a real browser against the real live board and service: it shows the
server's leaderboards, its ended games and its tournaments' tables as the service reads them,
replays a game through exactly the positions the server sent (buttons, arrow keys, the move
list), says in words why it shows nothing (a forged, a watch or an expired link, the page
turned off, a game not found), and sends nothing but its two POSTs."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.async_api import BrowserContext, Page, Request, Route, expect

from bot.service import JarmoService, Place
from bot.service.stats_models import shown
from bot.web.tokens import sign_watch_token
from tests.browser.conftest import CHROMIUM, LiveBoard, OpenPage, chromium
from tests.ratings.ratings_helpers import play_resign
from tests.service.service_helpers import ANN, BOB, CAT, GUILD, HERE, start_match
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    play_current_round,
    sign_up,
)

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Chromium at /usr/bin/chromium: apt-get install chromium",
        allow_module_level=True,
    )

OTHER = Place(guild_id=2, channel_id=20)
# Ann (White) and Bob play this, then Ann resigns; Black's fourth move captures.
OPENING = ("A1-C2", "E5-D3", "B1-A3", "D3xC1", "C2-E3", "C5-B3")
WORDS = {
    "bad_token": "This link is not valid. Ask for a new one with /jarmo leaderboard in Discord.",
    "expired_token": "This link has expired. Ask for a new one with /jarmo leaderboard in Discord.",
    "web_pages_off": "This server's web page is switched off. A server manager can switch it on "
    "with /jarmo server web on.",
    "no_game": "That game was not found: it may have been deleted. Pick another one.",
}


async def pages_on(service: JarmoService, guild_id: int = GUILD) -> None:
    await service.servers.set_web_pages(guild_id, True, can_manage=True)


async def ann_resigns_after_the_opening(live: LiveBoard) -> int:
    game_id = (await start_match(live.service)).game.id
    for move in OPENING:
        await live.play(game_id, move)
    await live.service.play.resign(HERE, ANN)
    return game_id


async def a_running_round_robin(service: JarmoService) -> int:
    """Three players; in round 1 players 1 and 2 draw and 3 sits out."""
    service.tournaments.attach(RecordingHost())
    tournament_id = await sign_up(service, 3, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    await play_current_round(service, tournament_id)
    return tournament_id


async def pieces_shown(page: Page) -> dict[str, str]:
    """The replay board's pieces: point -> side, as drawn."""
    shown: dict[str, str] = await page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll(
            ".replay-view svg.board .point[data-piece]")].map(
            (point) => [point.dataset.point, point.dataset.piece]))"""
    )
    return shown


async def test_the_overview_shows_the_servers_ratings_games_and_tournament_table(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = await ann_resigns_after_the_opening(live)
    tournament_id = await a_running_round_robin(live.service)
    await pages_on(live.service)
    expected = await live.service.server_pages.overview(GUILD)
    page = await open_page(await live.server_link())

    [classic] = expected.leaderboards
    ratings = page.locator('.table-box[data-ruleset="classic"] table')
    await expect(ratings.locator("caption")).to_have_text("Classic")
    await expect(ratings.locator("tbody th")).to_have_text([row.name for row in classic.rows])
    bob = next(row for row in classic.rows if row.name == "Bob")
    bob_cells = ratings.locator("tbody tr", has=page.locator("th", has_text="Bob")).locator("td")
    rating = str(shown(bob.rating.skill.rating))
    await expect(bob_cells).to_have_text([str(bob.rank), rating, "1", "1–0–0"])
    # Every ended game of the server, newest first: the tournament's, then Ann's resignation.
    games = page.locator(".game")
    await expect(games).to_have_count(len(expected.games))
    ids = [str(game.result.id) for game in expected.games]
    assert [await game.get_attribute("data-game") for game in await games.all()] == ids
    ann_bob = page.locator(f'.game[data-game="{game_id}"]')
    await expect(ann_bob.locator(".names")).to_have_text("White: Ann – Black: Bob")
    await expect(ann_bob.locator(".result")).to_contain_text("Black wins (by resignation)")
    await expect(ann_bob.locator(".meta")).to_contain_text("Classic · 6 moves · ")

    [table] = expected.tournaments
    tournament = page.locator(f'.tournament[data-tournament="{tournament_id}"]')
    await expect(tournament.locator("h3")).to_have_text("Spring cup")
    round_now = table.tournament.current_round
    await expect(tournament.locator(".meta")).to_have_text(
        f"Round robin · Classic · Round {round_now} of {table.rounds}"
    )
    standings = tournament.locator("table.standings")
    columns = max(len(row.rounds) for row in table.standings.rows)
    rounds = [f"R{number}" for number in range(1, columns + 1)]
    await expect(standings.locator("thead th")).to_have_text(
        ["#", "Player", "MP", "GP", "BH", "SB", *rounds]
    )
    names = [table.names[row.player] for row in table.standings.rows]
    await expect(standings.locator("tbody th")).to_have_text(names)
    played = [cell for row in table.standings.rows for cell in row.rounds if cell is not None]
    byes = sum(cell.outcome == "bye" for cell in played)
    assert byes >= 1 and sum(cell.outcome == "draw" for cell in played) == 2
    await expect(standings.locator("td.round.bye")).to_have_text(["bye"] * byes)
    draws = standings.locator("td.round.draw")
    await expect(draws).to_have_text([re.compile(r"^=drew with P\d 10–10$")] * 2)
    assert page.url == f"{live.address}/server"


async def test_a_replay_steps_through_the_positions_the_server_sent(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = await ann_resigns_after_the_opening(live)
    await pages_on(live.service)
    replay = await live.service.server_pages.replay(GUILD, game_id)
    positions = [{piece.point: piece.side for piece in p.pieces} for p in replay.positions]
    assert len(positions[4]) == len(positions[3]) - 1  # the capture
    page = await open_page(await live.server_link())
    await page.locator(f'.game[data-game="{game_id}"]').click()

    view = page.locator(".replay-view")
    place = view.locator(".place")
    back = page.get_by_role("button", name="One move back")
    forward = page.get_by_role("button", name="One move forward")

    async def at(ply: int, text: str) -> None:
        await expect(view).to_have_attribute("data-at", str(ply))
        await expect(place).to_have_text(text)
        assert await pieces_shown(page) == positions[ply]
        current = view.locator('.moves [aria-current="step"]')
        await expect(current).to_have_text([OPENING[ply - 1]] if ply > 0 else [])

    await expect(view.locator("h3")).to_have_text("Ann against Bob")
    await expect(view.locator(".result")).to_contain_text("Black wins (by resignation)")
    await at(0, "Start position")
    await expect(back).to_be_disabled()
    await expect(page.get_by_role("button", name="To the start")).to_be_disabled()
    await forward.click()
    await at(1, "Move 1 of 6: A1-C2")
    await expect(back).to_be_enabled()
    for ply in (2, 3, 4):
        await page.keyboard.press("ArrowRight")
        await at(ply, f"Move {ply} of 6: {OPENING[ply - 1]}")
    await page.keyboard.press("ArrowLeft")
    await at(3, "Move 3 of 6: B1-A3")
    await page.keyboard.press("End")
    await at(6, "Move 6 of 6: C5-B3")
    await expect(forward).to_be_disabled()
    await page.keyboard.press("ArrowRight")  # nothing after the last move
    await at(6, "Move 6 of 6: C5-B3")
    await page.keyboard.press("Home")
    await at(0, "Start position")
    await view.locator(".moves button", has_text="D3xC1").click()
    await at(4, "Move 4 of 6: D3xC1")
    await page.get_by_role("button", name="To the end").click()
    await at(6, "Move 6 of 6: C5-B3")
    await back.click()
    await at(5, "Move 5 of 6: C2-E3")
    await page.get_by_role("button", name="To the start").click()
    await at(0, "Start position")
    # The focus left the disabled button for the replay itself: the keys still step.
    await page.keyboard.press("ArrowRight")
    await at(1, "Move 1 of 6: A1-C2")


async def a_watch_links_token(live: LiveBoard) -> str:
    game_id = (await start_match(live.service)).game.id
    secret = await live.service.web_secret()
    expires = live.service.now() + timedelta(hours=1)
    return f"{live.address}/server#{sign_watch_token(secret, game_id, expires_at=expires)}"


@pytest.mark.parametrize(
    ("link", "refusal"),
    [
        ("forged", "bad_token"),
        ("a watch link's", "bad_token"),
        ("expired", "expired_token"),
        ("for a server with its page off", "web_pages_off"),
    ],
)
async def test_a_link_that_reads_nothing_says_why(
    live: LiveBoard, open_page: OpenPage, link: str, refusal: str
) -> None:
    await play_resign(live.service, winner=BOB, loser=ANN)
    if link != "for a server with its page off":
        await pages_on(live.service)
    url = {
        "forged": f"{live.address}/server#bm90IGEgdG9rZW4",
        "a watch link's": await a_watch_links_token(live),
        "expired": await live.server_link(hours=-1),
        "for a server with its page off": await live.server_link(),
    }[link]
    page = await open_page(url)

    await expect(page.locator("#message")).to_have_text(WORDS[refusal])
    await expect(page.locator(".server-section")).to_have_count(0)
    assert page.url == f"{live.address}/server"


# What the browser logs for each failure: the server's refusal of a tampered request, no
# answer at all, and a server error without a code.
FAILURES = {
    "bad_request": "status of 400 (Bad Request)",
    "unreachable": "net::ERR_FAILED",
    "other": "status of 500 (Internal Server Error)",
}


@pytest.mark.parametrize("failure", FAILURES)
async def test_a_failed_request_says_what_to_do(
    live: LiveBoard, tmp_path: Path, failure: str
) -> None:
    await pages_on(live.service)

    async def fail(route: Route) -> None:
        if failure == "bad_request":
            await route.continue_(post_data="{}")
        elif failure == "unreachable":
            await route.abort()
        else:
            await route.fulfill(status=500, body="Internal Server Error")

    async with chromium(tmp_path / "profile", failures=(FAILURES[failure],)) as context:
        page = await context.new_page()
        await page.route("**/api/server/overview", fail)
        await page.goto(await live.server_link())
        words = {
            "bad_request": "The server did not understand the page's request. Reload the page "
            "to try again.",
            "unreachable": "The server could not be reached. Check your connection and reload "
            "the page.",
            "other": "Something went wrong on the server. Reload the page to try again.",
        }
        await expect(page.locator("#message")).to_have_text(words[failure])
        await expect(page.locator(".server-section")).to_have_count(0)


async def test_a_page_without_a_token_says_where_links_come_from(
    live: LiveBoard, open_page: OpenPage
) -> None:
    page = await open_page(f"{live.address}/server")
    await expect(page.locator("#message")).to_have_text(
        "This page needs a link from /jarmo leaderboard in Discord."
    )


async def test_a_ludos_game_is_green_against_blue(live: LiveBoard, open_page: OpenPage) -> None:
    report = await play_resign(live.service, winner=BOB, loser=ANN, ruleset="ludos")
    await pages_on(live.service)
    page = await open_page(await live.server_link())
    game = page.locator(f'.game[data-game="{report.board.game.id}"]')
    await expect(game.locator(".names")).to_have_text("Green: Ann – Blue: Bob")
    await expect(game.locator(".result")).to_have_text("Blue wins (by resignation)")
    await expect(page.locator(".leaderboard caption")).to_have_text(["Ludos"])
    await game.click()
    await expect(page.locator(".replay-players")).to_have_text("Green: Ann Blue: Bob")


async def test_a_new_link_opened_in_the_same_tab_is_read_afresh(
    live: LiveBoard, open_page: OpenPage
) -> None:
    page = await open_page(await live.server_link())
    await expect(page.locator("#message")).to_have_text(WORDS["web_pages_off"])
    await pages_on(live.service)
    # Only the fragment differs from the address the page is at: no new page is loaded by it.
    await page.goto(await live.server_link(hours=2))
    await expect(page.locator(".server-section h2")).to_have_count(3)
    await expect(page.locator("#message")).to_have_text("")
    assert page.url == f"{live.address}/server"


async def test_a_game_the_server_no_longer_shows_says_why(
    live: LiveBoard, open_page: OpenPage
) -> None:
    game_id = (await play_resign(live.service, winner=BOB, loser=ANN)).board.game.id
    elsewhere = (await play_resign(live.service, winner=CAT, loser=BOB, place=OTHER)).board.game.id
    await pages_on(live.service)
    page = await open_page(await live.server_link())
    game = page.locator(f'.game[data-game="{game_id}"]')
    await expect(game).to_be_visible()

    # Another server's game (as a tampered request would ask for) is not found.
    async def ask_for_elsewhere(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        await route.continue_(post_data=json.dumps({**body, "game_id": str(elsewhere)}))

    await page.route("**/api/server/game", ask_for_elsewhere)
    await game.click()
    await expect(page.locator(".replay-box .notice")).to_have_text(WORDS["no_game"])
    await page.unroute("**/api/server/game")
    await page.get_by_role("button", name="Close").click()
    await expect(page.locator(".replay-box")).to_be_hidden()

    # The server turns its page off while the page is open: the next game is refused in words.
    await live.service.servers.set_web_pages(GUILD, False, can_manage=True)
    await game.click()
    await expect(page.locator(".replay-box .notice")).to_have_text(WORDS["web_pages_off"])
    await expect(page.locator(".replay-view")).to_have_count(0)


async def test_a_server_with_nothing_yet_says_so(live: LiveBoard, open_page: OpenPage) -> None:
    await pages_on(live.service)
    page = await open_page(await live.server_link())
    await expect(page.locator(".server-section h2")).to_have_text(
        ["Leaderboards", "Recent games", "Tournaments"]
    )
    await expect(page.locator(".server-section .empty")).to_have_text(
        [
            "Nobody has a rating here yet: ratings come with finished games.",
            "No game has finished here yet.",
            "No tournaments yet.",
        ]
    )


async def test_the_page_sends_nothing_but_its_two_posts(
    live: LiveBoard, browser: BrowserContext
) -> None:
    first = await ann_resigns_after_the_opening(live)
    second = (await play_resign(live.service, winner=BOB, loser=ANN)).board.game.id
    await a_running_round_robin(live.service)
    await pages_on(live.service)
    link = await live.server_link()
    token = link.split("#", 1)[1]
    page = await browser.new_page()
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    await page.goto(link)

    # Everything on the page that can be clicked or pressed, the replay stepped every way.
    await page.locator(f'.game[data-game="{first}"]').click()
    await expect(page.locator(".replay-view")).to_have_attribute("data-at", "0")
    for name in ("One move forward", "To the end", "One move back", "To the start"):
        await page.get_by_role("button", name=name).click()
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "End", "Home"):
        await page.keyboard.press(key)
    await page.locator(".replay-view .moves button").nth(2).click()
    for point in await page.locator(".replay-view svg.board .point").all():
        await point.click(force=True)
    for cell in await page.locator("th, td, caption, h2, h3, abbr").all():
        await cell.click(force=True)
    await page.get_by_role("button", name="Close").click()
    # The last click asks for a game: whatever an earlier click sent is in before its answer.
    await page.locator(f'.game[data-game="{second}"]').click()
    await expect(page.locator(".replay-view")).to_have_attribute("data-game", str(second))

    sent = Counter((request.method, urlsplit(request.url).path) for request in requests)
    assert sent == Counter(
        {
            ("GET", "/server"): 1,
            ("GET", "/static/app.css"): 1,
            ("GET", "/static/app.js"): 1,
            ("POST", "/api/server/overview"): 1,
            ("POST", "/api/server/game"): 2,
        }
    )
    bodies = [request.post_data_json for request in requests if request.method == "POST"]
    assert bodies == [
        {"token": token, "lang": "en"},
        {"token": token, "game_id": str(first)},
        {"token": token, "game_id": str(second)},
    ]
    assert all(token not in request.url for request in requests)


async def test_the_page_speaks_the_browsers_language(live: LiveBoard, tmp_path: Path) -> None:
    await pages_on(live.service)
    async with chromium(tmp_path / "profile-de", locale="de-DE") as german:
        page = await german.new_page()
        requests: list[Request] = []
        page.on("request", lambda request: requests.append(request))
        await page.goto(await live.server_link())
        await expect(page.locator(".server-section h2")).to_have_text(
            ["Ranglisten", "Letzte Partien", "Turniere"]
        )
        await expect(page.locator(".server-section .empty").last).to_have_text(
            "Noch keine Turniere."
        )
        [overview] = [request for request in requests if request.method == "POST"]
        assert json.loads(overview.post_data or "{}")["lang"] == "de"
