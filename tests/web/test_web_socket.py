"""The live board's WebSocket: the state on watching and after every change, a player's move,
the refusals, and the limits that close a socket."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from bot.service import Place, read_action
from bot.store import SqliteStore
from bot.web.app import CLOSE_BAD_FRAME, CLOSE_BAD_TOKEN, CLOSE_FLOOD, CLOSE_WATCHING_OFF
from tests.service.service_helpers import ANN, BOB, GUILD, start_match
from tests.statements import traced
from tests.web.conftest import WAIT_SECONDS, Live, LiveFactory

Socket = aiohttp.ClientWebSocketResponse


async def _frame(ws: Socket, kind: str) -> dict[str, Any]:
    """The next frame of ``kind`` (watcher counts may come between)."""
    while True:
        message = await ws.receive(timeout=WAIT_SECONDS)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        frame: dict[str, Any] = json.loads(message.data)
        if frame["type"] == kind:
            return frame


async def _closed(ws: Socket) -> int | None:
    while True:
        message = await ws.receive(timeout=WAIT_SECONDS)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return ws.close_code


async def _watch(live: Live, token: str, lang: str = "en") -> Socket:
    ws = await live.client.ws_connect("/ws")
    await ws.send_json({"type": "watch", "token": token, "lang": lang})
    return ws


async def test_a_spectator_gets_the_game_on_watching(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id))
    game = (await _frame(ws, "state"))["game"]
    assert game["id"] == str(board.game.id) and game["version"] == board.game.version
    assert game["players"] == {
        "white": {"id": str(ANN.user_id), "name": "Ann"},
        "black": {"id": str(BOB.user_id), "name": "Bob"},
    }
    assert len(game["board"]["points"]) == 25 and len(game["board"]["lines"]) == 39
    assert {"name": "A5", "x": 0, "y": 0} in game["board"]["points"]
    assert len(game["pieces"]) == 10 and game["turn"] == "white"
    assert game["you"] is None and game["legal"] == []  # a spectator is shown no moves
    assert game["camps"]["white"] == ["A1", "B1", "C1", "D1", "E1"]
    assert game["score"] == {"white": 0, "black": 0, "game": 1, "games": 1}
    assert game["result"] is None and game["colors"]["background"].startswith("#")
    await ws.close()


async def test_a_players_move_changes_the_game_and_reaches_every_watcher(live: Live) -> None:
    board = await start_match(live.service)
    game_id = board.game.id
    player = await _watch(live, live.token(game_id, user_id=ANN.user_id))
    spectator = await _watch(live, live.token(game_id))
    shown = (await _frame(player, "state"))["game"]
    await _frame(spectator, "state")
    assert shown["you"] == "white" and shown["legal"]
    move = shown["legal"][0]["text"]
    await player.send_json({"type": "move", "move": move, "version": shown["version"]})
    seen = (await _frame(spectator, "state"))["game"]
    assert seen["moves"] == [move] and seen["turn"] == "black"
    assert seen["last_move"]["text"] == move and seen["version"] == shown["version"] + 1
    stored = await live.service.kit.store.games.get(game_id)
    assert stored.engine.history == [move]
    after = (await _frame(player, "state"))["game"]
    assert after["legal"] == []  # Bob is to move now
    await player.close()
    await spectator.close()


async def test_a_move_from_the_board_is_announced_in_the_games_channel(live: Live) -> None:
    board = await start_match(live.service)
    shown = await live.service.watching.snapshot(board.game.id)
    move = shown.legal[0].text
    await live.service.watching.move(
        board.game.id, ANN.user_id, read_action(move), expected_version=shown.version
    )
    due = await live.service.kit.store.outbox.claim(now=live.now(), lease_seconds=60)
    assert [(entry.kind, entry.game_id, entry.payload["move"]) for entry in due] == [
        ("computer_move", board.game.id, move)
    ]  # due at once: no interaction in the channel posts it


async def test_a_spectators_move_is_refused(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id, user_id=999))
    game = (await _frame(ws, "state"))["game"]
    await ws.send_json({"type": "move", "move": "A1-B3", "version": game["version"]})
    refused = await _frame(ws, "refused")
    assert refused["code"] == "not_a_player" and refused["text"]
    assert (await live.service.kit.store.games.get(board.game.id)).engine.history == []
    await ws.close()


async def test_a_move_on_an_old_version_is_refused_as_stale(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id, user_id=ANN.user_id))
    game = (await _frame(ws, "state"))["game"]
    move = game["legal"][0]["text"]
    await ws.send_json({"type": "move", "move": move, "version": game["version"] - 1})
    refused = await _frame(ws, "refused")
    assert refused["code"] == "stale_page"
    assert (await live.service.kit.store.games.get(board.game.id)).engine.history == []
    await ws.send_json({"type": "ping"})
    assert await _frame(ws, "pong") == {"type": "pong"}  # still open
    await ws.close()


async def test_an_illegal_move_is_refused_in_the_pages_language(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id, user_id=BOB.user_id), lang="de")
    game = (await _frame(ws, "state"))["game"]
    await ws.send_json({"type": "move", "move": "A5-B3", "version": game["version"]})
    refused = await _frame(ws, "refused")
    assert refused["code"] == "not_your_turn" and "Ann" in refused["text"]
    await ws.close()


@pytest.mark.parametrize("token", ["forged", "expired", "other secret"])
async def test_a_bad_token_closes_with_4401(live: Live, token: str) -> None:
    board = await start_match(live.service)
    tokens = {
        "forged": "AAAA" + live.token(board.game.id)[4:],
        "expired": live.token(board.game.id, hours=-1),
        "other secret": live.token(board.game.id, secret=b"o" * 32),
    }
    ws = await _watch(live, tokens[token])
    refused = await _frame(ws, "refused")
    assert refused["code"] == ("expired_token" if token == "expired" else "bad_token")
    assert await _closed(ws) == CLOSE_BAD_TOKEN


async def test_a_token_for_a_game_that_is_not_there_closes_with_4401(live: Live) -> None:
    ws = await _watch(live, live.token(4242))
    assert (await _frame(ws, "refused"))["code"] == "bad_token"
    assert await _closed(ws) == CLOSE_BAD_TOKEN


async def test_watching_off_closes_with_4403(live: Live) -> None:
    board = await start_match(live.service)
    await live.service.servers.set_watching(GUILD, False, can_manage=True)
    ws = await _watch(live, live.token(board.game.id))
    refused = await _frame(ws, "refused")
    assert refused["code"] == "watching_off" and "/jarmo server watch on" in refused["text"]
    assert await _closed(ws) == CLOSE_WATCHING_OFF


async def test_too_many_frames_close_with_4408(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id), lang="pl")
    await _frame(ws, "state")
    for _ in range(30):
        await ws.send_json({"type": "ping"})
    refused = await _frame(ws, "refused")
    assert refused["code"] == "flood" and refused["text"].startswith("Ta strona")
    assert await _closed(ws) == CLOSE_FLOOD


async def test_a_frame_too_big_closes_with_4408(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id))
    await _frame(ws, "state")
    await ws.send_str(json.dumps({"type": "ping", "pad": "x" * 3000}))
    assert await _closed(ws) == CLOSE_FLOOD


async def test_no_watch_frame_in_time_closes_with_4400(live_factory: LiveFactory) -> None:
    live = await live_factory(watch_frame_seconds=0.2)
    ws = await live.client.ws_connect("/ws")
    assert await _closed(ws) == CLOSE_BAD_FRAME


async def test_watchers_are_counted_and_reported(live: Live) -> None:
    board = await start_match(live.service)
    game_id = board.game.id
    first = await _watch(live, live.token(game_id))
    await _frame(first, "state")
    await live.spectators.wait_for(game_id, 1)
    second = await _watch(live, live.token(game_id))
    await _frame(second, "state")
    while (await _frame(first, "watchers"))["count"] != 2:
        pass
    await live.spectators.wait_for(game_id, 2)
    await second.close()
    await first.close()
    await live.spectators.wait_for(game_id, 0)
    assert live.feed.subscribed() == 0  # the last one out let go of the game


async def test_many_sockets_share_one_subscription_and_one_read(
    live: Live, store: SqliteStore
) -> None:
    board = await start_match(live.service)
    async with traced(store) as statements:
        sockets = [await _watch(live, live.token(board.game.id)) for _ in range(5)]
        for ws in sockets:
            await _frame(ws, "state")
    assert live.feed.subscribed() == 1
    game_reads = [text for text in statements.statements if "WHERE games.id =" in text]
    assert len(game_reads) == 1, game_reads
    for ws in sockets:
        await ws.close()


async def test_a_move_made_elsewhere_reaches_the_page(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id))
    await _frame(ws, "state")
    move = board.live.legal_moves()[0]
    place = Place(board.game.guild_id, board.game.channel_id)
    await live.service.play.move(place, ANN, read_action(move))  # a /jarmo move in Discord
    assert (await _frame(ws, "state"))["game"]["moves"] == [move]
    await ws.close()


async def test_a_refusal_of_the_page_is_in_its_language(live: Live) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id, hours=-1), lang="de")
    refused = await _frame(ws, "refused")
    assert refused["text"].startswith("Dieser Link ist abgelaufen")
    assert await _closed(ws) == CLOSE_BAD_TOKEN


async def test_a_page_open_when_watching_is_turned_off_closes_at_the_next_move(
    live: Live,
) -> None:
    board = await start_match(live.service)
    ws = await _watch(live, live.token(board.game.id))
    await _frame(ws, "state")
    await live.service.servers.set_watching(GUILD, False, can_manage=True)
    place = Place(board.game.guild_id, board.game.channel_id)
    await live.service.play.move(place, ANN, read_action(board.live.legal_moves()[0]))
    while True:  # the move is never shown: the page closes instead
        message = await ws.receive(timeout=WAIT_SECONDS)
        if message.type != aiohttp.WSMsgType.TEXT:
            break
        assert json.loads(message.data)["type"] == "watchers", message.data
    assert ws.close_code == CLOSE_WATCHING_OFF
    late = await _watch(live, live.token(board.game.id))
    assert (await _frame(late, "refused"))["code"] == "watching_off"
