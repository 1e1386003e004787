"""Many spectators on one game's live board: how long a move takes to reach every page, and
what the fan-out costs the bot's moves in other games.

Run: ``python bench/watchers.py [--watchers 500] [--moves 20] [--runs 3] [--pages-nice 0]
[--web-process [--database-url postgresql://...]]``. Everything is on this machine: the real
web application on 127.0.0.1, a real store, and ``--watchers`` WebSocket pages in a process of
their own (as browsers would be; like browsers, they offer to compress frames). By default the
board runs in this process beside the moves, on a temporary SQLite file, as ``[web] enabled``
runs it in the bot's; ``--web-process`` runs it in a process of its own on PostgreSQL (a
private server started here, or ``--database-url``), as ``jarmo-bot web`` runs beside the bots.

Each run makes ``--moves`` moves on the watched game; while each one reaches the pages,
``ELSEWHERE`` moves are played in other games, chosen beforehand and made back to back from the
watched move's commit on. The same is done once with nobody watching. Prints the median and
p99 delivery latency over all pages (from the move's commit to a page's receipt of the new
state), and the median and the mean time of the moves elsewhere without and with the watchers
(each the median over the runs) and their ratios: the median is a typical move, the mean also
counts the one move in a few that waits for a whole fan-out. Both are given for the move alone
(the service's use case) and with its board picture, as the bot answers ``/jarmo move``
(Discord's round trip, the rest of a real answer, is left out). ``--pages-nice`` lowers the
pages' priority: browsers are not on the bot's machine, and on a busy one the pages' own work
otherwise takes the bot's share of the CPU too. Bounded: at most 2000 watchers and 200 moves,
and no wait longer than 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp

from bot.config import BotConfig, WebConfig
from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.store import open_any
from bot.web.app import WebSettings, bound_port, create_web_app, start_web_server
from bot.web.serve import start_live_board
from bot.web.tokens import sign_watch_token

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # PostgreSQL helper

MAX_WATCHERS = 2000
MAX_MOVES = 200
WAIT_SECONDS = 30.0
SECRET = b"b" * 32


async def _new_game(service: JarmoService, channel: int) -> tuple[Place, dict[int, Actor]]:
    place = Place(1, channel)
    ann, bob = Actor(10 * channel + 1, "Ann"), Actor(10 * channel + 2, "Bob")
    view = await service.challenges.post(place, ann, ChallengeRequest(bob, side="white"))
    await service.challenges.accept(bob, view.challenge.id)
    return place, {ann.user_id: ann, bob.user_id: bob}


# The game, its new version, when it was committed, how long the move took, and how long the
# move and its board picture took (the bot answers a move with the picture).
Played = tuple[int, int, float, float, float]
Move = Callable[[], Awaitable[Played]]


async def _ready(
    service: JarmoService,
    place: Place,
    players: dict[int, Actor],
    rng: random.Random,
) -> Move:
    """The next move in the game at ``place``, chosen now and made when called: what is timed
    is the move alone, and no untimed reading comes before it."""
    record = await service.kit.store.games.active(place.channel_id)
    assert record is not None, "the game ended: ask for fewer moves"
    mover = players[record.player_id(record.engine.turn)]
    move = rng.choice(record.engine.legal_moves())

    async def play() -> Played:
        start = time.perf_counter()
        report = await service.watching.move(
            record.id, mover.user_id, read_action(move), expected_version=record.version
        )
        done = time.perf_counter()
        await report.board.image.png()
        answered = time.perf_counter()
        return record.id, report.board.game.version, done, done - start, answered - start

    return play


async def _play(
    service: JarmoService,
    place: Place,
    players: dict[int, Actor],
    rng: random.Random,
) -> Played:
    """One move: the game, its new version, when it was committed, how long it took."""
    return await (await _ready(service, place, players, rng))()


class Watchers:
    """``count`` pages watching one game, noting when each version reaches each of them."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.arrivals: dict[int, list[float]] = {}
        self.got: dict[int, asyncio.Event] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._sockets: list[aiohttp.ClientWebSocketResponse] = []

    async def open(self, session: aiohttp.ClientSession, url: str, token: str) -> None:
        ready = asyncio.Semaphore(0)
        for _ in range(self.count):
            self._tasks.append(asyncio.create_task(self._watch(session, url, token, ready)))
        for _ in range(self.count):
            await asyncio.wait_for(ready.acquire(), WAIT_SECONDS)

    async def _watch(
        self, session: aiohttp.ClientSession, url: str, token: str, ready: asyncio.Semaphore
    ) -> None:
        # Browsers offer permessage-deflate: the server's answer decides whether it compresses.
        async with session.ws_connect(url, compress=15) as ws:
            self._sockets.append(ws)
            await ws.send_str(json.dumps({"type": "watch", "token": token}))
            first = True
            async for message in ws:
                frame = json.loads(message.data)
                if frame["type"] != "state":
                    continue
                if first:
                    first = False
                    ready.release()
                    continue
                version = frame["game"]["version"]
                arrived = self.arrivals.setdefault(version, [])
                arrived.append(time.perf_counter())
                if len(arrived) == self.count:
                    self.got.setdefault(version, asyncio.Event()).set()

    async def all_got(self, version: int) -> list[float]:
        await asyncio.wait_for(self.got.setdefault(version, asyncio.Event()).wait(), WAIT_SECONDS)
        return self.arrivals[version]

    async def close(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self._sockets))
        await asyncio.wait_for(asyncio.gather(*self._tasks), WAIT_SECONDS)


ELSEWHERE = 3  # moves in other games during each move's fan-out, one in each of 3 games


def _pages_process(url: str, token: str, count: int, nice: int, conn: Connection) -> None:
    """The pages, in a process of their own: open them, then for each version asked for,
    answer with the times it reached every page."""

    async def run() -> None:
        loop = asyncio.get_running_loop()
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            pages = Watchers(count)
            await pages.open(session, url, token)
            conn.send(None)
            while (version := await loop.run_in_executor(None, conn.recv)) is not None:
                conn.send(await pages.all_got(version))
            await pages.close()

    _raise_file_limit(count + 100)
    os.nice(nice)
    asyncio.run(run())


def _web_process(database_url: str, conn: Connection) -> None:
    """The live board alone, as ``jarmo-bot web`` runs it beside the bots: its own store on the
    database and its own feed (PostgreSQL: LISTEN); tells its port, serves until told."""

    async def run() -> None:
        loop = asyncio.get_running_loop()
        async with open_any(database_url) as store:
            service = JarmoService(store)
            config = BotConfig(web=WebConfig(enabled=True, address="127.0.0.1", port=0))
            runner = await start_live_board(service, config)
            conn.send(bound_port(runner))
            await loop.run_in_executor(None, conn.recv)
            await runner.cleanup()

    _raise_file_limit(MAX_WATCHERS + 100)
    asyncio.run(run())


class Games:
    """Games to play moves in, a new one whenever the last has ended."""

    def __init__(self, service: JarmoService, first_channel: int) -> None:
        self._service, self._channel = service, first_channel
        self._current: tuple[Place, dict[int, Actor]] | None = None

    async def ready(self, rng: random.Random) -> Move:
        """The next move, chosen now and made when called."""
        service = self._service
        if (
            self._current is None
            or await service.kit.store.games.active(self._current[0].channel_id) is None
        ):
            self._channel += 1
            self._current = await _new_game(service, self._channel)
        return await _ready(service, *self._current, rng)


@asynccontextmanager
async def _served(
    seed: int, database_url: str | None
) -> AsyncIterator[tuple[JarmoService, str, bytes]]:
    """A service to move with, the live board's socket address, and the links' secret: on a
    temporary SQLite file with the board in this process (as ``[web] enabled`` runs it), or on
    ``database_url`` with the board in a process of its own (as ``jarmo-bot web``)."""
    with tempfile.TemporaryDirectory() as folder:
        target = database_url or Path(folder) / "bench.sqlite3"
        async with open_any(target) as store:
            service = JarmoService(store, rng=random.Random(seed))
            if database_url is None:
                async with _board_here(service) as port:
                    yield service, f"http://127.0.0.1:{port}/ws", SECRET
            else:
                async with _board_apart(database_url) as port:
                    secret = await service.web_secret()
                    yield service, f"http://127.0.0.1:{port}/ws", secret


@asynccontextmanager
async def _board_here(service: JarmoService) -> AsyncIterator[int]:
    async def secret() -> bytes:
        return SECRET

    app = create_web_app(
        service,
        feed=service.feed,
        spectators=service.spectators,
        secret=secret,
        settings=WebSettings(),
    )
    runner = await start_web_server(app, "127.0.0.1", 0)
    try:
        yield bound_port(runner)
    finally:
        closing = time.perf_counter()
        await runner.cleanup()
        print(f"  server closed in {time.perf_counter() - closing:.1f} s")


@asynccontextmanager
async def _board_apart(database_url: str) -> AsyncIterator[int]:
    loop = asyncio.get_running_loop()
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    web = multiprocessing.get_context("spawn").Process(
        target=_web_process, args=(database_url, theirs)
    )
    web.start()
    try:
        yield await asyncio.wait_for(loop.run_in_executor(None, ours.recv), WAIT_SECONDS)
    finally:
        ours.send(None)
        await loop.run_in_executor(None, web.join, WAIT_SECONDS)


async def one_run(
    watchers: int, moves: int, seed: int, pages_nice: int = 0, database_url: str | None = None
) -> tuple[list[float], list[Played], list[Played]]:
    """Delivery latencies (s), and the moves elsewhere without and with the watchers."""
    rng = random.Random(seed)
    async with _served(seed, database_url) as (service, url, secret):
        loop = asyncio.get_running_loop()
        # The moves elsewhere are in games of their own, chosen before the move they
        # follow: each is timed from that move's commit on, back to back, as if
        # players elsewhere had moved then.
        unwatched = Games(service, 1000)
        elsewhere = [Games(service, 1000 * (2 + i)) for i in range(ELSEWHERE)]
        alone: list[Played] = []
        for _ in range(moves):
            ready = [await games.ready(rng) for games in elsewhere]
            await (await unwatched.ready(rng))()
            alone += [await play() for play in ready]
        place, players = await _new_game(service, 1)
        game_id = await service.watching.game_in_channel(place)
        assert game_id is not None
        expires = service.now().replace(year=service.now().year + 1)
        token = sign_watch_token(secret, game_id, expires_at=expires)
        ours, theirs = multiprocessing.get_context("spawn").Pipe()
        pages = multiprocessing.get_context("spawn").Process(
            target=_pages_process, args=(url, token, watchers, pages_nice, theirs)
        )
        opening = time.perf_counter()
        pages.start()
        await asyncio.wait_for(loop.run_in_executor(None, ours.recv), WAIT_SECONDS)
        print(f"  {watchers} pages open in {time.perf_counter() - opening:.1f} s")
        latencies: list[float] = []
        watched: list[Played] = []
        for _ in range(moves):
            ready = [await games.ready(rng) for games in elsewhere]
            _, version, committed, _, _ = await _play(service, place, players, rng)
            ours.send(version)
            watched += [await play() for play in ready]
            arrivals = await asyncio.wait_for(loop.run_in_executor(None, ours.recv), WAIT_SECONDS)
            latencies += [t - committed for t in arrivals]
        ours.send(None)
        await loop.run_in_executor(None, pages.join, WAIT_SECONDS)
    return latencies, alone, watched


def _raise_file_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages-nice", type=int, default=0, choices=range(20))
    parser.add_argument("--web-process", action="store_true")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    watchers = max(1, min(args.watchers, MAX_WATCHERS))
    moves = max(1, min(args.moves, MAX_MOVES))
    _raise_file_limit(watchers + 100)
    with _database(args) as urls:
        _measure(args, watchers, moves, urls)


@contextmanager
def _database(args: argparse.Namespace) -> Iterator[Callable[[], str | None]]:
    """Where each run's database is: a fresh PostgreSQL database per run for
    ``--web-process`` (``--database-url``'s server, or a private one started here), else
    nowhere (each run makes its own SQLite file)."""
    if not args.web_process:
        yield lambda: None
    elif args.database_url:
        yield lambda: str(args.database_url)
    else:
        from postgres import start_server

        server = start_server("-c synchronous_commit=off -c listen_addresses=''")
        try:
            yield server.fresh_database
        finally:
            server.stop()


def _measure(
    args: argparse.Namespace, watchers: int, moves: int, urls: Callable[[], str | None]
) -> None:
    where = (
        "a live board in its own process, on PostgreSQL"
        if args.web_process
        else ("the live board in the bot's process, on SQLite")
    )
    print(f"{where}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    ms = 1000.0
    p50s, p99s = [], []
    # Per kind of move elsewhere (the move alone; the move and its picture, as the bot answers
    # it) and per figure (median, mean): the runs' values without and with the watchers.
    kinds = {"a move": 3, "a move with its picture": 4}
    figures = {"median": statistics.median, "mean": statistics.mean}
    alones: dict[tuple[str, str], list[float]] = {(k, f): [] for k in kinds for f in figures}
    watcheds: dict[tuple[str, str], list[float]] = {(k, f): [] for k in kinds for f in figures}
    for run in range(max(1, args.runs)):
        latencies, alone_moves, watched_moves = asyncio.run(
            one_run(watchers, moves, seed=run, pages_nice=args.pages_nice, database_url=urls())
        )
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        p50s.append(p50)
        p99s.append(p99)
        for kind, field in kinds.items():
            for figure, of in figures.items():
                alones[kind, figure].append(of([move[field] for move in alone_moves]))
                watcheds[kind, figure].append(of([move[field] for move in watched_moves]))
        print(
            f"run {run + 1}: {watchers} watchers, {moves} moves, {len(latencies)} deliveries: "
            f"latency p50 {p50 * ms:.1f} ms, p99 {p99 * ms:.1f} ms; "
            + "; ".join(
                f"{kind} elsewhere {alones[kind, 'median'][-1] * ms:.1f} ms unwatched, "
                f"{watcheds[kind, 'median'][-1] * ms:.1f} ms during the fan-out"
                for kind in kinds
            )
        )
    print(
        f"median of {len(p50s)} runs: delivery p50 {statistics.median(p50s) * ms:.1f} ms, "
        f"p99 {statistics.median(p99s) * ms:.1f} ms"
    )
    for kind in kinds:
        line = []
        for figure in figures:
            alone = statistics.median(alones[kind, figure])
            watched = statistics.median(watcheds[kind, figure])
            line.append(
                f"{figure} {alone * ms:.1f} ms without watchers, {watched * ms:.1f} ms with "
                f"{watchers} (x{watched / alone:.2f})"
            )
        print(f"  {kind} elsewhere: " + "; ".join(line))


if __name__ == "__main__":
    main()
