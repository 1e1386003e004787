"""A loopback fake of Discord for end-to-end tests: the gateway websocket and the REST API the
bot uses, served by aiohttp on 127.0.0.1 from a background thread.

Tests talk to it synchronously: they dispatch interactions as users would cause them (a slash
command, an autocomplete keystroke, a button press) and wait, with timeouts, for what the bot
answered. Everything the bot sends is checked against Discord's documented limits
(``discord_limits``); anything Discord would refuse, an unknown route, a late or double answer is
answered as Discord would answer it *and* recorded in ``problems``, which the fixtures turn into
test failures.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import itertools
import json
import math
import mimetypes
import re
import secrets
import socket
import threading
import time
import zlib
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

from tests.e2e.discord_limits import (
    COMPONENTS_V2,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    attachment_references,
    check_allowed_mentions,
    check_autocomplete,
    check_commands,
    check_components_v2,
    check_message,
    v2_attachment_references,
)
from tests.e2e.fake_models import (
    CREATE_PUBLIC_THREADS,
    EPHEMERAL,
    LOADING,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES_IN_THREADS,
    USE_EXTERNAL_APPS,
    ActivityInstance,
    Answer,
    AppAttachment,
    Attachment,
    Channel,
    Interaction,
    Message,
    OAuthGrant,
    Place,
    Request,
    Snowflakes,
    Thread,
    Upload,
    User,
    World,
)

T = TypeVar("T")

API_PREFIX = "/api/v10"
ANSWER_DEADLINE = 3.0  # seconds Discord waits for the first answer to an interaction
# How often a wait looks again at a condition that may change without a request to the fake.
RECHECK_S = 0.05
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token serves follow-ups and edits
FOLLOWUP_CAP = 5  # follow-ups per interaction where the app is not installed in the server
NONCE_MINUTES = 5  # how long Discord remembers a message's nonce ("a few minutes")

# Interaction types, and the callback types Discord accepts for each.
PING, APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = (
    4,
    5,
    6,
    7,
    8,
    9,
)
LAUNCH_ACTIVITY = 12  # only for an app with an Activity (the EMBEDDED flag)
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, LAUNCH_ACTIVITY},
}
EMBEDDED = 1 << 17  # the application flag of an app with an Activity
OAUTH_TOKEN_SECONDS = 604_800  # an access token's lifetime, as Discord gives it
# The default file upload limit, per file: 10 MiB (Discord's reference, "Uploading Files").
UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024
# The images an app's attachment upload takes, by their first bytes.
IMAGE_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}

# Gateway opcodes and the intents that need switching on in the developer portal.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content

# Where a call's recorded ``Request`` is kept on aiohttp's request.
RECORDED = web.RequestKey("fake-discord-request", Request)
#: Every answered interaction of the test session: (what, seconds from dispatch to answer).
TIMINGS: list[tuple[str, float]] = []


class DiscordError(Exception):
    """An error answer, shaped like Discord's."""

    def __init__(self, status: int, message: str, code: int = 0, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"message": message, "code": code, **extra}


def invalid_form(problems: list[str]) -> DiscordError:
    return DiscordError(400, "Invalid Form Body", 50035, errors={"_problems": problems})


# ---------------------------------------------------------------------------------- the gateway


class Connection:
    """One websocket from the bot. Frames are zlib-stream compressed when the bot asked for it
    (``compress=zlib-stream``), plain text otherwise."""

    def __init__(
        self, ws: web.WebSocketResponse, path: str, compress: bool, fake: FakeDiscord
    ) -> None:
        self.ws = ws
        self.path = path
        self.compressed = compress
        self.fake = fake
        self._zlib = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame)
        async with self._lock:
            if self.ws.closed:
                return
            if frame.get("t") == "INTERACTION_CREATE":
                self.fake._sent(int(frame["d"]["id"]))
            if self._zlib is None:
                await self.ws.send_str(text)
            else:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)


class Session:
    """A gateway session of one shard (``shard_id`` of ``shard_count``): its sequence numbers
    and every dispatch, kept for RESUME."""

    def __init__(self, shard_id: int = 0, shard_count: int = 1) -> None:
        self.shard_id = shard_id
        self.shard_count = shard_count
        self.id = secrets.token_hex(16)
        self.seq = 0
        self.events: list[dict[str, Any]] = []
        self.connection: Connection | None = None
        self.lock = asyncio.Lock()

    def owns(self, guild_id: int) -> bool:
        """Whether this session's shard gets the events of ``guild_id``."""
        return (guild_id >> 22) % self.shard_count == self.shard_id

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        async with self.lock:
            self.seq += 1
            frame = {"op": DISPATCH, "s": self.seq, "t": event, "d": data}
            self.events.append(frame)
            if self.connection is not None:
                await self.connection.send(frame)


# ------------------------------------------------------------------------------------ the fake


class FakeDiscord:
    """Discord's gateway and REST API on 127.0.0.1, run by a private event loop thread."""

    def __init__(
        self,
        *,
        token: str | None = None,
        heartbeat_ms: int = 1000,
        answer_deadline: float = ANSWER_DEADLINE,
        compress: bool = True,
        shards: int = 1,
    ) -> None:
        self.answer_deadline = answer_deadline
        self.compress = compress  # honour compress=zlib-stream (else always plain text frames)
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.heartbeat_ms = heartbeat_ms
        self.ids = Snowflakes()
        self.world = World(self.ids)
        self.problems: list[str] = []
        self.requests: list[Request] = []
        # An outage: the bot's channel messages whose content this matches are answered 503
        # (discord.py does not retry that one itself) and recorded in ``unavailable``.
        self.unavailable_for: Callable[[str], bool] | None = None
        self.unavailable: list[str] = []
        # A refusal of any route for the time being: called with (method, path) before the
        # route's handler, the error it returns (or None: served as usual) is the answer,
        # and the call is recorded in ``refused``.
        self.refuse: Callable[[str, str], DiscordError | None] | None = None
        self.refused: list[str] = []
        # A slow way back: a call this matches (the recorded request) is carried out as usual,
        # but its answer waits until ``release_held`` (the bot may die meanwhile, as after a
        # crash between Discord's doing something and the bot's hearing of it); recorded in
        # ``held``.
        self.hold_answers: Callable[[Request], bool] | None = None
        self.held: list[str] = []
        self._release: asyncio.Event | None = None
        # Rate limits on interaction callbacks (see ``rate_limit_callbacks``): the retry_after
        # of each 429 still to give, and the callbacks answered with one.
        self.callback_limits: list[float] = []
        self.rate_limited: list[str] = []
        self.interactions: dict[int, Interaction] = {}
        self.messages: dict[int, Message] = {}
        self.repeated_nonces: list[str] = []  # posts Discord answered with an earlier message
        # Direct messages: each user's DM channel (Create DM makes it once), and the users who
        # take none (their DMs closed: a message there is refused, 403 with code 50007).
        self.direct_channels: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        # User installs: the users who added the app to their account, and the places outside
        # the bot's servers (DMs, group DMs, servers without the bot) by channel id.
        self.user_installs: set[int] = set()
        self.places: dict[int, Place] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.command_puts: list[tuple[int | None, Any]] = []
        self.connections: list[Connection] = []
        self.sessions_started = 0
        self.resumes = 0
        self.heartbeats = 0
        self.intents: list[int] = []
        self.session: Session | None = None  # the session of the shard of ``world``'s guild
        # Sharding: GET /gateway/bot recommends ``shards``; each shard's session
        # gets the events of its guilds only. ``world`` is the first guild, ``worlds`` all.
        self.recommended_shards = shards
        self.worlds = [self.world]
        self.sessions: dict[int, Session] = {}  # by shard id: the latest IDENTIFY of each
        self.identified: list[tuple[int, int]] = []  # (shard id, shard count) of each IDENTIFY
        self.in_flight = 0
        # The languages interactions carry: each user's Discord client (by user id), and the
        # server's (a community server's locale).
        self.user_locales: dict[int, str] = {}
        self.guild_locale = "en-US"
        # The app's Activity (off unless a test turns it on): its running instances by id,
        # the OAuth2 client secret its server exchanges codes with, and the grants handed out.
        self.activity = False
        self.activity_instances: dict[str, ActivityInstance] = {}
        self.client_secret = secrets.token_urlsafe(24)
        self.oauth_grants: list[OAuthGrant] = []
        self.app_attachments: list[AppAttachment] = []  # what users' tokens uploaded for the app
        self._table = self._route_table()
        self._thread_events: set[asyncio.Future[None]] = set()  # THREAD_UPDATEs on their way
        self._changed = threading.Condition(threading.RLock())
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="fake-discord", daemon=True
        )
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> FakeDiscord:
        """Serve on a free port of 127.0.0.1 (see ``port``); returns the fake."""
        self._thread.start()
        self._run(self._start())
        return self

    def close(self) -> None:
        """Close the bot's sockets, stop serving and end the thread."""
        if self._thread.is_alive():
            self._run(self._stop())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop.close()

    async def _start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/{variant}", self._gateway)
        app.router.add_get("/attachments/{id}/{name}", self._download)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._stray)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def _stop(self) -> None:
        for connection in self.connections:
            if not connection.ws.closed:
                await connection.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()

    def _run(self, coro: Coroutine[Any, Any, T], timeout: float = 20.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base_url(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- recording and waiting --------------------------------------------------------------

    def problem(self, text: str) -> None:
        """Record something Discord would have refused or that should never happen."""
        with self._changed:
            self.problems.append(text)
            self._changed.notify_all()

    def take_problems(self) -> list[str]:
        """The problems recorded so far, which are then forgotten."""
        with self._changed:
            found, self.problems = self.problems, []
            return found

    def wait_until(self, predicate: Callable[[], object], timeout: float, what: str) -> None:
        """Block until ``predicate()`` is true: checked whenever the fake records something,
        and every ``RECHECK_S`` besides, for a predicate that reads what the fake does not
        record (the bot's log, which it may write after its last request)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
                self._changed.wait(min(left, RECHECK_S))

    def _notify(self) -> None:
        with self._changed:
            self._changed.notify_all()

    def _sent(self, interaction_id: int) -> None:
        with self._changed:
            interaction = self.interactions.get(interaction_id)
            if interaction is not None and interaction.sent_at is None:
                interaction.sent_at = time.monotonic()

    def wait_session(self, count: int, timeout: float = 20.0) -> None:
        """Until the bot has identified ``count`` times in all (and got its GUILD_CREATE)."""
        self.wait_until(lambda: self.sessions_started >= count, timeout, f"gateway session {count}")

    def wait_resumed(self, count: int, timeout: float = 20.0) -> None:
        """Until the bot has resumed its session ``count`` times in all."""
        self.wait_until(lambda: self.resumes >= count, timeout, f"RESUME number {count}")

    def wait_commands(self, guild_id: int | None, timeout: float = 20.0) -> list[dict[str, Any]]:
        """The commands registered for a guild (``None``: globally), once they are."""
        self.wait_until(lambda: guild_id in self.commands, timeout, "command registration")
        return self.commands[guild_id]

    # -- the gateway ---------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        compress = self.compress and request.query.get("compress") == "zlib-stream"
        connection = Connection(ws, request.path, compress, self)
        self.connections.append(connection)
        if request.query.get("v") != "10" or request.query.get("encoding", "json") != "json":
            self.problem(f"gateway opened with unsupported query {dict(request.query)}")
            await ws.close(code=4012, message=b"Invalid API version")
            return ws
        await connection.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}})
        async for frame in ws:
            if frame.type == WSMsgType.TEXT:
                await self._on_frame(connection, json.loads(frame.data))
            elif frame.type == WSMsgType.BINARY:
                self.problem("the bot sent a binary gateway frame")
        if connection.session is not None and connection.session.connection is connection:
            connection.session.connection = None
        return ws

    async def _on_frame(self, connection: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif op in (PRESENCE, VOICE_STATE, REQUEST_MEMBERS):
            pass
        else:
            self.problem(f"unknown gateway opcode {op}")
            await connection.ws.close(code=4001, message=b"Unknown opcode")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.ws.close(code=4005, message=b"Already authenticated")
            return
        if data.get("token") != self.token:
            await connection.ws.close(code=4004, message=b"Authentication failed")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            self.problem(f"IDENTIFY without integer intents: {intents!r}")
            await connection.ws.close(code=4013, message=b"Invalid intent(s)")
            return
        self.intents.append(intents)
        if intents & PRIVILEGED_INTENTS:
            await connection.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        shard = data.get("shard", [0, 1])
        if not _valid_shard(shard):
            self.problem(f"IDENTIFY with an invalid shard: {shard!r}")
            await connection.ws.close(code=4010, message=b"Invalid shard")
            return
        session = Session(*shard)
        connection.session = self.sessions[session.shard_id] = session
        if session.owns(self.world.guild_id):
            self.session = session
        session.connection = connection
        world = self.world
        guilds = [w for w in self.worlds if session.owns(w.guild_id)]
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": world.bot.payload() | {"verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(w.guild_id), "unavailable": True} for w in guilds],
                "shard": [session.shard_id, session.shard_count],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway/resume",
                "application": {"id": str(world.application_id), "flags": 1 << 23},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["local"],
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.guild_create())
        with self._changed:
            self.identified.append((session.shard_id, session.shard_count))
            self.sessions_started += 1
            self._changed.notify_all()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        if data.get("token") != self.token:
            await connection.ws.close(code=4004, message=b"Authentication failed")
            return
        if session is None or not isinstance(data.get("seq"), int):
            await connection.send({"op": INVALID_SESSION, "d": False})
            return
        async with session.lock:
            connection.session = session
            session.connection = connection
            for frame in session.events:
                if frame["s"] > data["seq"]:
                    await connection.send(frame)
            session.seq += 1
            resumed = {"op": DISPATCH, "s": session.seq, "t": "RESUMED", "d": {}}
            session.events.append(resumed)
            await connection.send(resumed)
        with self._changed:
            self.resumes += 1
            self._changed.notify_all()

    def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway socket as a network failure or Discord restart would; the
        session stays resumable and dispatches made meanwhile are replayed on RESUME."""

        async def drop() -> None:
            session = self.session
            if session is None or session.connection is None:
                raise AssertionError("the bot has no gateway connection to drop")
            async with session.lock:
                connection, session.connection = session.connection, None
            await connection.ws.close(code=code, message=b"dropped by the test")

        self._run(drop())

    def reset_token(self) -> None:
        """The owner resets the bot's token in the developer portal: the old one no longer
        opens REST calls or sessions, and Discord closes the bot's live sockets with 4004
        (Authentication failed), which no RESUME can recover from."""

        async def reset() -> None:
            self.token = f"fake.{secrets.token_urlsafe(24)}"
            for session in self.sessions.values():
                async with session.lock:
                    connection, session.connection = session.connection, None
                if connection is not None and not connection.ws.closed:
                    await connection.ws.close(code=4004, message=b"Authentication failed")

        self._run(reset())

    # -- shards and guilds ------------------------------------------------------

    def shard_of(self, guild_id: int) -> int:
        """The shard, of those Discord recommends, that gets the events of ``guild_id``."""
        return (guild_id >> 22) % self.recommended_shards

    def add_guild(self, *, shard: int) -> World:
        """Another server of the bot, with the same people, whose events go to ``shard`` (of
        the recommended count). Added before the bot connects, it is in READY; after, it
        arrives as a GUILD_CREATE on its shard."""
        assert 0 <= shard < self.recommended_shards, "no such shard"
        # A snowflake's time (the bits above 22) decides its shard; bit 21 keeps the id
        # apart from every id the snowflake generator hands out.
        moment = self.ids() >> 22
        moment += (shard - moment) % self.recommended_shards
        world = World(self.ids, guild_id=(moment << 22) | (1 << 21), like=self.world)
        self.worlds.append(world)

        async def announce() -> None:
            session = self.session_for(world.guild_id)
            if session is not None:
                await session.dispatch("GUILD_CREATE", world.guild_create())

        self._run(announce())
        return world

    def world_of(self, guild_id: int) -> World:
        """The server with this id (the first one for an id the fake does not know)."""
        return next((w for w in self.worlds if w.guild_id == guild_id), self.world)

    def channel_by_id(self, channel_id: int) -> Channel | Thread | Place | None:
        """A channel or thread of any of the bot's servers, or a place outside them."""
        found = (w.channel_by_id(channel_id) for w in self.worlds)
        return next((channel for channel in found if channel is not None), None) or (
            self.places.get(channel_id)
        )

    # -- user installs and places outside the bot's servers ------------------------------------

    def install_for(self, *users: User) -> None:
        """These users add the app to their account (a user install)."""
        with self._changed:
            self.user_installs.update(user.id for user in users)

    def _place(self, place: Place) -> Place:
        with self._changed:
            self.places[place.id] = place
        return place

    def dm(self, user: User, other: User) -> Place:
        """A DM between two users (the bot is not in it)."""
        return self._place(Place(self.ids(), 1, (user, other), name="dm"))

    def bot_dm(self, user: User) -> Place:
        """``user``'s DM with the bot: the channel Create DM gives the bot for this user."""
        with self._changed:
            channel_id = self.direct_channels.setdefault(user.id, self.ids())
        return self._place(Place(channel_id, 1, (user,), bot_dm=True, name="bot dm"))

    def group_dm(self, *users: User) -> Place:
        """A group DM of these users (the bot is not in it)."""
        assert len(users) >= 2, "a group DM has at least two people"
        return self._place(Place(self.ids(), 3, users, name="group dm"))

    def user_install_guild(self, *, external_apps: bool = True) -> Place:
        """A text channel of a server the bot is not in (never announced on the gateway), where
        the world's people are members; ``external_apps`` False: the server turned off "Use
        External Apps", so Discord makes every answer of the app there ephemeral."""
        guild_id = self.ids()
        return self._place(
            Place(self.ids(), 0, guild_id=guild_id, external_apps=external_apps, name="other")
        )

    def age_interaction(self, interaction: Interaction, seconds: float) -> None:
        """Make ``seconds`` pass for the interaction's token, without waiting."""
        with self._changed:
            interaction.aged += seconds

    def visible_messages(self, place: Channel | Thread | Place, user: User) -> list[Message]:
        """The messages ``user`` sees in a place, oldest first: the public ones and the
        ephemeral answers to ``user``'s own interactions."""
        with self._changed:
            return [
                m.snapshot()
                for m in self.messages.values()
                if m.channel_id == place.id
                and not m.deleted
                and (not m.ephemeral or (m.interaction is not None and m.interaction.user == user))
            ]

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that gets the events of ``guild_id`` (shard 0's for a DM)."""
        if guild_id is None:
            return self.sessions.get(0)
        return next((s for s in self.sessions.values() if s.owns(guild_id)), None)

    # -- interactions ------------------------------------------------------------------------

    def _new_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel | Thread | Place,
        data: dict[str, Any],
        label: str,
        owners: dict[str, str] | None = None,
    ) -> Interaction:
        interaction_id = self.ids()
        token = f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(48)}"
        if isinstance(channel, Place):
            payload = self._place_payload(interaction_id, token, kind, user, channel, data)
            payload["authorizing_integration_owners"] = owners or {"1": str(user.id)}
            interaction = Interaction(
                interaction_id, token, kind, user, channel, payload, label, fake=self
            )
            with self._changed:
                self.interactions[interaction_id] = interaction
            return interaction
        world = self.world_of(channel.guild_id)
        permissions = str(world.permissions(user))
        payload = {
            "id": str(interaction_id),
            "application_id": str(world.application_id),
            "type": kind,
            "data": data,
            "guild": {"id": str(world.guild_id), "locale": self.guild_locale, "features": []},
            "guild_id": str(world.guild_id),
            "channel": channel.payload(),
            "channel_id": str(channel.id),
            "member": world.member(user) | {"permissions": permissions},
            "token": token,
            "version": 1,
            "app_permissions": str(world.bot_permissions),
            "locale": self.user_locales.get(user.id, "en-GB"),
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "authorizing_integration_owners": owners or {"0": str(world.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        interaction = Interaction(
            interaction_id, token, kind, user, channel, payload, label, fake=self
        )
        with self._changed:
            self.interactions[interaction_id] = interaction
        return interaction

    def _place_payload(
        self,
        interaction_id: int,
        token: str,
        kind: int,
        user: User,
        place: Place,
        data: dict[str, Any],
    ) -> dict[str, Any]:
        """An interaction from outside the bot's servers as Discord sends it: ``user`` (no
        ``member``) in a DM or group DM, ``member`` with its permissions in a server without
        the bot, and the app's documented permissions there."""
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.world.application_id),
            "type": kind,
            "data": data,
            "channel": place.payload(),
            "channel_id": str(place.id),
            "token": token,
            "version": 1,
            "app_permissions": str(place.app_permissions),
            "locale": self.user_locales.get(user.id, "en-GB"),
            "entitlements": [],
            "context": place.context,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if not place.guild_id:
            payload["user"] = user.payload()
            return payload
        permissions = self.world.permissions(user) | USE_EXTERNAL_APPS
        if not place.external_apps:
            permissions &= ~USE_EXTERNAL_APPS
        payload.update(
            guild={"id": str(place.guild_id), "locale": self.guild_locale, "features": []},
            guild_id=str(place.guild_id),
            guild_locale=self.guild_locale,
            member=self.world.member(user) | {"permissions": str(permissions)},
        )
        return payload

    def _command_owners(
        self, user: User, channel: Channel | Thread | Place, command: dict[str, Any], path: str
    ) -> dict[str, str]:
        """Who authorizes ``user``'s command here, as Discord decides it; AssertionError where
        the client would not offer the command (an install type or context it does not allow,
        or a place outside the bot's servers for a user who never installed the app)."""
        installs = command.get("integration_types") or [0]
        context = channel.context if isinstance(channel, Place) else 0
        contexts = command.get("contexts")
        if contexts is not None and context not in contexts:
            raise AssertionError(f"/{path} is not offered in context {context} ({contexts})")
        by_user = user.id in self.user_installs and 1 in installs
        owners: dict[str, str] = {}
        if not isinstance(channel, Place):
            if 0 not in installs:
                raise AssertionError(f"/{path} allows no server install ({installs})")
            owners["0"] = str(channel.guild_id)
        elif channel.bot_dm and 0 in installs:
            owners["0"] = "0"  # a server install reached in the bot's DM
        if by_user:
            owners["1"] = str(user.id)
        if not owners:
            raise AssertionError(
                f"/{path} in {channel.name}: {user.username} never installed the app"
                f" (or it allows no user install: {installs}), so Discord would not offer it"
            )
        return owners

    def slash(
        self,
        user: User,
        channel: Channel | Thread | Place,
        path: str,
        *,
        send: bool = True,
        unchecked: bool = False,
        **options: Any,
    ) -> Interaction:
        """``user`` runs the slash command ``path`` (e.g. ``"jarmo move"``) in ``channel`` with
        these options, as the Discord client would send it: only registered commands, option
        types from the registration, choices and required options enforced. ``unchecked``
        sends text options as a modified client can: any text, of any length, whatever the
        choices and length limits say (the bot must not rely on the client's checks)."""
        data, label = self._command_data(
            path, options, focused=None, unchecked=unchecked, channel=channel
        )
        owners = self._command_owners(
            user, channel, self._find_command(data["name"], channel)[0], path
        )
        interaction = self._new_interaction(APPLICATION_COMMAND, user, channel, data, label, owners)
        return self.send(interaction) if send else interaction

    def autocomplete(
        self,
        user: User,
        channel: Channel | Thread | Place,
        path: str,
        focus: str,
        *,
        send: bool = True,
        **options: Any,
    ) -> Interaction:
        """``user`` types into option ``focus`` (its text is ``options[focus]``)."""
        data, label = self._command_data(path, options, focused=focus, channel=channel)
        owners = self._command_owners(
            user, channel, self._find_command(data["name"], channel)[0], path
        )
        interaction = self._new_interaction(AUTOCOMPLETE, user, channel, data, label + " ⌨", owners)
        return self.send(interaction) if send else interaction

    def press(self, user: User, message: Message, label: str, *, send: bool = True) -> Interaction:
        """``user`` clicks the button with this label (or custom id) under ``message``."""
        with self._changed:
            current = self.messages.get(message.id, message)
            if current.deleted:
                raise AssertionError(f"message {message.id} was deleted; nothing to press")
            if current.ephemeral and current.interaction and current.interaction.user != user:
                raise AssertionError(f"{user.username} cannot see ephemeral message {message.id}")
            button = current.button(label)
            if button.get("disabled"):
                raise AssertionError(f"button {label!r} is disabled")
            api = current.api(self)
        channel = self.channel_by_id(current.channel_id)
        assert channel is not None
        data = {"custom_id": button["custom_id"], "component_type": 2}
        interaction = self._new_interaction(
            COMPONENT, user, channel, data, f"button {button['custom_id']}", _owners_of(current)
        )
        interaction.payload["message"] = api
        interaction.source = current
        return self.send(interaction) if send else interaction

    def pick(self, user: User, message: Message, choice: str, *, send: bool = True) -> Interaction:
        """``user`` chooses the option with this value (or label) in a select under ``message``."""
        with self._changed:
            current = self.messages.get(message.id, message)
            if current.deleted:
                raise AssertionError(f"message {message.id} was deleted; nothing to pick")
            if current.ephemeral and current.interaction and current.interaction.user != user:
                raise AssertionError(f"{user.username} cannot see ephemeral message {message.id}")
            select, option = current.select_option(choice)
            api = current.api(self)
        channel = self.channel_by_id(current.channel_id)
        assert channel is not None
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": [option["value"]]}
        label = f"select {select['custom_id']} = {option['value']}"
        interaction = self._new_interaction(
            COMPONENT, user, channel, data, label, _owners_of(current)
        )
        interaction.payload["message"] = api
        interaction.source = current
        return self.send(interaction) if send else interaction

    def from_outside(self, interaction: Interaction, guild_id: int | None = None) -> Interaction:
        """Make an interaction not yet sent come from outside the bot's server, as a user-installed
        app would send it: from a DM with the bot (``guild_id`` None) or from a server the bot
        is not in (a ``guild_id`` the gateway never announced). Returns it, to pass to ``send``."""
        assert interaction.sent_at is None, "the interaction was already sent"
        assert guild_id != self.world.guild_id, "that is the bot's own server"
        user = interaction.user
        if guild_id is None:
            place = self.bot_dm(user)
        else:
            place = self._place(Place(self.ids(), 0, guild_id=guild_id))
        data = interaction.payload["data"]
        data.pop("guild_id", None)
        payload = self._place_payload(
            interaction.id, interaction.token, interaction.type, user, place, data
        )
        payload["authorizing_integration_owners"] = {"1": str(user.id)}  # a user install
        if "message" in interaction.payload:
            payload["message"] = interaction.payload["message"]
        interaction.payload = payload
        interaction.channel = place
        interaction.label += " (from a DM)" if guild_id is None else f" (from guild {guild_id})"
        return interaction

    def send(self, *interactions: Interaction) -> Interaction:
        """Dispatch INTERACTION_CREATE for each, back to back on the gateway (so several reach
        the bot at the same instant); returns the first."""

        async def dispatch() -> None:
            for interaction in interactions:
                guild_id = interaction.payload.get("guild_id")
                session = self.session_for(int(guild_id) if guild_id else None)
                if session is None:
                    raise AssertionError("the bot never connected that shard to the gateway")
                await session.dispatch("INTERACTION_CREATE", interaction.payload)

        self._run(dispatch())
        return interactions[0]

    def _find_command(
        self, name: str, channel: Channel | Thread | Place | None = None
    ) -> tuple[dict[str, Any], int | None]:
        """The command as the client finds it: a server's own commands only in that server
        (outside the bot's servers only the global ones)."""
        with self._changed:
            guild = channel.guild_id if isinstance(channel, Place) else self.world.guild_id
            for scope in (guild, None):
                for command in self.commands.get(scope, []):
                    if command["name"] == name and command.get("type", 1) == 1:
                        return command, scope
        raise AssertionError(f"/{name} is not registered, so no user could run it")

    def _command_data(
        self,
        path: str,
        options: dict[str, Any],
        *,
        focused: str | None,
        unchecked: bool = False,
        channel: Channel | Thread | Place | None = None,
    ) -> tuple[dict[str, Any], str]:
        names = path.split()
        command, scope = self._find_command(names[0], channel)
        spec: dict[str, Any] = command
        chain: list[dict[str, Any]] = []
        for name in names[1:]:
            found = next((o for o in spec.get("options", []) if o["name"] == name), None)
            if found is None or found["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP):
                raise AssertionError(f"/{path}: {name!r} is not a registered subcommand")
            spec = found
            chain.append({"name": name, "type": found["type"], "options": []})
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in spec.get("options", [])):
            raise AssertionError(f"/{path} needs a subcommand")
        resolved: dict[str, dict[str, Any]] = {}
        values = [
            self._option_value(
                path, spec, name, value, resolved, focused=name == focused, unchecked=unchecked
            )
            for name, value in options.items()
        ]
        missing = [
            o["name"]
            for o in spec.get("options", [])
            if o.get("required") and o["name"] not in options
        ]
        if missing and focused is None:
            raise AssertionError(f"/{path}: required option(s) {missing} missing")
        if focused is not None and focused not in options:
            raise AssertionError(f"/{path}: the focused option {focused!r} needs a value")
        for outer, inner in itertools.pairwise(chain):
            outer["options"] = [inner]
        if chain:
            chain[-1]["options"] = values
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": chain[:1] if chain else values,
        }
        if scope is not None:
            data["guild_id"] = str(scope)
        if resolved:
            data["resolved"] = resolved
        return data, "/" + path

    def _option_value(
        self,
        path: str,
        spec: dict[str, Any],
        name: str,
        value: Any,
        resolved: dict[str, dict[str, Any]],
        *,
        focused: bool,
        unchecked: bool = False,
    ) -> dict[str, Any]:
        option = next((o for o in spec.get("options", []) if o["name"] == name), None)
        if option is None:
            raise AssertionError(f"/{path} has no option {name!r}")
        kind = option["type"]
        entry: dict[str, Any] = {"name": name, "type": kind}
        if focused:
            if not option.get("autocomplete"):
                raise AssertionError(f"/{path} {name}: the option has no autocomplete")
            entry.update(value=str(value), focused=True)
            return entry
        if kind == 6:  # USER
            if not isinstance(value, User):
                raise AssertionError(f"/{path} {name}: pass a fake User")
            entry["value"] = str(value.id)
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if value.id in self.world.departed:
                return entry  # not a member: Discord resolves a user only
            member = self.world.member(value, with_user=False)
            member["permissions"] = str(self.world.permissions(value))
            resolved.setdefault("members", {})[str(value.id)] = member
            return entry
        converted = {3: str, 4: int, 5: bool, 10: float}.get(kind)
        if converted is None:
            raise AssertionError(f"/{path} {name}: option type {kind} is not supported here")
        entry["value"] = converted(value)
        if unchecked and kind == 3:
            return entry
        choices = option.get("choices")
        if choices and entry["value"] not in [c["value"] for c in choices]:
            raise AssertionError(f"/{path} {name}: {value!r} is not one of the offered choices")
        text = entry["value"]
        low, high = option.get("min_length"), option.get("max_length")
        if kind == 3 and ((low and len(text) < low) or (high and len(text) > high)):
            raise AssertionError(f"/{path} {name}: {value!r} breaks the length limits")
        return entry

    # -- REST ----------------------------------------------------------------------------

    async def _stray(self, request: web.Request) -> web.Response:
        self.problem(f"request outside the API: {request.method} {request.path}")
        return _json_response({"message": "404: Not Found", "code": 0}, status=404)

    async def _download(self, request: web.Request) -> web.Response:
        for message in list(self.messages.values()):
            for item in message.attachments:
                if str(item.id) == request.match_info["id"]:
                    return web.Response(body=item.data, content_type=item.content_type)
        return web.Response(status=404)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        """Answer a REST call; ``in_flight`` counts calls whose answer is not fully sent yet."""
        with self._changed:
            self.in_flight += 1
        try:
            response = await self._route(request)
            held, made = self.hold_answers, request.get(RECORDED)
            if held is not None and made is not None and held(made):
                await self._hold(f"{made.method} {made.path}")
            try:
                await response.prepare(request)
                await response.write_eof()
            except ConnectionError:  # the bot is gone (killed while its answer was held)
                pass
            return response
        finally:
            with self._changed:
                self.in_flight -= 1
                self._changed.notify_all()

    async def _hold(self, what: str) -> None:
        if self._release is None:
            self._release = asyncio.Event()
        with self._changed:
            self.held.append(what)
            self._changed.notify_all()
        await self._release.wait()

    def release_held(self) -> None:
        """Send the answers held back so far (see ``hold_answers``); later ones are not held."""

        async def release() -> None:
            self.hold_answers = None
            if self._release is not None:
                self._release.set()
                self._release = None

        self._run(release())

    def rate_limit_callbacks(self, count: int, retry_after: float) -> None:
        """Answer the next ``count`` interaction callbacks with 429 Too Many Requests, each
        asking the bot to wait ``retry_after`` seconds; the attempts are recorded in
        ``rate_limited``. Discord's 3 s run on meanwhile."""
        with self._changed:
            self.callback_limits = [retry_after] * count

    def _callback_limit(self, method: str, path: str) -> web.Response | None:
        """A 429 as Discord sends it (through its proxy: discord.py takes a 429 without
        ``Via`` for a Cloudflare ban), if a callback is to get one."""
        with self._changed:
            callback = path.startswith("/interactions/") and path.endswith("/callback")
            if not self.callback_limits or method != "POST" or not callback:
                return None
            retry_after = self.callback_limits.pop(0)
            self.rate_limited.append(path)
        body = {"message": "You are being rate limited.", "retry_after": retry_after}
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": "user",
            "Via": "1.1 google",
        }
        return _json_response(body | {"global": False}, status=429, headers=headers)

    def wait_idle(self, timeout: float = 20.0) -> None:
        """Until no REST call of the bot is waiting for its answer."""
        self.wait_until(lambda: self.in_flight == 0, timeout, "the bot's REST calls to finish")

    async def _route(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        try:
            payload, uploads = await _read_body(request)
        except ValueError as exc:
            self.problem(f"{request.method} {path}: unreadable body ({exc})")
            return _json_response({"message": "400: Bad Request", "code": 0}, status=400)
        made = Request(request.method, path, dict(request.query), payload, uploads, time.time())
        with self._changed:
            self.requests.append(made)
        request[RECORDED] = made
        limited = self._callback_limit(request.method, path)
        if limited is not None:
            return limited
        known = False
        for method, pattern, handler, auth in self._table:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            known = True
            if method != request.method:
                continue
            try:
                if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise DiscordError(401, "401: Unauthorized")
                if handler != self._upload_attachment and any(u.bare for u in uploads):
                    self.problem(f"{request.method} {path}: a file part named file, not files[n]")
                    raise invalid_form(["files[n] are expected"])
                refusal = self.refuse(request.method, path) if self.refuse else None
                if refusal is not None:
                    with self._changed:
                        self.refused.append(f"{request.method} {path}")
                    raise refusal
                result = await handler(request, payload, uploads, **match.groupdict())
            except DiscordError as error:
                return _json_response(error.body, status=error.status)
            finally:
                self._notify()
            if result is None:
                return web.Response(status=204)
            return _json_response(result, headers=_rate_limit_headers(path))
        what = f"{request.method} {path}"
        if known:
            self.problem(f"method not allowed: {what}")
            return _json_response({"message": "405: Method Not Allowed", "code": 0}, status=405)
        self.problem(f"unknown route: {what}")
        return _json_response({"message": "404: Not Found", "code": 0}, status=404)

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Any, bool]]:
        """(method, path pattern, handler, needs the bot token) for every route the fake
        serves. Interaction callbacks and webhooks are authorised by their token instead."""
        app = r"/applications/(?P<app>\d+)"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        hook_message = hook + r"/messages/(?P<message>@original|\d+)"
        channel = r"/channels/(?P<channel>\d+)/messages"
        table = [
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/gateway/bot", self._get_gateway_bot, True),
            ("GET", r"/users/@me", self._get_me, False),  # the bot's token, or a user's Bearer
            ("POST", r"/users/@me/channels", self._create_dm, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("POST", r"/oauth2/token", self._oauth_token, False),  # the client's secret
            ("GET", app + r"/activity-instances/(?P<instance>[^/]+)", self._get_instance, True),
            ("POST", app + r"/attachment", self._upload_attachment, False),  # a user's Bearer
            ("GET", app + r"/commands", self._get_commands, True),
            ("PUT", app + r"/commands", self._put_commands, True),
            ("GET", app + r"/guilds/(?P<guild>\d+)/commands", self._get_commands, True),
            ("PUT", app + r"/guilds/(?P<guild>\d+)/commands", self._put_commands, True),
            ("POST", r"/interactions/(?P<interaction>\d+)/(?P<token>[^/]+)/callback",
             self._callback, False),
            ("POST", hook, self._followup, False),
            ("GET", hook_message, self._get_webhook_message, False),
            ("PATCH", hook_message, self._edit_webhook_message, False),
            ("DELETE", hook_message, self._delete_webhook_message, False),
            ("POST", channel, self._post_channel_message, True),
            ("GET", channel, self._get_channel_messages, True),
            ("GET", channel + r"/(?P<message>\d+)", self._get_channel_message, True),
            ("PATCH", channel + r"/(?P<message>\d+)", self._edit_channel_message, True),
        ]  # fmt: skip
        table += self._thread_routes()
        return [(m, re.compile(p), h, a) for m, p, h, a in table]

    async def _get_gateway(self, request: web.Request, *_: Any) -> dict[str, Any]:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request, *_: Any) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, request: web.Request, *_: Any) -> dict[str, Any]:
        extra = {"verified": True, "mfa_enabled": False, "locale": "en-US"}
        authorization = request.headers.get("Authorization", "")
        if authorization == f"Bot {self.token}":
            return self.world.bot.payload() | extra
        # The identify scope: the user, without their e-mail address.
        return self._bearer(request).user.payload() | {"mfa_enabled": False, "locale": "en-US"}

    def _bearer(self, request: web.Request) -> OAuthGrant:
        """The grant whose access token the request carries (``Bearer``); 401 without one."""
        scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
        grant = next((g for g in self.oauth_grants if g.access_token == token), None)
        if scheme != "Bearer" or grant is None or not token:
            raise DiscordError(401, "401: Unauthorized")
        return grant

    async def _get_application(self, request: web.Request, *_: Any) -> dict[str, Any]:
        world = self.world
        return {
            "id": str(world.application_id),
            "name": "Jarmo",
            "icon": None,
            "description": "Play Jarmo in Discord",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": secrets.token_hex(32),
            "flags": (1 << 23) | (EMBEDDED if self.activity else 0),  # + APPLICATION_COMMAND_BADGE
            "owner": world.cat.payload(),
            "team": None,
            "bot": world.bot.payload(),
            "interactions_endpoint_url": None,
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "tags": [],
            "approximate_guild_count": 1,
        }

    # -- the Activity: instances, the OAuth2 flow of its page, its uploads for sharing -----

    def start_activity(self, channel: Channel | Thread | Place, user: User) -> ActivityInstance:
        """A new instance of the app's Activity in ``channel``, with ``user`` in it (as
        Discord starts one when the bot answers with LAUNCH_ACTIVITY)."""
        guild_id = getattr(channel, "guild_id", 0) or None
        launch = self.ids()
        where = f"gc-{guild_id}-{channel.id}" if guild_id else f"pc-{channel.id}"
        instance = ActivityInstance(
            f"i-{launch}-{where}", launch, self.world.application_id, channel.id, guild_id
        )
        instance.users.append(user.id)
        with self._changed:
            self.activity_instances[instance.id] = instance
        return instance

    def join_activity(self, instance: ActivityInstance, user: User) -> None:
        """``user`` joins a running instance."""
        with self._changed:
            if user.id not in instance.users:
                instance.users.append(user.id)

    def instances_in(self, channel: Channel | Thread | Place) -> list[ActivityInstance]:
        """The Activity's instances started in ``channel``, oldest first."""
        with self._changed:
            return [i for i in self.activity_instances.values() if i.channel_id == channel.id]

    def authorize(self, user: User) -> str:
        """The code the Embedded App SDK's ``authorize`` gives the page of ``user``: the
        page's server exchanges it (``POST /oauth2/token``) for an access token, once."""
        grant = OAuthGrant(user, secrets.token_urlsafe(16))
        with self._changed:
            self.oauth_grants.append(grant)
        return grant.code

    async def _oauth_token(self, request: web.Request, payload: Any, *_: Any) -> dict[str, Any]:
        """The authorization code grant: client id and secret in the form (or HTTP Basic),
        the code once. Errors are OAuth2's, not Discord's usual shape."""
        form = payload if isinstance(payload, dict) else {}
        client_id, secret = form.get("client_id"), form.get("client_secret")
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client_id, _colon, secret = base64.b64decode(basic[6:]).decode().partition(":")
        if form.get("grant_type") != "authorization_code":
            raise _oauth_error(400, "unsupported_grant_type")
        if client_id != str(self.world.application_id) or secret != self.client_secret:
            raise _oauth_error(401, "invalid_client")
        code = form.get("code")
        grant = next((g for g in self.oauth_grants if g.code == code), None)
        if grant is None or grant.access_token is not None or not code:
            raise _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        with self._changed:
            grant.access_token = secrets.token_urlsafe(24)
        return {
            "access_token": grant.access_token,
            "token_type": "Bearer",
            "expires_in": OAUTH_TOKEN_SECONDS,
            "refresh_token": secrets.token_urlsafe(24),
            "scope": "identify",
        }

    async def _get_instance(
        self, request: web.Request, payload: Any, uploads: list[Upload], app: str, instance: str
    ) -> dict[str, Any]:
        self._check_app(app)
        found = self.activity_instances.get(instance)
        if found is None:
            raise DiscordError(404, "404: Not Found")
        return found.payload()

    async def _upload_attachment(
        self, request: web.Request, payload: Any, uploads: list[Upload], app: str
    ) -> dict[str, Any]:
        """An Activity's upload for the share dialog: one image in the part ``file``, with a
        user's access token (any scope), kept briefly on the CDN."""
        self._check_app(app)
        grant = self._bearer(request)
        if len(uploads) != 1 or not uploads[0].bare:
            self.problem(f"attachment upload: {len(uploads)} files, not one part named file")
            raise invalid_form(["file: exactly one file is expected"])
        upload = uploads[0]
        if len(upload.data) > UPLOAD_LIMIT_BYTES:
            raise DiscordError(413, "Request entity too large", 40005)
        kind = next((k for sig, k in IMAGE_SIGNATURES.items() if upload.data.startswith(sig)), None)
        webp = upload.data[:4] == b"RIFF" and upload.data[8:12] == b"WEBP"
        kind = "image/webp" if webp else kind
        if kind is None:
            raise invalid_form(["file: not an image"])
        attachment = AppAttachment(self.ids(), grant.user, upload.filename, kind, upload.data)
        with self._changed:
            self.app_attachments.append(attachment)
        return {"attachment": attachment.payload()}

    def _check_app(self, app: str) -> None:
        if int(app) != self.world.application_id:
            raise DiscordError(403, "Missing Access", 50001)

    async def _get_commands(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        app: str,
        guild: str | None = None,
    ) -> list[dict[str, Any]]:
        self._check_app(app)
        return copy.deepcopy(self.commands.get(int(guild) if guild else None, []))

    async def _put_commands(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        app: str,
        guild: str | None = None,
    ) -> list[dict[str, Any]]:
        self._check_app(app)
        scope = int(guild) if guild else None
        if scope is not None and scope != self.world.guild_id:
            raise DiscordError(403, "Missing Access", 50001)
        self.command_puts.append((scope, copy.deepcopy(payload)))
        problems = check_commands(payload)
        if problems:
            for text in problems:
                self.problem(f"command registration ({'guild' if scope else 'global'}): {text}")
            raise invalid_form(problems)
        old = {(c.get("type", 1), c["name"]): c["id"] for c in self.commands.get(scope, [])}
        stored = []
        for command in payload:
            kind = command.get("type", 1)
            item = copy.deepcopy(command)
            item.update(
                id=old.get((kind, command["name"])) or str(self.ids()),
                application_id=str(self.world.application_id),
                type=kind,
                version=str(self.ids()),
            )
            item.setdefault("default_member_permissions", None)
            item.setdefault("nsfw", False)
            if scope is not None:
                item["guild_id"] = str(scope)
            stored.append(item)
        with self._changed:
            self.commands[scope] = stored
        return copy.deepcopy(stored)

    # -- interaction callbacks, follow-ups and edits ---------------------------------------

    async def _callback(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        interaction: str,
        token: str,
    ) -> dict[str, Any] | None:
        found = self.interactions.get(int(interaction))
        now = time.monotonic()
        if found is None or found.token != token:
            self.problem(f"callback for unknown interaction {interaction}")
            raise DiscordError(404, "Unknown interaction", 10062)
        if found.answer is not None:
            self.problem(f"{found} was answered twice")
            raise DiscordError(400, "Interaction has already been acknowledged.", 40060)
        elapsed = now - (found.sent_at or now)
        if elapsed > self.answer_deadline:
            limit = self.answer_deadline
            self.problem(f"{found} answered after {elapsed:.2f} s (Discord allows {limit:g} s)")
            raise DiscordError(404, "Unknown interaction", 10062)
        if not isinstance(payload, dict):
            raise invalid_form(["the callback body must be an object"])
        kind = payload.get("type")
        if kind not in ALLOWED_CALLBACKS.get(found.type, set()):
            self.problem(f"{found}: callback type {kind} is not allowed for this interaction")
            raise invalid_form([f"type {kind} not allowed"])
        if kind == LAUNCH_ACTIVITY and not self.activity:
            self.problem(f"{found}: LAUNCH_ACTIVITY from an app without an Activity")
            raise DiscordError(400, "This application has no Activity to launch")
        data = payload.get("data") or {}
        instance = (
            self.start_activity(found.channel, found.user) if kind == LAUNCH_ACTIVITY else None
        )
        message = self._answer_message(found, kind, data, uploads)
        with self._changed:
            found.answer = Answer(kind, data, message.snapshot() if message else None, elapsed)
            TIMINGS.append((found.label, elapsed))
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        result: dict[str, Any] = {
            "interaction": {
                "id": str(found.id),
                "type": found.type,
                "activity_instance_id": instance.id if instance else None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None and kind in (MESSAGE, DEFERRED_MESSAGE, UPDATE_MESSAGE):
            result["resource"] = {
                "type": kind,
                "message": message.api(self),
            }
        elif instance is not None:
            result["resource"] = {"type": kind, "activity_instance": {"id": instance.id}}
        return result

    def _answer_message(
        self, interaction: Interaction, kind: int, data: dict[str, Any], uploads: list[Upload]
    ) -> Message | None:
        if kind == AUTOCOMPLETE_RESULT:
            option_type = _focused_type(interaction, self)
            for text in check_autocomplete(data, option_type):
                self.problem(f"{interaction}: {text}")
            return None
        if kind == LAUNCH_ACTIVITY:
            return None
        if kind == MESSAGE:
            message = self._create(interaction.channel.id, data, uploads, interaction)
            interaction.original = message
            return message
        if kind == DEFERRED_MESSAGE:
            self._refuse_deferred_v2(data, f"{interaction} deferred answer")
            flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL) | _forced_flags(interaction)
            message = Message(self.ids(), interaction.channel.id, self.world.bot, flags=flags)
            message.interaction = interaction
            with self._changed:
                self.messages[message.id] = message
            interaction.original = message
            return message
        source = interaction.source
        assert source is not None
        interaction.original = self.messages.get(source.id)
        if kind == UPDATE_MESSAGE and interaction.original is not None:
            self._edit(interaction.original, data, uploads, what=f"{interaction} update")
        return interaction.original

    def _webhook_interaction(self, app: str, token: str) -> Interaction:
        self._check_app(app)
        for interaction in self.interactions.values():
            if interaction.token == token:
                if interaction.answer is None:
                    self.problem(f"{interaction}: follow-up or edit before any answer")
                    raise DiscordError(404, "Unknown Webhook", 10015)
                age = time.monotonic() - (interaction.sent_at or 0) + interaction.aged
                if age > TOKEN_LIFETIME:
                    self.problem(f"{interaction}: token used after {age:.0f} s (15 minutes)")
                    raise DiscordError(401, "Invalid Webhook Token", 50027)
                return interaction
        self.problem(f"webhook call with an unknown token for application {app}")
        raise DiscordError(404, "Unknown Webhook", 10015)

    def _webhook_message(self, interaction: Interaction, message: str) -> Message:
        if message == "@original":
            found = interaction.original
        else:
            found = self.messages.get(int(message))
            mine = found is not None and (
                found.interaction is interaction or found is interaction.original
            )
            found = found if mine else None
        if found is None or found.deleted:
            raise DiscordError(404, "Unknown Message", 10008)
        return found

    async def _followup(
        self, request: web.Request, payload: Any, uploads: list[Upload], app: str, token: str
    ) -> dict[str, Any] | None:
        interaction = self._webhook_interaction(app, token)
        owners = interaction.payload.get("authorizing_integration_owners") or {}
        if owners.get("0", "0") == "0" and len(interaction.followups) >= FOLLOWUP_CAP:
            self.problem(
                f"{interaction}: more than {FOLLOWUP_CAP} follow-ups outside the app's servers"
            )
            raise DiscordError(400, "Maximum number of follow-up messages reached", 40094)
        original = interaction.original
        loading = original is not None and original.flags & LOADING and not original.deleted
        if original is not None and loading and not original.payloads:
            # The first follow-up after a deferred answer replaces the "thinking" message.
            self._refuse_deferred_v2(payload, f"{interaction} first follow-up")
            self._edit(original, payload, uploads, what=f"{interaction} follow-up")
            original.flags &= ~LOADING
            message = original
        else:
            message = self._create(interaction.channel.id, payload, uploads, interaction)
        with self._changed:
            interaction.followups.append(message.snapshot())
        if request.query.get("wait") in ("1", "true", "True"):
            return message.api(self)
        return None

    async def _get_webhook_message(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        app: str,
        token: str,
        message: str,
    ) -> dict[str, Any]:
        interaction = self._webhook_interaction(app, token)
        found = self._webhook_message(interaction, message)
        return found.api(self)

    async def _edit_webhook_message(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        app: str,
        token: str,
        message: str,
    ) -> dict[str, Any]:
        interaction = self._webhook_interaction(app, token)
        found = self._webhook_message(interaction, message)
        self._edit(found, payload, uploads, what=f"{interaction} edit")
        found.flags &= ~LOADING
        return found.api(self)

    async def _delete_webhook_message(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        app: str,
        token: str,
        message: str,
    ) -> None:
        interaction = self._webhook_interaction(app, token)
        self._webhook_message(interaction, message).deleted = True

    # -- channel messages --------------------------------------------------------------------

    def _channel(self, channel: str) -> Channel | Thread:
        found = self.channel_by_id(int(channel))
        if isinstance(found, Place) and not found.bot_dm:
            self.problem(f"the bot acted by itself in {found.name} {found.id}, where it is not")
            raise DiscordError(403, "Missing Access", 50001)
        if found is None or isinstance(found, Place):
            raise DiscordError(404, "Unknown Channel", 10003)
        return found

    def _channel_message(self, channel: str, message: str) -> Message:
        place = self._channel(channel)
        found = self.messages.get(int(message))
        if found is None or found.deleted or found.channel_id != place.id or found.ephemeral:
            raise DiscordError(404, "Unknown Message", 10008)
        return found

    async def _create_dm(self, request: web.Request, payload: Any, *_: Any) -> dict[str, Any]:
        """Create DM: the DM channel with ``recipient_id``, the same one every time; an unknown
        user is refused (400, Invalid Recipient). Creating it succeeds even if the user takes
        no DMs: only a message there is refused."""
        recipient = payload.get("recipient_id") if isinstance(payload, dict) else None
        if not isinstance(recipient, str | int) or not str(recipient).isdigit():
            raise invalid_form(["recipient_id: a snowflake is required"])
        user = self.world.user(int(recipient))
        if user is None or user.bot:
            raise DiscordError(400, "Invalid Recipient(s)", 50033)
        with self._changed:
            channel_id = self.direct_channels.setdefault(user.id, self.ids())
        return {
            "id": str(channel_id),
            "type": 1,  # DM
            "last_message_id": None,
            "flags": 0,
            "recipients": [user.payload()],
        }

    def close_dms(self, user: User) -> None:
        """``user`` takes no direct messages from now on."""
        with self._changed:
            self.closed_dms.add(user.id)

    def direct_messages(self, user: User) -> list[Message]:
        """The bot's direct messages to ``user``, oldest first."""
        channel_id = self.direct_channels.get(user.id)
        with self._changed:
            return [m for m in self.messages.values() if m.channel_id == channel_id]

    async def _post_direct_message(
        self, user_id: int, channel_id: int, payload: Any, uploads: list[Upload]
    ) -> dict[str, Any]:
        """A message in a DM channel: refused (403, 50007) for a user who closed their DMs or
        shares no server with the bot any more; ``enforce_nonce`` as in any channel."""
        if user_id in self.closed_dms or user_id in self.world.departed:
            raise DiscordError(403, "Cannot send messages to this user", 50007)
        repeated = self._same_nonce(channel_id, payload)
        if repeated is not None:
            return repeated.api(self)
        message = self._create(channel_id, payload, uploads, None)
        if isinstance(payload, dict) and payload.get("enforce_nonce"):
            message.nonce = str(payload.get("nonce"))
        return message.api(self)

    async def _post_channel_message(
        self, request: web.Request, payload: Any, uploads: list[Upload], channel: str
    ) -> dict[str, Any]:
        direct = {c: u for u, c in self.direct_channels.items()}.get(int(channel))
        if direct is not None:
            return await self._post_direct_message(direct, int(channel), payload, uploads)
        place = self._channel(channel)
        content = payload.get("content") if isinstance(payload, dict) else None
        outage = self.unavailable_for
        if outage is not None and isinstance(content, str) and outage(content):
            with self._changed:
                self.unavailable.append(content)
            raise DiscordError(503, "Service Unavailable")
        repeated = self._same_nonce(place.id, payload)
        if repeated is not None:
            return repeated.api(self)
        message = self._create(place.id, payload, uploads, None)
        if isinstance(payload, dict) and payload.get("enforce_nonce"):
            message.nonce = str(payload.get("nonce"))
        return message.api(self)

    def _same_nonce(self, channel_id: int, payload: Any) -> Message | None:
        """Discord's ``enforce_nonce``: a message the bot posted in this channel a few minutes
        ago with the same nonce is returned again instead of a new one."""
        if not isinstance(payload, dict) or not payload.get("enforce_nonce"):
            return None
        nonce = str(payload.get("nonce"))
        recent = time.time() - NONCE_MINUTES * 60
        for message in self.messages.values():
            same = message.channel_id == channel_id and message.nonce == nonce
            if same and message.created >= recent and not message.deleted:
                self.repeated_nonces.append(nonce)
                return message
        return None

    async def _get_channel_messages(
        self, request: web.Request, payload: Any, uploads: list[Upload], channel: str
    ) -> list[dict[str, Any]]:
        """Get Channel Messages: the latest ``limit`` (1 to 100, default 50), newest first,
        ``before`` or ``after`` a message id (at most one of ``around``/``before``/``after``);
        nothing without Read Message History."""
        place = self._channel(channel)
        query = request.query
        anchors = [key for key in ("around", "before", "after") if key in query]
        if len(anchors) > 1:
            self.problem(f"messages of {place.id} read with {anchors} at once")
            raise invalid_form(["around, before and after are mutually exclusive"])
        if "around" in query:
            self.problem("the fake does not serve ``around``; teach it before using it")
            raise invalid_form(["around: not supported by the fake"])
        limit = query.get("limit", "50")
        if not limit.isdigit() or not 1 <= int(limit) <= 100:
            self.problem(f"messages read with limit={limit!r} (Discord allows 1 to 100)")
            raise invalid_form(["limit: must be 1 to 100"])
        if not self.world.bot_permissions & READ_MESSAGE_HISTORY:
            return []
        before = int(query.get("before", 0)) or None
        after = int(query.get("after", 0))
        with self._changed:
            found = [
                m
                for m in self.messages.values()
                if m.channel_id == place.id
                and not m.ephemeral
                and not m.deleted
                and (before is None or m.id < before)
                and m.id > after
            ]
            found.sort(key=lambda m: m.id, reverse=True)
            return [m.api(self) for m in found[: int(limit)]]

    async def _get_channel_message(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        channel: str,
        message: str,
    ) -> dict[str, Any]:
        return self._channel_message(channel, message).api(self)

    async def _edit_channel_message(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        channel: str,
        message: str,
    ) -> dict[str, Any]:
        found = self._channel_message(channel, message)
        if found.author != self.world.bot:
            raise DiscordError(403, "Cannot edit a message authored by another user", 50005)
        self._edit(found, payload, uploads, what=f"channel edit of message {found.id}")
        return found.api(self)

    # -- building and editing messages -------------------------------------------------------

    def _check_payload(
        self, payload: Any, uploads: list[Upload], *, creating: bool, what: str
    ) -> dict[str, Any]:
        if not isinstance(payload, dict):
            self.problem(f"{what}: the message body must be an object")
            raise invalid_form(["the body must be an object"])
        problems = check_message(payload, creating=creating, files=len(uploads))
        problems += check_allowed_mentions(payload, required=creating or "content" in payload)
        if problems:
            for text in problems:
                self.problem(f"{what}: {text}")
            raise invalid_form(problems)
        return payload

    def _create(
        self,
        channel_id: int,
        payload: Any,
        uploads: list[Upload],
        interaction: Interaction | None,
    ) -> Message:
        what = f"{interaction} answer" if interaction else f"message in channel {channel_id}"
        payload = self._check_payload(payload, uploads, creating=True, what=what)
        self._thread_activity(channel_id, interaction)
        self._check_v2(payload, was_v2=False, what=what)
        message = Message(self.ids(), channel_id, self.world.bot, interaction=interaction)
        self._apply(message, payload, uploads, what=what)
        message.flags |= _forced_flags(interaction)
        message.pinged = frozenset(self._pings(payload, what))
        with self._changed:
            self.messages[message.id] = message
        return message

    def _edit(self, message: Message, payload: Any, uploads: list[Upload], *, what: str) -> None:
        payload = self._check_payload(payload, uploads, creating=False, what=what)
        self._check_v2(payload, was_v2=bool(message.flags & COMPONENTS_V2), what=what)
        self._apply(message, payload, uploads, what=what)
        message.edited = True
        self._notify()

    def _apply(
        self, message: Message, payload: dict[str, Any], uploads: list[Upload], *, what: str
    ) -> None:
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in payload:
                setattr(message, key, payload[key] if payload[key] is not None else _empty(key))
        if "flags" in payload and not message.payloads:
            # A deferred answer already fixed whether the message is ephemeral.
            message.flags = (payload["flags"] or 0) | (message.flags & EPHEMERAL)
        message.flags |= (payload.get("flags") or 0) & COMPONENTS_V2  # an edit may switch it on
        message.attachments = self._attachments(message, payload, uploads, what=what)
        for name in attachment_references(message.embeds):
            if not any(a.filename == name for a in message.attachments):
                self.problem(f"{what}: an embed shows attachment://{name}, which is not attached")
        for name in v2_attachment_references(message.components):
            if not any(a.filename == name for a in message.attachments):
                self.problem(f"{what}: a component shows attachment://{name}, not attached")
        message.payloads.append(copy.deepcopy(payload))

    def _attachments(
        self, message: Message, payload: dict[str, Any], uploads: list[Upload], *, what: str
    ) -> list[Attachment]:
        by_index = {u.index: u for u in uploads}
        listed = payload.get("attachments")
        if listed is None:
            kept = list(message.attachments)
            details: dict[int, dict[str, Any]] = {}
        else:
            existing = {a.id: a for a in message.attachments}
            kept = [existing[int(a["id"])] for a in listed if int(a["id"]) in existing]
            details = {int(a["id"]): a for a in listed if int(a["id"]) in by_index}
            unknown = [a["id"] for a in listed if int(a["id"]) not in existing | by_index]
            if unknown:
                self.problem(f"{what}: attachments {unknown} match no upload or existing file")
        for index, upload in sorted(by_index.items()):
            info = details.get(index, {})
            filename = info.get("filename") or upload.filename
            kind = upload.content_type
            if kind in (None, "application/octet-stream"):
                kind = mimetypes.guess_type(filename)[0] or kind
            kept.append(
                Attachment(self.ids(), filename, upload.data, kind, info.get("description"))
            )
        return kept

    def _pings(self, payload: dict[str, Any], what: str) -> set[int]:
        """The people a new message notifies, following its allowed_mentions. A ping of
        @everyone, @here or a role is recorded as a problem (allowed_mentions should make it
        impossible, whatever names users give themselves)."""
        content = payload.get("content") or ""
        rules = payload.get("allowed_mentions")
        parse = rules.get("parse", []) if rules is not None else ["users", "roles", "everyone"]
        if "everyone" in parse and ("@everyone" in content or "@here" in content):
            self.problem(f"{what}: the message pings @everyone/@here")
        roles = set(re.findall(r"<@&(\d+)>", content))
        if roles and ("roles" in parse or roles & set((rules or {}).get("roles") or [])):
            self.problem(f"{what}: the message pings roles {sorted(roles)}")
        mentioned = {int(i) for i in re.findall(r"<@!?(\d+)>", content)}
        if rules is None or "users" in parse:
            allowed = mentioned
        else:
            allowed = mentioned & {int(u) for u in rules.get("users") or []}
        return {uid for uid in allowed if self.world.user(uid) is not None}

    # -- threads ---------------------------------------------------------------------

    def _thread_routes(self) -> list[tuple[str, str, Any, bool]]:
        return [
            ("POST", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/threads",
             self._start_thread, True),
            ("PATCH", r"/channels/(?P<channel>\d+)", self._modify_thread, True),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member, True),
        ]  # fmt: skip

    async def _start_thread(
        self,
        request: web.Request,
        payload: Any,
        uploads: list[Upload],
        channel: str,
        message: str,
    ) -> dict[str, Any]:
        """Start Thread from Message: a public thread, which the gateway announces."""
        place = self._channel(channel)
        if isinstance(place, Thread):
            raise DiscordError(400, "Cannot start a thread in a thread", 50024)
        starter = self._channel_message(channel, message)
        if not self.world.bot_permissions & CREATE_PUBLIC_THREADS:
            self.problem(f"thread started in channel {place.id} without Create Public Threads")
            raise DiscordError(403, "Missing Permissions", 50013)
        if any(t.starter_message_id == starter.id for t in self.world.threads.values()):
            raise DiscordError(400, "A thread has already been created for this message", 160004)
        name = (payload or {}).get("name") or ""
        if not 1 <= len(name) <= 100:
            self.problem(f"thread name of {len(name)} characters (Discord allows 1 to 100)")
            raise invalid_form(["name: must be 1 to 100 characters"])
        duration = payload.get("auto_archive_duration", 4320)
        if duration not in (60, 1440, 4320, 10080):
            self.problem(f"thread auto_archive_duration {duration!r}")
            raise invalid_form(["auto_archive_duration: not one of 60, 1440, 4320, 10080"])
        thread = Thread(
            self.ids(), name, place.id, self.world.guild_id, self.world.bot.id, starter.id,
            auto_archive_duration=duration,
        )  # fmt: skip
        with self._changed:
            self.world.threads[thread.id] = thread
        await self._dispatch_thread("THREAD_CREATE", thread, newly_created=True)
        return thread.payload()

    async def _modify_thread(
        self, request: web.Request, payload: Any, uploads: list[Upload], channel: str
    ) -> dict[str, Any]:
        """Modify Channel, for a thread: its name, archived, locked, auto-archive duration."""
        thread = self.world.threads.get(int(channel))
        if thread is None:
            self.problem(f"PATCH of channel {channel}, which is not a thread the fake knows")
            raise DiscordError(404, "Unknown Channel", 10003)
        changes = dict(payload or {})
        unknown = set(changes) - {"name", "archived", "locked", "auto_archive_duration"}
        if unknown:
            self.problem(f"thread {thread.id}: unexpected fields {sorted(unknown)}")
            raise invalid_form([f"unexpected fields {sorted(unknown)}"])
        owner = thread.owner_id == self.world.bot.id
        if not owner and not self.world.bot_permissions & MANAGE_THREADS:
            raise DiscordError(403, "Missing Permissions", 50013)
        if thread.archived and changes.get("archived") is not False:
            raise DiscordError(400, "Thread is archived", 50083)
        if "name" in changes and not 1 <= len(changes["name"] or "") <= 100:
            self.problem(f"thread {thread.id} renamed to {len(changes['name'] or '')} characters")
            raise invalid_form(["name: must be 1 to 100 characters"])
        with self._changed:
            thread.name = changes.get("name", thread.name)
            thread.locked = changes.get("locked", thread.locked)
            duration = changes.get("auto_archive_duration", thread.auto_archive_duration)
            thread.auto_archive_duration = duration
            if "archived" in changes and changes["archived"] != thread.archived:
                thread.archived, thread.archived_at = bool(changes["archived"]), time.time()
        await self._dispatch_thread("THREAD_UPDATE", thread)
        return thread.payload()

    async def _get_member(
        self, request: web.Request, payload: Any, uploads: list[Upload], guild: str, user: str
    ) -> dict[str, Any]:
        """Get Guild Member: 404 Unknown Member for someone who left."""
        found = self.world.user(int(user))
        if int(guild) != self.world.guild_id or found is None or found.id in self.world.departed:
            raise DiscordError(404, "Unknown Member", 10007)
        return self.world.member(found)

    async def _dispatch_thread(self, event: str, thread: Thread, **extra: Any) -> None:
        session = self.session_for(thread.guild_id)
        if session is not None:
            await session.dispatch(event, thread.payload() | extra)

    def _thread_activity(self, channel_id: int, interaction: Interaction | None) -> None:
        """A message in a thread: the bot needs Send Messages in Threads for its own posts, and
        a message unarchives an archived thread (Discord announces it)."""
        thread = self.world.threads.get(channel_id)
        if thread is None:
            return
        if interaction is None and not self.world.bot_permissions & SEND_MESSAGES_IN_THREADS:
            self.problem(f"message in thread {thread.id} without Send Messages in Threads")
            raise DiscordError(403, "Missing Permissions", 50013)
        if thread.locked:
            raise DiscordError(403, "Thread is locked", 50083)
        if thread.archived:
            with self._changed:
                thread.archived, thread.archived_at = False, time.time()
            task = asyncio.ensure_future(self._dispatch_thread("THREAD_UPDATE", thread))
            self._thread_events.add(task)
            task.add_done_callback(self._thread_events.discard)

    def delete_thread(self, thread: Thread) -> None:
        """A moderator deletes the thread: it is gone, and the gateway says so."""

        async def delete() -> None:
            with self._changed:
                del self.world.threads[thread.id]
            session = self.session_for(thread.guild_id)
            assert session is not None, "the bot never connected to the gateway"
            await session.dispatch(
                "THREAD_DELETE",
                {"id": str(thread.id), "guild_id": str(thread.guild_id),
                 "parent_id": str(thread.parent_id), "type": 11},
            )  # fmt: skip

        self._run(delete())

    def archive_thread(self, thread: Thread) -> None:
        """Discord archives the thread (its auto-archive time passed)."""

        async def archive() -> None:
            with self._changed:
                thread.archived, thread.archived_at = True, time.time()
            await self._dispatch_thread("THREAD_UPDATE", thread)

        self._run(archive())

    def threads_of(self, channel: Channel | Thread) -> list[Thread]:
        """The threads started in ``channel``, oldest first."""
        with self._changed:
            found = [t for t in self.world.threads.values() if t.parent_id == channel.id]
        return sorted(found, key=lambda t: t.id)

    def wait_threads(
        self, channel: Channel | Thread, count: int, timeout: float = 20.0
    ) -> list[Thread]:
        """Until ``channel`` has ``count`` threads; returns them."""
        what = f"{count} thread(s) in channel {channel.name}"
        self.wait_until(lambda: len(self.threads_of(channel)) >= count, timeout, what)
        return self.threads_of(channel)

    # -- Components V2 -------------------------------------------------------------------------

    def _check_v2(self, payload: dict[str, Any], *, was_v2: bool, what: str) -> None:
        """Discord's rules for IS_COMPONENTS_V2 messages (see ``check_components_v2``)."""
        problems = check_components_v2(payload, was_v2=was_v2)
        if problems:
            for text in problems:
                self.problem(f"{what}: {text}")
            raise invalid_form(problems)

    def _refuse_deferred_v2(self, payload: dict[str, Any], what: str) -> None:
        """A deferred answer (and the follow-up that fills it in) cannot carry V2 components:
        a bot edits the original response instead."""
        if (payload.get("flags") or 0) & COMPONENTS_V2:
            text = "a deferred response cannot use IS_COMPONENTS_V2; edit the original response"
            self.problem(f"{what}: {text}")
            raise invalid_form([text])

    # -- reading what happened ----------------------------------------------------------------

    def channel_messages(self, channel: Channel | Thread | Place) -> list[Message]:
        """Every visible message in a channel, oldest first (ephemeral ones excluded)."""
        with self._changed:
            return [
                m
                for m in self.messages.values()
                if m.channel_id == channel.id and not m.ephemeral and not m.deleted
            ]

    def message(self, message_id: int) -> Message:
        """A message as it is now (a snapshot)."""
        with self._changed:
            return self.messages[message_id].snapshot()

    def requests_to(self, method: str, pattern: str) -> list[Request]:
        """The bot's REST calls with this method whose path matches the regex ``pattern``."""
        with self._changed:
            return [
                r for r in self.requests if r.method == method and re.fullmatch(pattern, r.path)
            ]


def _valid_shard(shard: object) -> bool:
    """Whether IDENTIFY's ``shard`` is ``[shard_id, shard_count]`` with the id below the count."""
    if not isinstance(shard, list) or len(shard) != 2:
        return False
    shard_id, count = shard
    return isinstance(shard_id, int) and isinstance(count, int) and 0 <= shard_id < count


def _forced_flags(interaction: Interaction | None) -> int:
    """Discord makes the app's answers private where a server turned off external apps."""
    place = interaction.channel if interaction else None
    return EPHEMERAL if isinstance(place, Place) and not place.external_apps else 0


def _owners_of(message: Message) -> dict[str, str] | None:
    """A component press carries the owners of the interaction that made the message, so
    anyone who sees it may press it without installing the app."""
    made_by = message.interaction
    if made_by is None:
        return None
    owners = made_by.payload.get("authorizing_integration_owners")
    return dict(owners) if owners else None


def _empty(key: str) -> Any:
    return "" if key == "content" else ([] if key != "allowed_mentions" else None)


def _focused_type(interaction: Interaction, fake: FakeDiscord) -> int:
    options = interaction.payload["data"].get("options", [])
    while options and options[0]["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
        options = options[0].get("options", [])
    focused = next((o for o in options if o.get("focused")), None)
    if focused is None:
        fake.problem(f"{interaction}: autocomplete without a focused option")
        return 3
    kind: int = focused["type"]
    return kind


def _oauth_error(status: int, error: str, description: str | None = None) -> DiscordError:
    """An OAuth2 error answer (RFC 6749): ``error`` and its description, no Discord code."""
    failure = DiscordError(status, error)
    failure.body = {"error": error, **({"error_description": description} if description else {})}
    return failure


def _json_response(
    body: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with the bare ``application/json`` content type Discord sends (discord.py parses
    a body as JSON only for exactly that header)."""
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _rate_limit_headers(path: str) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": f"fake-{abs(hash(path.split('/')[1])) % 10**8}",
    }


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON or multipart/form-data (``payload_json`` plus ``files[n]``) into (payload, files)."""
    if not request.can_read_body:
        return None, []
    if request.content_type == "application/json":
        return json.loads(await request.text()), []
    if request.content_type == "application/x-www-form-urlencoded":  # OAuth2's token exchange
        return dict(await request.post()), []
    if request.content_type != "multipart/form-data":
        raise ValueError(f"unexpected content type {request.content_type}")
    payload: Any = None
    uploads: list[Upload] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        # Discord sends flat parts: a nested multipart body is not a request it would accept.
        assert isinstance(part, BodyPartReader), "a nested multipart body"
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(await part.text())
        elif name == "file":  # an app's attachment upload names its one part so
            data = bytes(await part.read())
            kind = part.headers.get("Content-Type")
            uploads.append(Upload(0, part.filename or "", kind, data, bare=True))
        elif (found := re.fullmatch(r"files\[(\d+)\]", name)) is not None:
            data = bytes(await part.read())
            kind = part.headers.get("Content-Type")
            uploads.append(Upload(int(found[1]), part.filename or "", kind, data))
        else:
            raise ValueError(f"unexpected form field {name!r}")
    return payload, uploads
