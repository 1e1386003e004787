"""A change going out to many pages: a page that stops reading holds nobody else back."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.service import JarmoService
from bot.web.app import WebSettings, create_web_app
from bot.web.rooms import SEND_TIMEOUT_SECONDS
from bot.web.tokens import sign_watch_token
from tests.service.service_helpers import start_match
from tests.web.conftest import SECRET, WAIT_SECONDS, WatchedSpectators

# Enough changes to fill what the kernel (its buffers grow to a few megabytes on the loopback)
# and aiohttp's writer take in for a page that reads nothing, and then some: about 1200 do.
CHANGES = 2000


@dataclass(frozen=True)
class Change:
    version: int


class DrivenSubscription:
    def __init__(self) -> None:
        self.changes: asyncio.Queue[Change] = asyncio.Queue()

    def __enter__(self) -> DrivenSubscription:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    async def next(self) -> Change:
        return await self.changes.get()


class DrivenFeed:
    """A feed the test drives: each change it is told of reaches the board as if the stored
    game had changed (the board reads the game again and sends it to every page)."""

    def __init__(self) -> None:
        self.subscriptions: list[DrivenSubscription] = []

    def subscribe(self, game_id: int) -> DrivenSubscription:
        subscription = DrivenSubscription()
        self.subscriptions.append(subscription)
        return subscription

    def change(self, version: int) -> None:
        for subscription in self.subscriptions:
            subscription.changes.put_nowait(Change(version))


@pytest.fixture
async def board(
    service: JarmoService, spectators: WatchedSpectators, tmp_path: Path
) -> AsyncIterator[tuple[TestClient[web.Request, web.Application], DrivenFeed]]:
    async def secret() -> bytes:
        return SECRET

    feed = DrivenFeed()
    app = create_web_app(
        service,
        feed=feed,
        spectators=spectators,
        secret=secret,
        settings=WebSettings(static_dir=tmp_path / "static"),
    )
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    try:
        yield client, feed
    finally:
        await client.close()


def _masked_text_frame(payload: bytes) -> bytes:
    """A client's text frame (clients mask what they send)."""
    mask = os.urandom(4)
    if len(payload) < 126:
        head = bytes([0x81, 0x80 | len(payload)])
    else:
        head = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    return head + mask + bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))


async def _page_that_stops_reading(port: int, token: str) -> socket.socket:
    """A page on a connection with a tiny receive window that sends its watch frame and then
    reads nothing more: what the server sends it piles up on the server's side."""
    loop = asyncio.get_running_loop()
    page = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    page.setblocking(False)
    await loop.sock_connect(page, ("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await loop.sock_sendall(page, request.encode())
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):  # byte by byte: nothing after the handshake
        answer += await asyncio.wait_for(loop.sock_recv(page, 1), WAIT_SECONDS)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    watch = json.dumps({"type": "watch", "token": token}).encode()
    await loop.sock_sendall(page, _masked_text_frame(watch))
    return page


async def _next_state(ws: aiohttp.ClientWebSocketResponse) -> None:
    while True:
        message = await ws.receive()
        assert message.type == aiohttp.WSMsgType.TEXT, message
        if json.loads(message.data)["type"] == "state":
            return


async def test_a_page_that_stops_reading_does_not_hold_back_the_others(
    service: JarmoService,
    board: tuple[TestClient[web.Request, web.Application], DrivenFeed],
) -> None:
    client, feed = board
    game = (await start_match(service)).game
    token = sign_watch_token(
        SECRET, game.id, expires_at=service.now().replace(year=service.now().year + 1)
    )
    reader = await client.ws_connect("/ws")
    await reader.send_json({"type": "watch", "token": token})
    await asyncio.wait_for(_next_state(reader), WAIT_SECONDS)
    assert client.port is not None
    stalled = await _page_that_stops_reading(client.port, token)
    try:
        # Well within the time a page has to take a frame: the reader is not kept waiting
        # until the server gives up on the page that reads nothing.
        for version in range(game.version + 1, game.version + 1 + CHANGES):
            feed.change(version)
            await asyncio.wait_for(_next_state(reader), SEND_TIMEOUT_SECONDS / 4)
    finally:
        stalled.close()
        await reader.close()
