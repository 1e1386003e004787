"""A TEST DOUBLE of the live board's web server, for the browser tests of the page.

It serves bot/web/static/ and speaks the page's WebSocket protocol and the Activity's two
endpoints as the shared contract describes them, over one game of the real rules (bot/jarmo),
so the positions and legal moves the page shows are real. It checks nothing that matters for
security (tokens are fixed names) and stores nothing: the real server (bot/web) replaces it
where the page meets the bot.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.jarmo import POINT_NAMES, Action, Game, Side

STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "static"

#: The watch tokens the stub knows: who each makes of the page (None: a spectator).
TOKENS: dict[str, Side | None] = {"white": "white", "black": "black", "spectator": None}
#: Any other token is turned away as expired or bad (4401); "close-<code>" closes with that code.
MOCK_CODE = "mock_code"  # what the Embedded App SDK's mock answers to authorize()
ACCESS_TOKEN = "stub-access-token"
MOCK_INSTANCE_ID = "123456789012345678"  # DiscordSDKMock.instanceId

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' wss: ws:; frame-ancestors https://discord.com https://*.discord.com "
        "https://*.discordsays.com; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
COLORS = {
    "background": "#e9d8b4",
    "line": "#3b2f2f",
    "white": "#fbfaf5",
    "black": "#2b2b2b",
    "last_move": "#e4572e",
    "camp_white": "#c9e4ca",
    "camp_black": "#c6c2e8",
}


def _point(name: str) -> dict[str, Any]:
    column, row = "ABCDE".index(name[0]), int(name[1:])
    return {"name": name, "x": column, "y": 5 - row}


def _action(game: Game, action: Action) -> dict[str, Any]:
    def name(point: int | None) -> str | None:
        return None if point is None else POINT_NAMES[point]

    return {
        "text": game.notation(action),
        "from": name(action.origin),
        "to": name(action.target),
        "place": name(action.place),
    }


@dataclass
class Viewer:
    socket: web.WebSocketResponse
    side: Side | None
    received: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class StubServer:
    game: Game = field(default_factory=Game.new)
    version: int = 1
    viewers: list[Viewer] = field(default_factory=list)
    #: Every frame any page sent, in order, with the viewer's side (None: a spectator).
    frames: list[tuple[Side | None, dict[str, Any]]] = field(default_factory=list)
    #: The first frame of every page that connected.
    watch_frames: list[dict[str, Any]] = field(default_factory=list)
    #: The next move is refused with this (code, text) instead of being played.
    refuse_next: tuple[str, str] | None = None
    deadline: datetime = field(default_factory=lambda: datetime.now(UTC) + timedelta(hours=1))
    #: The watch token the Activity gets for its channel; None: the channel has no game.
    activity_game: str | None = "white"
    #: What /config.json says: whether the page may use the Embedded App SDK's mock.
    sdk_mock: bool = True
    #: The bodies the Activity's endpoints were sent, by path.
    activity_requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: Set whenever anything above changes, for tests that wait on the server's side.
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def until(self, condition: Callable[[], bool]) -> None:
        """Waits until ``condition()`` holds, checking at every change; fails after 15 s."""
        async with asyncio.timeout(15):
            while not condition():
                self.changed.clear()
                await self.changed.wait()

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self._page)
        app.router.add_get("/watch", self._page)
        app.router.add_static("/static", STATIC)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/config.json", self._config)
        app.router.add_post("/api/activity/token", self._activity_token)
        app.router.add_post("/api/activity/game", self._activity_game)
        return app

    def snapshot(self, you: Side | None) -> dict[str, Any]:
        game = self.game
        last = None
        if game.history:
            last = _action(game.copy(), Action.parse(game.history[-1]))
            last["text"] = game.history[-1]
        over = game.over
        winner = game.winner() if over else None
        return {
            "id": "12",
            "version": self.version,
            "ruleset": game.ruleset,
            "status": "finished" if over else "active",
            "board": {
                "points": [_point(name) for name in POINT_NAMES],
                "lines": [list(line) for line in game.layout.lines],
            },
            "colors": COLORS,
            "pieces": [
                {"point": piece.point, "side": piece.side}
                for name in POINT_NAMES
                if (piece := game.piece_at(name)) is not None
            ],
            "reserve": {"white": game.reserve("white"), "black": game.reserve("black")},
            "camps": {
                "white": [f"{c}1" for c in "ABCDE"],
                "black": [f"{c}5" for c in "ABCDE"],
            },
            "players": {"white": {"id": "1", "name": "Ann"}, "black": {"id": "2", "name": "Bob"}},
            "you": you,
            "turn": None if over else game.turn,
            "last_move": last,
            "moves": game.history,
            "legal": [_action(game, a) for a in game.legal_actions()]
            if you is not None and you == game.turn and not over
            else [],
            "clock": {
                "deadline": None if over else self.deadline.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "per_move_seconds": 3600,
                "paused": False,
            },
            "score": {"white": 0, "black": 0, "game": 1, "games": 1},
            "result": {"winner": winner, "reason": "finished"} if over else None,
            "watchers": len(self.viewers),
        }

    async def play(self, text: str) -> None:
        """Plays a move as the bot would from Discord, and shows it to every page."""
        self.game.play(text)
        self.version += 1
        await self._send_states()

    async def drop_connections(self) -> None:
        """Closes every page's socket as a restarting server would (the pages reconnect)."""
        for viewer in list(self.viewers):
            await viewer.socket.close(code=1012, message=b"restarting")

    async def _send_states(self) -> None:
        for viewer in list(self.viewers):
            if not viewer.socket.closed:
                await viewer.socket.send_json({"type": "state", "game": self.snapshot(viewer.side)})
        self.changed.set()

    async def _page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": "1234", "activity": True, "sdk_mock": self.sdk_mock})

    async def _activity_token(self, request: web.Request) -> web.Response:
        body = await request.json()
        self._record_activity(request, body)
        if body.get("code") != MOCK_CODE:
            return web.json_response({"code": "other"}, status=403)
        return web.json_response({"access_token": ACCESS_TOKEN})

    async def _activity_game(self, request: web.Request) -> web.Response:
        body = await request.json()
        self._record_activity(request, body)
        if body.get("access_token") != ACCESS_TOKEN or body.get("instance_id") != MOCK_INSTANCE_ID:
            return web.json_response({"code": "not_in_instance"}, status=403)
        if self.activity_game is None:
            return web.json_response({"code": "no_game"}, status=403)
        return web.json_response({"token": self.activity_game})

    def _record_activity(self, request: web.Request, body: dict[str, Any]) -> None:
        self.activity_requests.append((request.path, body))
        self.changed.set()

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        first = await socket.receive_json()
        self.watch_frames.append(first)
        token = first.get("token")
        if isinstance(token, str) and token.startswith("close-"):
            # "close-4403": the close the real server sends for that reason
            await socket.close(code=int(token.removeprefix("close-")), message=b"closed")
            return socket
        if first.get("type") != "watch" or token not in TOKENS:
            await socket.close(code=4401, message=b"bad token")
            return socket
        viewer = Viewer(socket, TOKENS[token])
        self.viewers.append(viewer)
        self.changed.set()
        try:
            await socket.send_json({"type": "state", "game": self.snapshot(viewer.side)})
            await self._send_watchers()
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    break
                frame = json.loads(message.data)
                viewer.received.append(frame)
                self.frames.append((viewer.side, frame))
                await self._receive(viewer, frame)
                self.changed.set()
        finally:
            self.viewers.remove(viewer)
            self.changed.set()
            await self._send_watchers()
        return socket

    async def _send_watchers(self) -> None:
        for viewer in list(self.viewers):
            if not viewer.socket.closed:
                await viewer.socket.send_json({"type": "watchers", "count": len(self.viewers)})

    async def _receive(self, viewer: Viewer, frame: dict[str, Any]) -> None:
        if frame.get("type") == "ping":
            await viewer.socket.send_json({"type": "pong"})
            return
        if frame.get("type") != "move":
            return
        refusal = self._refusal(viewer, frame)
        if refusal is not None:
            code, text = refusal
            await viewer.socket.send_json({"type": "refused", "code": code, "text": text})
            return
        await self.play(str(frame["move"]))

    def _refusal(self, viewer: Viewer, frame: dict[str, Any]) -> tuple[str, str] | None:
        if self.refuse_next is not None:
            refusal, self.refuse_next = self.refuse_next, None
            return refusal
        if viewer.side is None:
            return "not_a_player", "You are watching this game, not playing it."
        if frame.get("version") != self.version:
            return "stale_page", "The game changed meanwhile: look again and move."
        if viewer.side != self.game.turn:
            return "not_your_turn", "It is not your turn."
        if frame.get("move") not in {self.game.notation(a) for a in self.game.legal_actions()}:
            return "illegal_move", "That move is not allowed here."
        return None


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    if not response.prepared:
        response.headers.update(HEADERS)
    return response
