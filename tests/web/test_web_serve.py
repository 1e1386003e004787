"""The live board as the bot (or ``jarmo-bot web``) serves it from the configuration: on a free
loopback port, with the service's own feed, counts and secret; stopping it hangs up the pages
at once."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from pathlib import Path

import aiohttp
from aiohttp import web

from bot.config import BotConfig, load_config
from bot.service import JarmoService, ServiceConfig, read_action
from bot.store import open_any
from bot.store._changes import PgGameChanges
from bot.web.app import bound_port
from bot.web.serve import start_live_board
from bot.web.tokens import sign_watch_token
from tests.fakes import FakeClock
from tests.postgres import PostgresServer
from tests.service.service_helpers import ANN, HERE, start_match
from tests.web.conftest import WAIT_SECONDS

STOP_SECONDS = 5.0  # far below aiohttp's 60 s wait for handlers still running


def _config(tmp_path: Path) -> BotConfig:
    path = tmp_path / "jarmo.toml"
    path.write_text('[web]\nenabled = true\naddress = "127.0.0.1"\nport = 0\n')
    return load_config(path, env={"DISCORD_TOKEN": "a.b.c"})


async def _watch(
    session: aiohttp.ClientSession, runner: web.AppRunner, service: JarmoService, game_id: int
) -> aiohttp.ClientWebSocketResponse:
    token = sign_watch_token(
        await service.web_secret(), game_id, expires_at=service.now() + timedelta(hours=1)
    )
    ws = await session.ws_connect(f"http://127.0.0.1:{bound_port(runner)}/ws")
    await ws.send_json({"type": "watch", "token": token})
    return ws


async def test_the_configured_board_serves_a_game_and_stops_at_once(
    service: JarmoService, tmp_path: Path
) -> None:
    board = await start_match(service)
    runner = await start_live_board(service, _config(tmp_path))
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{bound_port(runner)}/healthz") as health:
                assert await health.text() == "ok"
            ws = await _watch(session, runner, service, board.game.id)
            state = await ws.receive_json(timeout=WAIT_SECONDS)
            assert state["type"] == "state" and state["game"]["id"] == str(board.game.id)
            await asyncio.wait_for(runner.cleanup(), STOP_SECONDS)
            closing = await ws.receive(timeout=WAIT_SECONDS)
            while closing.type == aiohttp.WSMsgType.TEXT:  # the count may have come first
                assert json.loads(closing.data)["type"] == "watchers"
                closing = await ws.receive(timeout=WAIT_SECONDS)
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    finally:
        await runner.cleanup()


async def test_on_postgresql_the_board_shows_a_move_another_process_made(
    postgres: PostgresServer, clock: FakeClock, tmp_path: Path
) -> None:
    url = postgres.fresh_database()
    async with open_any(url) as store, open_any(url) as bots_store:
        service = JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))
        bot = JarmoService(bots_store, config=ServiceConfig(), clock=clock, rng=random.Random(0))
        board = await start_match(bot)
        runner = await start_live_board(service, _config(tmp_path))
        try:
            async with aiohttp.ClientSession() as session:
                ws = await _watch(session, runner, service, board.game.id)
                first = await ws.receive_json(timeout=WAIT_SECONDS)
                assert first["game"]["moves"] == []
                await bot.play.move(HERE, ANN, read_action("A1-C2"))
                while (frame := await ws.receive_json(timeout=WAIT_SECONDS))["type"] != "state":
                    pass
                assert frame["game"]["moves"] == ["A1-C2"]
                await ws.close()
        finally:
            await runner.cleanup()
        assert isinstance(store.changes, PgGameChanges)
        assert store.changes.disconnected.is_set()  # it stopped listening with the board
