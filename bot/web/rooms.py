"""The sockets watching each game. A game watched by many has one feed subscription, one read
of the game per change and one serialisation per kind of viewer (White, Black, spectators),
sent to every socket; the number watching goes to the page and to the service's spectator
counts at most once a second per game.

A change is written at once to every socket whose connection has room, in turns of a few dozen
sockets with short pauses between, in which the rest of the bot goes on; a socket that is
behind gets its frames from a sender of its own, which keeps only the newest frame of each
kind: it never holds the others back, and what waits for it does not grow."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from types import TracebackType
from typing import Protocol

import aiohttp
from aiohttp import web

from bot.jarmo.position import Side
from bot.service.watching import WatchedGame
from bot.web.game_json import game_json

log = logging.getLogger(__name__)
WATCHERS_INTERVAL_SECONDS = 1.0  # the count goes out at most this often per game
# Counts older than two minutes read as nobody watching: a game watched for long is told again.
COUNT_REFRESH_SECONDS = 60.0
SEND_TIMEOUT_SECONDS = 10.0  # a socket that takes longer to accept a frame is closed
# A change goes to this many sockets (about half a millisecond of writing) at a time, with a
# pause between: a move elsewhere, whose steps wait on its database thread, goes on in the
# pauses instead of waiting for every socket. 500 pages get a change some 20 ms later for it.
SOCKETS_PER_TURN = 50
PAUSE_SECONDS = 0.002


class Change(Protocol):
    """A stored change of a game (``service.feed``'s ``GameChange``)."""

    @property
    def version(self) -> int: ...


class Subscription(Protocol):
    """The changes of one game, newest first coalesced, until the ``with`` block ends."""

    def __enter__(self) -> Subscription: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool | None: ...

    async def next(self) -> Change: ...


class Feed(Protocol):
    """``service.feed``: changes of stored games."""

    def subscribe(self, game_id: int) -> Subscription: ...


class Spectators(Protocol):
    """``service.spectators``: the counts the board messages show."""

    async def report(self, game_id: int, watching: int) -> None: ...


@dataclass(eq=False)
class Viewer:
    """One open page: its socket, the connection under it and the side its user plays
    (``None``: a spectator)."""

    socket: web.WebSocketResponse
    you: Side | None
    connection: asyncio.WriteTransport | None = None
    shown: bool = False  # whether it has its first state (nothing else comes before it)
    # Frames the socket has not taken yet, the newest of each kind ("state", "watchers"), in
    # the order they are to go, and the task sending them.
    behind: dict[str, bytes] = field(default_factory=dict)
    catching_up: asyncio.Task[None] | None = None

    def takes_at_once(self, frame: bytes) -> bool:
        """Whether ``frame`` can be written now without waiting. aiohttp waits for a
        connection to drain only once it has paused writing, which it does only when its
        buffer goes over the high-water mark: with nothing buffered and a frame below the mark,
        the write completes without waiting (the socket does not compress)."""
        connection = self.connection
        return (
            self.catching_up is None
            and connection is not None
            and connection.get_write_buffer_size() == 0
            and len(frame) < connection.get_write_buffer_limits()[1]
        )


class NotShown(Exception):
    """The game may be shown no more (its server turned watching off): its pages close with
    ``code``, which the page puts into words."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


class Room:
    """Everyone watching one game."""

    def __init__(
        self,
        game_id: int,
        feed: Feed,
        spectators: Spectators,
        snapshot: Callable[[int], Awaitable[WatchedGame]],
    ) -> None:
        self.game_id = game_id
        self._feed = feed
        self._spectators = spectators
        self._snapshot = snapshot
        self.viewers: set[Viewer] = set()
        self._count_due = asyncio.Event()
        self._sent_count = -1
        self._tasks = [
            asyncio.create_task(self._follow(), name=f"live board {game_id}"),
            asyncio.create_task(self._count(), name=f"live board watchers {game_id}"),
        ]
        self._subscribed = asyncio.Event()
        self._latest: WatchedGame | None = None  # the newest read since the room subscribed
        self._changing = asyncio.Lock()  # held while a change goes out, and a first state
        self._reading = asyncio.Lock()
        self._closed = False
        self._sending: set[asyncio.Task[None]] = set()  # to sockets that are behind

    async def current(self) -> WatchedGame:
        """The game as it is now: read once for everyone who joins between two changes."""
        await self._subscribed.wait()
        async with self._reading:  # pages that come together wait for the one read
            if self._latest is None:
                self._keep(await self._snapshot(self.game_id))
        assert self._latest is not None
        return self._latest

    def _keep(self, game: WatchedGame) -> None:
        if self._latest is None or game.version >= self._latest.version:
            self._latest = game

    def join(self, viewer: Viewer) -> None:
        """Hold the room open for ``viewer``, who gets nothing before :meth:`show`."""
        self.viewers.add(viewer)

    async def show(self, viewer: Viewer) -> None:
        """Send a viewer who joined its first state, then everything that follows; under the
        lock of the changes, so that no older state can come after a newer one."""
        async with self._changing:
            frame = self.state_frame(await self.current(), viewer.you).encode()
            await self._deliver(viewer, "state", frame)
            viewer.shown = True
        self._count_due.set()

    def leave(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)
        self._count_due.set()

    async def close(self) -> None:
        """Stop following the game, and tell the service nobody watches it here any more."""
        # A socket's close may swallow the cancellation of a task sending to it: the loops
        # also stop by themselves once the room is closed.
        self._closed = True
        self._count_due.set()
        tasks = self._tasks + list(self._sending)
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=SEND_TIMEOUT_SECONDS)
        try:
            await self._spectators.report(self.game_id, 0)
        except Exception:
            log.exception("could not report that game %d has no watchers", self.game_id)

    def state_frame(self, game: WatchedGame, you: Side | None) -> str:
        """The state frame for one viewer."""
        return json.dumps(
            {"type": "state", "game": game_json(game, you=you, watchers=len(self.viewers))}
        )

    async def _follow(self) -> None:
        with self._feed.subscribe(self.game_id) as changes:
            self._subscribed.set()
            while not self._closed:
                await changes.next()
                async with self._changing:
                    await self._send_change()

    async def _send_change(self) -> None:
        try:
            game = await self._snapshot(self.game_id)
        except NotShown as hidden:
            self._latest = None
            await asyncio.gather(
                *(
                    viewer.socket.close(code=hidden.code, message=hidden.reason.encode())
                    for viewer in self.viewers
                ),
                return_exceptions=True,
            )
            return
        except Exception:
            self._latest = None  # read again by the next to join
            log.exception("could not read game %d for its live board", self.game_id)
            return
        self._keep(game)
        frames: dict[Side | None, bytes] = {}
        for viewer in self._shown():
            if viewer.you not in frames:
                frames[viewer.you] = self.state_frame(game, viewer.you).encode()
        await self._send_all("state", frames)

    def _shown(self) -> list[Viewer]:
        return [viewer for viewer in self.viewers if viewer.shown]

    async def _count(self) -> None:
        while not self._closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._count_due.wait(), COUNT_REFRESH_SECONDS)
            self._count_due.clear()
            if self._closed:
                return
            count = len(self.viewers)
            if count != self._sent_count:
                self._sent_count = count
                frame = json.dumps({"type": "watchers", "count": count}).encode()
                await self._send_all("watchers", frame)
            try:
                await self._spectators.report(self.game_id, count)
            except Exception:
                log.exception("could not report the watchers of game %d", self.game_id)
            await asyncio.sleep(WATCHERS_INTERVAL_SECONDS)  # a rate limit, not a wait for work

    async def _send_all(self, kind: str, frame: bytes | dict[Side | None, bytes]) -> None:
        """Send every viewer shown the frame of ``kind`` (one for all, or one per side they
        play); other work runs between turns of :data:`SOCKETS_PER_TURN` sockets, so that a
        move elsewhere does not wait for them all."""
        for index, viewer in enumerate(self._shown()):
            if index and not index % SOCKETS_PER_TURN:
                await asyncio.sleep(PAUSE_SECONDS)  # not a wait for work: room for the rest
            await self._deliver(
                viewer, kind, frame if isinstance(frame, bytes) else frame[viewer.you]
            )

    async def _deliver(self, viewer: Viewer, kind: str, frame: bytes) -> None:
        """Write ``frame`` (a text frame's UTF-8) to ``viewer`` now if its connection has room
        (this does not wait, see :meth:`Viewer.takes_at_once`); otherwise it replaces any frame
        of its kind still waiting for that socket, and the socket's own sender takes it."""
        socket = viewer.socket
        if socket.closed:
            return
        if viewer.takes_at_once(frame):
            try:
                await socket.send_frame(frame, aiohttp.WSMsgType.TEXT)
            except (ConnectionError, RuntimeError):
                self._in_background(_hang_up(socket))
            return
        viewer.behind.pop(kind, None)
        viewer.behind[kind] = frame
        if viewer.catching_up is None:
            viewer.catching_up = self._in_background(self._catch_up(viewer))

    async def _catch_up(self, viewer: Viewer) -> None:
        """Send a socket that is behind what waits for it, in order, each within the time."""
        try:
            while viewer.behind and not viewer.socket.closed:
                kind = next(iter(viewer.behind))
                await send(viewer.socket, viewer.behind.pop(kind))
        finally:
            viewer.behind.clear()
            viewer.catching_up = None

    def _in_background(self, work: Coroutine[None, None, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work, name=f"live board {self.game_id} sends")
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return task


async def send(socket: web.WebSocketResponse, frame: str | bytes) -> None:
    """Send ``frame`` (text, or a text frame's UTF-8); a socket that is gone or does not take
    it in time is closed."""
    if socket.closed:
        return
    data = frame.encode() if isinstance(frame, str) else frame
    try:
        await asyncio.wait_for(
            socket.send_frame(data, aiohttp.WSMsgType.TEXT), SEND_TIMEOUT_SECONDS
        )
    except (ConnectionError, TimeoutError, RuntimeError):
        await _hang_up(socket)


async def _hang_up(socket: web.WebSocketResponse) -> None:
    with contextlib.suppress(Exception):
        await socket.close()


class Rooms:
    """The rooms of every watched game in this process."""

    def __init__(
        self,
        feed: Feed,
        spectators: Spectators,
        snapshot: Callable[[int], Awaitable[WatchedGame]],
    ) -> None:
        self._feed = feed
        self._spectators = spectators
        self._snapshot = snapshot
        self._rooms: dict[int, Room] = {}
        self._closing: set[asyncio.Task[None]] = set()

    def __getitem__(self, game_id: int) -> Room:
        return self._rooms[game_id]

    def enter(self, game_id: int, viewer: Viewer) -> Room:
        """The game's room with ``viewer`` in it (opened for the first viewer)."""
        room = self._rooms.get(game_id)
        if room is None:
            room = self._rooms[game_id] = Room(
                game_id, self._feed, self._spectators, self._snapshot
            )
        room.join(viewer)
        return room

    def leave(self, room: Room, viewer: Viewer) -> None:
        """``viewer`` left; the last one out closes the room. The closing runs on its own:
        the server cancels the handler of a socket that went away, and the room must close
        all the same."""
        room.leave(viewer)
        if not room.viewers and self._rooms.get(room.game_id) is room:
            del self._rooms[room.game_id]
            closing = asyncio.create_task(room.close(), name=f"live board {room.game_id} closes")
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def hang_up(self) -> None:
        """Close every page's socket (the server stops: it waits for no page to go)."""
        sockets = [viewer.socket for room in self._rooms.values() for viewer in room.viewers]
        await asyncio.gather(
            *(socket.close(code=aiohttp.WSCloseCode.GOING_AWAY) for socket in sockets),
            return_exceptions=True,
        )

    async def close(self) -> None:
        """Close every room (the server stops)."""
        rooms, self._rooms = list(self._rooms.values()), {}
        for room in rooms:
            await room.close()
        if self._closing:
            await asyncio.wait(self._closing, timeout=SEND_TIMEOUT_SECONDS)
