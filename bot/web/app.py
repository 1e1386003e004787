"""The live board's web server: the page, its WebSocket, and the Discord Activity's sign-in and
share dialog's picture.

The page gets a signed token (from a /jarmo watch link's fragment, or from the Activity's
sign-in) and sends it over the socket; the server answers with the game's state and again after
every change, and takes the moves of the player the token names. Nothing here logs a token, a
secret or a request body."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.service import JarmoService, Place, Refusal, errors, read_action
from bot.service.watching import WatchedGame
from bot.web.game_json import json_object, json_refusal
from bot.web.rooms import Feed, NotShown, Rooms, Spectators, Viewer, send
from bot.web.server_page import ServerPage
from bot.web.tokens import BadToken, WatchGrant, read_watch_token, sign_watch_token
from bot.words.images import image_words
from bot.words.live_board import PageRefusal, page_refusal_text, page_voice
from bot.words.refusals import refusal_text
from bot.words.voice import shared_catalogue

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"
DISCORD_API = "https://discord.com/api/v10"
WATCH_FRAME_SECONDS = 10.0  # the first frame (``watch``) must come within this
FLOOD_FRAMES = 20  # more frames than this ...
FLOOD_SECONDS = 2.0  # ... within this closes the socket
MAX_FRAME_BYTES = 2048
ACTIVITY_TOKEN_HOURS = 12  # a token from the Activity's sign-in lives this long
CLOSE_BAD_FRAME = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_WATCHING_OFF = 4403
CLOSE_FLOOD = 4408
DISCORD_TIMEOUT = aiohttp.ClientTimeout(total=10)
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' wss: ws:; frame-ancestors https://discord.com https://*.discord.com "
    "https://*.discordsays.com; base-uri 'none'; form-action 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True, slots=True)
class WebSettings:
    """What the server needs besides the service: the Activity's application (``client_id``,
    its ``client_secret`` from the environment, the bot's token to look at instances), where
    Discord's API is (tests point it at a fake), and the time a page has for its first frame."""

    activity: bool = False
    client_id: int | None = None
    client_secret: str | None = field(default=None, repr=False)
    bot_token: str | None = field(default=None, repr=False)
    discord_api: str = DISCORD_API
    watch_frame_seconds: float = WATCH_FRAME_SECONDS
    static_dir: Path = STATIC
    sdk_mock: bool = False

    @property
    def activity_ready(self) -> bool:
        """Whether the Activity's sign-in can work (it is on and has what it needs)."""
        return bool(self.activity and self.client_id and self.client_secret and self.bot_token)


class _Refused(Exception):
    """A refusal the page is told, and the close code that follows it (``None``: stays
    open)."""

    def __init__(self, code: str, text: str, close: int | None = None) -> None:
        super().__init__(code)
        self.code, self.text, self.close = code, text, close


_REFUSAL_CODES: dict[type[Refusal], str] = {
    errors.NotAPlayer: "not_a_player",
    errors.NotYourTurn: "not_your_turn",
    errors.BadMove: "illegal_move",
    errors.TimeUp: "time_out",
    errors.NoGameHere: "game_over",
}


def _refusal_code(refusal: Refusal) -> str:
    if isinstance(refusal, errors.GameChanged):
        return "stale_page" if refusal.code == errors.Code.CHANGED_MEANWHILE else "game_over"
    return next(
        (code for kind, code in _REFUSAL_CODES.items() if isinstance(refusal, kind)), "other"
    )


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    # On every answer as it is sent: pages, files, errors and the WebSocket's handshake.
    response.headers.update(SECURITY_HEADERS)


class LiveBoard:
    """The routes' handlers over the service and the live board's parts."""

    def __init__(
        self,
        service: JarmoService,
        *,
        feed: Feed,
        spectators: Spectators,
        secret: Callable[[], Awaitable[bytes]],
        settings: WebSettings,
    ) -> None:
        self._service = service
        self._secret = secret
        self._settings = settings
        self.rooms = Rooms(feed, spectators, self._shown_game)
        self._client: aiohttp.ClientSession | None = None

    async def _shown_game(self, game_id: int) -> WatchedGame:
        """The game as its pages show it; ``NotShown`` once its server turned watching off, so
        that open pages close at the next change instead of showing it."""
        game = await self._service.watching.snapshot(game_id)
        if not (await self._service.servers.settings(game.guild_id)).watching:
            raise NotShown(CLOSE_WATCHING_OFF, "watching_off")
        return game

    # ------------------------------------------------------------------ pages

    async def page(self, request: web.Request) -> web.StreamResponse:
        index = self._settings.static_dir / "index.html"
        if not index.is_file():
            raise web.HTTPNotFound(text="not found")
        return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def config(self, request: web.Request) -> web.Response:
        settings = self._settings
        client_id = str(settings.client_id) if settings.client_id else None
        answer: dict[str, Any] = {"client_id": client_id, "activity": settings.activity_ready}
        if settings.sdk_mock:
            answer["sdk_mock"] = True
        return web.json_response(answer, headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------------ the socket

    async def socket(self, request: web.Request) -> web.StreamResponse:
        # aiohttp refuses frames far over the limit itself (1009); the protocol's own limit
        # is checked below, so that the page hears 4408. No compression: one change goes to
        # every page watching, and compressing it once per page costs the bot more than the
        # few kilobytes it saves.
        ws = web.WebSocketResponse(
            max_msg_size=16 * MAX_FRAME_BYTES, heartbeat=30.0, compress=False
        )
        await ws.prepare(request)
        frames: collections.deque[float] = collections.deque()
        try:
            first = await self._first_frame(ws, frames)
            if first is None:
                return ws
            language = first.get("lang") if isinstance(first.get("lang"), str) else None
            await self._watch(ws, request.transport, frames, first, language)
        except _Refused as refused:
            await self._refuse(ws, refused)
        except Exception:
            log.exception("the live board's socket failed")
            with contextlib.suppress(Exception):
                await ws.close(code=aiohttp.WSCloseCode.INTERNAL_ERROR)
        return ws

    async def _first_frame(
        self, ws: web.WebSocketResponse, frames: collections.deque[float]
    ) -> dict[str, Any] | None:
        try:
            message = await ws.receive(timeout=self._settings.watch_frame_seconds)
        except TimeoutError:
            await ws.close(code=CLOSE_BAD_FRAME, message=b"no watch frame")
            return None
        frame = self._read(message, frames)
        if frame is None:
            return None
        if frame.get("type") != "watch" or not isinstance(frame.get("token"), str):
            await ws.close(code=CLOSE_BAD_FRAME, message=b"the first frame is watch")
            return None
        return frame

    def _read(
        self,
        message: aiohttp.WSMessage,
        frames: collections.deque[float],
        language: str | None = None,
    ) -> dict[str, Any] | None:
        """The frame's JSON object; ``None`` when the socket closed. Raises ``_Refused`` for a
        flood (too many frames, or one too big, or not text)."""
        if message.type != aiohttp.WSMsgType.TEXT:
            if message.type == aiohttp.WSMsgType.BINARY:
                raise self._flood(language)
            return None
        now = time.monotonic()
        frames.append(now)
        while frames and frames[0] < now - FLOOD_SECONDS:
            frames.popleft()
        text = message.data
        if len(frames) > FLOOD_FRAMES or len(text.encode()) > MAX_FRAME_BYTES:
            raise self._flood(language)
        try:
            frame = json.loads(text)
        except ValueError:
            return {}
        return frame if isinstance(frame, dict) else {}

    def _flood(self, language: str | None) -> _Refused:
        voice = page_voice(language, {})
        return _Refused("flood", page_refusal_text("flood", voice), CLOSE_FLOOD)

    async def _refuse(self, ws: web.WebSocketResponse, refused: _Refused) -> None:
        frame = json.dumps({"type": "refused", "code": refused.code, "text": refused.text})
        await send(ws, frame)
        if refused.close is not None:
            await ws.close(code=refused.close, message=refused.code.encode())

    def _page_refusal(self, code: PageRefusal, language: str | None, close: int) -> _Refused:
        return _Refused(code, page_refusal_text(code, page_voice(language, {})), close)

    async def _watch(
        self,
        ws: web.WebSocketResponse,
        connection: asyncio.Transport | None,
        frames: collections.deque[float],
        first: dict[str, Any],
        language: str | None,
    ) -> None:
        service = self._service
        try:
            grant = read_watch_token(await self._secret(), first["token"], now=service.now())
        except BadToken as bad:
            raise self._page_refusal(bad.code, language, CLOSE_BAD_TOKEN) from None
        viewer = Viewer(ws, you=None, connection=connection)
        room = self.rooms.enter(grant.game_id, viewer)
        try:
            try:
                game = await room.current()  # read once for all who come between two changes
            except errors.NoGameHere:
                raise self._page_refusal("bad_token", language, CLOSE_BAD_TOKEN) from None
            except NotShown:
                game = None
            # The room's read may be older than the server's choice: asked again for each page.
            if game is None or not (await service.servers.settings(game.guild_id)).watching:
                raise self._page_refusal("watching_off", language, CLOSE_WATCHING_OFF)
            viewer.you = game.side_of(grant.user_id)
            await room.show(viewer)
            async for message in ws:
                frame = self._read(message, frames, language)
                if frame is None:
                    break
                try:
                    await self._answer(ws, frame, grant.game_id, grant.user_id, language)
                except _Refused as refused:
                    if refused.close is not None:
                        raise
                    await self._refuse(ws, refused)
        finally:
            self.rooms.leave(room, viewer)

    async def _answer(
        self,
        ws: web.WebSocketResponse,
        frame: dict[str, Any],
        game_id: int,
        user_id: int | None,
        language: str | None,
    ) -> None:
        kind = frame.get("type")
        if kind == "ping":
            await send(ws, '{"type": "pong"}')
        elif kind == "move":
            await self._move(frame, game_id, user_id, language)

    async def _move(
        self, frame: dict[str, Any], game_id: int, user_id: int | None, language: str | None
    ) -> None:
        service = self._service
        text, version = frame.get("move"), frame.get("version")
        try:
            if user_id is None:
                raise errors.NotAPlayer(errors.Code.NOT_A_PLAYER)
            if not isinstance(text, str) or not isinstance(version, int):
                raise errors.BadMove(errors.Code.UNREADABLE_MOVE)
            await service.watching.move(
                game_id, user_id, read_action(text), expected_version=version
            )
        except Exception as exc:
            refusal = errors.as_refusal(exc)
            # The players' names only for the words of a refusal: a move reads the game once.
            game = await service.watching.snapshot(game_id)
            names = {game.player_ids[side]: game.player_names[side] for side in game.player_ids}
            voice = page_voice(language, names)
            if refusal is None:
                log.exception("a move on the live board of game %d failed", game_id)
                raise _Refused("other", page_refusal_text("other", voice)) from None
            raise _Refused(_refusal_code(refusal), refusal_text(refusal, voice)) from None

    # ------------------------------------------------------------------ the Activity

    def _http(self) -> aiohttp.ClientSession:
        if self._client is None or self._client.closed:
            self._client = aiohttp.ClientSession(timeout=DISCORD_TIMEOUT)
        return self._client

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if not self._settings.activity_ready:
            raise web.HTTPNotFound(text="not found")
        body = await json_object(request)
        if body is None:
            raise web.HTTPBadRequest(text="a JSON object is expected")
        return body

    async def activity_token(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        code = body.get("code")
        if not isinstance(code, str) or not code:
            raise web.HTTPBadRequest(text="a code is expected")
        settings = self._settings
        form = {
            "client_id": str(settings.client_id),
            "client_secret": settings.client_secret or "",
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._http().post(f"{settings.discord_api}/oauth2/token", data=form) as answer:
            if answer.status != 200:
                log.info("Discord refused an Activity's sign-in code (HTTP %d)", answer.status)
                return web.json_response({"code": "bad_code"}, status=403)
            granted = await answer.json()
        return web.json_response({"access_token": granted.get("access_token")})

    async def activity_game(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        access, instance_id, channel = (
            body.get("access_token"),
            body.get("instance_id"),
            body.get("channel_id"),
        )
        if not all(isinstance(value, str) and value for value in (access, instance_id, channel)):
            raise web.HTTPBadRequest(text="access_token, instance_id and channel_id are expected")
        settings = self._settings
        api, http = settings.discord_api, self._http()
        async with http.get(
            f"{api}/users/@me", headers={"Authorization": f"Bearer {access}"}
        ) as me:
            if me.status != 200:
                return web.json_response({"code": "not_in_instance"}, status=403)
            user_id = int((await me.json())["id"])
        url = f"{api}/applications/{settings.client_id}/activity-instances/{instance_id}"
        bot = {"Authorization": f"Bot {settings.bot_token}"}
        async with http.get(url, headers=bot) as found:
            instance = await found.json() if found.status == 200 else None
        location = (instance or {}).get("location") or {}
        users = {str(user) for user in (instance or {}).get("users", [])}
        if str(user_id) not in users or str(location.get("channel_id")) != channel:
            return web.json_response({"code": "not_in_instance"}, status=403)
        guild = location.get("guild_id")
        place = Place(int(guild) if guild else None, int(channel))
        game_id = await self._service.watching.game_in_channel(place)
        if game_id is None:
            return web.json_response({"code": "no_game"}, status=403)
        if not (await self._service.servers.settings(place.guild_id)).watching:
            return web.json_response({"code": "watching_off"}, status=403)
        expires_at = self._service.now() + timedelta(hours=ACTIVITY_TOKEN_HOURS)
        token = sign_watch_token(
            await self._secret(), game_id, expires_at=expires_at, user_id=user_id
        )
        return web.json_response({"token": token})

    async def activity_share(self, request: web.Request) -> web.Response:
        """The picture of an ended game's last position, uploaded to Discord with the user's
        own access token for the Activity's share dialog: answers the attachment's url."""
        body = await self._body(request)
        token, access, language = body.get("token"), body.get("access_token"), body.get("lang")
        if not (isinstance(token, str) and token and isinstance(access, str) and access):
            raise web.HTTPBadRequest(text="token and access_token are expected")
        grant = await self._shared_grant(token)
        picture = await self._service.watching.final_board(grant.game_id, viewer_id=grant.user_id)
        if picture is None:
            raise json_refusal(web.HTTPConflict, "game_not_over")
        words = image_words(shared_catalogue(language if isinstance(language, str) else None))
        url = await self._upload(access, f"jarmo-{grant.game_id}.png", await picture.png(words))
        if url is None:
            raise json_refusal(web.HTTPBadGateway, "discord_refused")
        return web.json_response({"url": url})

    async def _shared_grant(self, token: str) -> WatchGrant:
        """The token's grant, checked as the socket checks a watch frame's."""
        service = self._service
        try:
            grant = read_watch_token(await self._secret(), token, now=service.now())
        except BadToken as bad:
            raise json_refusal(web.HTTPUnauthorized, bad.code) from None
        try:
            await self._shown_game(grant.game_id)
        except errors.NoGameHere:
            raise json_refusal(web.HTTPUnauthorized, "bad_token") from None
        except NotShown:
            raise json_refusal(web.HTTPForbidden, "watching_off") from None
        return grant

    async def _upload(self, access: str, filename: str, png: bytes) -> str | None:
        """Upload ``png`` as the user's ephemeral attachment of the app; its CDN url, or
        ``None`` when Discord does not take it (the reason is logged, never the token)."""
        settings = self._settings
        form = aiohttp.FormData()
        form.add_field("file", png, filename=filename, content_type="image/png")
        url = f"{settings.discord_api}/applications/{settings.client_id}/attachment"
        headers = {"Authorization": f"Bearer {access}"}
        try:
            async with self._http().post(url, data=form, headers=headers) as answer:
                if answer.status != 200:
                    log.info("Discord refused a shared picture's upload (HTTP %d)", answer.status)
                    return None
                uploaded = await answer.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("a shared picture's upload to Discord failed: %s", type(exc).__name__)
            return None
        attachment = uploaded.get("attachment") if isinstance(uploaded, dict) else None
        found = attachment.get("url") if isinstance(attachment, dict) else None
        if not isinstance(found, str):
            log.warning("Discord's answer to a shared picture's upload has no url")
            return None
        return found

    async def close(self) -> None:
        """Close the rooms and the client to Discord."""
        await self.rooms.close()
        if self._client is not None:
            await self._client.close()


def create_web_app(
    service: JarmoService,
    *,
    feed: Feed,
    spectators: Spectators,
    secret: Callable[[], Awaitable[bytes]],
    settings: WebSettings,
) -> web.Application:
    """The live board's application over ``service``."""
    board = LiveBoard(service, feed=feed, spectators=spectators, secret=secret, settings=settings)
    server_page = ServerPage(service, secret)
    app = web.Application(client_max_size=64 * 1024)
    app.on_response_prepare.append(_security_headers)
    app.add_routes(
        [
            web.get("/", board.page),
            web.get("/watch", board.page),
            web.get("/server", board.page),
            web.get("/ws", board.socket),
            web.get("/healthz", board.health),
            web.get("/config.json", board.config),
            web.post("/api/activity/token", board.activity_token),
            web.post("/api/activity/game", board.activity_game),
            web.post("/api/activity/share", board.activity_share),
            web.post("/api/server/overview", server_page.overview),
            web.post("/api/server/game", server_page.game),
        ]
    )
    if settings.static_dir.is_dir():
        app.router.add_static("/static", settings.static_dir, follow_symlinks=False)

    async def hang_up(_app: web.Application) -> None:
        await board.rooms.hang_up()

    async def close(_app: web.Application) -> None:
        await board.close()

    app.on_shutdown.append(hang_up)
    app.on_cleanup.append(close)
    return app


async def start_web_server(app: web.Application, address: str, port: int) -> web.AppRunner:
    """Serve ``app`` on ``address``:``port`` (0: a free port). The access log shows the request
    line, never a token: tokens ride in URL fragments, frames and bodies, which it leaves out
    (and it leaves out the referrer and the browser too)."""
    runner = web.AppRunner(app, access_log_format='%a "%r" %s %b %Tf')
    await runner.setup()
    site = web.TCPSite(runner, address, port)
    await site.start()
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the server listens on (the one chosen when 0 was asked for)."""
    for address in runner.addresses:
        if isinstance(address, tuple):
            return int(address[1])
    raise RuntimeError("the web server listens on no TCP port")
