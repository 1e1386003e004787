"""A server's web page over HTTP on the real service: the token in the body names the server,
a watch link's token or a forged, expired one reads nothing, a server that turned its page off
shows nothing, and a game of another server is not found; what it shows is the server's own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.service import JarmoService, Place, read_action
from bot.web.app import SECURITY_HEADERS
from bot.web.tokens import sign_server_token
from tests.ratings.ratings_helpers import ANN, BOB, CAT, GUILD, HERE, play_resign, start
from tests.web.conftest import SECRET, Live

OTHER_SERVER = Place(2, 20)


def server_token(live: Live, guild_id: int = GUILD, *, hours: float = 1.0) -> str:
    expires_at = live.now() + timedelta(hours=hours)
    return sign_server_token(SECRET, guild_id, expires_at=expires_at)


async def post(live: Live, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    async with live.client.post(path, json=body) as answer:
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value
        assert "Set-Cookie" not in answer.headers
        return answer.status, await answer.json()


async def played_here(service: JarmoService) -> int:
    """Ann (White) and Bob play two moves here and Ann resigns; the game's id."""
    await start(service, ANN, BOB)
    for mover, move in ((ANN, "A1-C2"), (BOB, "A5-B3")):
        await service.play.move(HERE, mover, read_action(move))
    return (await service.play.resign(HERE, ANN)).board.game.id


async def test_the_overview_shows_the_servers_ratings_and_games_with_string_ids(
    live: Live,
) -> None:
    service = live.service
    game_id = await played_here(service)
    await play_resign(service, winner=CAT, loser=BOB, place=OTHER_SERVER)
    await service.servers.set_web_pages(GUILD, True, can_manage=True)

    status, overview = await post(live, "/api/server/overview", {"token": server_token(live)})
    assert status == 200
    [classic] = overview["leaderboards"]
    assert classic["ruleset"] == "classic"
    assert [row["player"]["name"] for row in classic["rows"]] == ["Bob", "Ann"]
    top = classic["rows"][0]
    assert top["player"]["id"] == str(BOB.user_id) and isinstance(top["rating"], int)
    assert (top["games"], top["wins"], top["losses"]) == (1, 1, 0)
    [game] = overview["games"]  # the other server's game is not here
    assert game["id"] == str(game_id) and game["plies"] == 2
    assert (game["winner"], game["reason"]) == ("black", "resigned")
    assert game["players"]["white"] == {"id": str(ANN.user_id), "name": "Ann"}
    assert game["finished_at"].endswith("Z")
    assert overview["tournaments"] == []


async def test_a_replay_sends_every_position_the_bot_played(live: Live) -> None:
    service = live.service
    game_id = await played_here(service)
    await service.servers.set_web_pages(GUILD, True, can_manage=True)

    body = {"token": server_token(live), "game_id": str(game_id)}
    status, replay = await post(live, "/api/server/game", body)
    assert status == 200
    assert replay["moves"] == ["A1-C2", "A5-B3"]
    assert len(replay["board"]["points"]) == 25 and len(replay["board"]["lines"]) == 39
    start_position, after_first, last = replay["positions"]
    assert {"point": "A1", "side": "white"} in start_position["pieces"]
    assert start_position["last_move"] is None and start_position["turn"] == "white"
    assert {"point": "C2", "side": "white"} in after_first["pieces"]
    assert after_first["last_move"] == {"text": "A1-C2", "from": "A1", "to": "C2", "place": None}
    assert last["turn"] == "white"  # resigned, not played out: the position still has a turn
    assert (replay["winner"], replay["reason"]) == ("black", "resigned")


async def test_a_page_turned_off_shows_nothing(live: Live) -> None:
    game_id = await played_here(live.service)
    token = server_token(live)
    for path, body in (
        ("/api/server/overview", {"token": token}),
        ("/api/server/game", {"token": token, "game_id": str(game_id)}),
    ):
        assert await post(live, path, body) == (403, {"code": "web_pages_off"})


@pytest.mark.parametrize("kind", ["forged", "expired", "a watch link's", "not a string"])
async def test_a_token_that_is_not_a_live_server_token_reads_nothing(live: Live, kind: str) -> None:
    game_id = await played_here(live.service)
    await live.service.servers.set_web_pages(GUILD, True, can_manage=True)
    token: Any = {
        "forged": sign_server_token(b"x" * 32, GUILD, expires_at=live.now() + timedelta(hours=1)),
        "expired": server_token(live, hours=-1),
        "a watch link's": live.token(game_id),
        "not a string": GUILD,
    }[kind]
    expected = {
        "expired": (401, {"code": "expired_token"}),
        "not a string": (400, {"code": "bad_request"}),
    }.get(kind, (401, {"code": "bad_token"}))
    assert await post(live, "/api/server/overview", {"token": token}) == expected
    body = {"token": token, "game_id": str(game_id)}
    assert await post(live, "/api/server/game", body) == expected


@pytest.mark.parametrize("game", ["another server's", "not a number", "unknown"])
async def test_a_replay_of_a_game_not_ended_here_is_not_found(live: Live, game: str) -> None:
    service = live.service
    await service.servers.set_web_pages(GUILD, True, can_manage=True)
    other = await play_resign(service, winner=CAT, loser=BOB, place=OTHER_SERVER)
    game_id = {
        "another server's": str(other.board.game.id),
        "not a number": "1; DROP TABLE games",
        "unknown": "999999",
    }[game]
    status, answer = await post(
        live, "/api/server/game", {"token": server_token(live), "game_id": game_id}
    )
    expected = (400, "bad_request") if game == "not a number" else (404, "no_game")
    assert (status, answer["code"]) == expected


async def test_the_server_page_is_the_one_page(live: Live, tmp_path: Any) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Jarmo</title>")
    async with live.client.get("/server") as answer:
        assert answer.status == 200
        assert "Jarmo" in await answer.text()
        assert (
            answer.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]
        )
