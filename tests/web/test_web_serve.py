"""The live board as the bot (or ``jarmo-bot web``) serves it from the configuration: on a free
loopback port, with the service's own feed, counts and secret; stopping it hangs up the pages
at once."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path

import aiohttp

from bot.config import load_config
from bot.service import JarmoService
from bot.web.app import bound_port
from bot.web.serve import start_live_board
from bot.web.tokens import sign_watch_token
from tests.service.service_helpers import start_match
from tests.web.conftest import WAIT_SECONDS

STOP_SECONDS = 5.0  # far below aiohttp's 60 s wait for handlers still running


async def test_the_configured_board_serves_a_game_and_stops_at_once(
    service: JarmoService, tmp_path: Path
) -> None:
    path = tmp_path / "jarmo.toml"
    path.write_text('[web]\nenabled = true\naddress = "127.0.0.1"\nport = 0\n')
    config = load_config(path, env={"DISCORD_TOKEN": "a.b.c"})
    board = await start_match(service)
    runner = await start_live_board(service, config)
    try:
        base = f"http://127.0.0.1:{bound_port(runner)}"
        token = sign_watch_token(
            await service.web_secret(),
            board.game.id,
            expires_at=service.now() + timedelta(hours=1),
        )
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/healthz") as health:
                assert await health.text() == "ok"
            ws = await session.ws_connect(f"{base}/ws")
            await ws.send_json({"type": "watch", "token": token})
            state = await ws.receive_json(timeout=WAIT_SECONDS)
            assert state["type"] == "state" and state["game"]["id"] == str(board.game.id)
            started = time.monotonic()
            await asyncio.wait_for(runner.cleanup(), STOP_SECONDS)
            assert time.monotonic() - started < STOP_SECONDS
            closing = await ws.receive(timeout=WAIT_SECONDS)
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    finally:
        await runner.cleanup()
