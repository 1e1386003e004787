"""Many spectators on one game's live board: how long a move takes to reach every page, and
what the fan-out costs the bot's moves in other games.

Run: ``python bench/watchers.py [--watchers 500] [--moves 20] [--runs 3] [--rate 20]
[--pages-nice 0] [--web-process [--database-url postgresql://...]]``. Everything is on this
machine: the real web application on 127.0.0.1, a real store, and ``--watchers`` WebSocket
pages in a process of their own (as browsers would be; like browsers, they offer to compress
frames). By default the board runs in this process beside the moves, on a temporary SQLite
file, as ``[web] enabled`` runs it in the bot's; ``--web-process`` runs it in a process of its
own on PostgreSQL (a private server started here, or ``--database-url``), as ``jarmo-bot web``
runs beside the bots.

Each run plays ``--moves`` moves in the watched game, and moves in other games, first with
nobody watching and then with the pages open, in two ways:

- right after each watched move: ``ELSEWHERE`` moves, chosen beforehand, made back to back
  from the watched move's commit on. All of them meet the fan-out: the worst moment. These
  runs also give the median and p99 delivery latency over all pages (from the move's commit
  to a page's receipt of the new state);
- at random moments, ``--rate`` a second on average, while the watched game is played a move
  a second: the moves of a bot whose other players do not wait for the watched game, of which
  some meet a fan-out.

For each way it prints the median, mean and p99 time of the moves elsewhere without and with
the watchers (each the median over the runs) and their ratios, for the move alone (the
service's use case) and with its board picture, as the bot answers ``/jarmo move`` (Discord's
round trip, the rest of a real answer, is left out). ``--pages-nice`` lowers the pages'
priority: browsers are not on the bot's machine. Bounded: at most 2000 watchers, 200 moves and
100 moves elsewhere a second, and no wait longer than 30 s.
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
MAX_RATE = 100.0  # moves elsewhere a second
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
PACE_SECONDS = 1.0  # between two moves of the watched game, when moves elsewhere come at random


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
    watchers: int,
    moves: int,
    seed: int,
    pages_nice: int = 0,
    database_url: str | None = None,
    rate: float | None = None,
) -> tuple[list[float], list[Played], list[Played]]:
    """Delivery latencies (s), and the moves elsewhere without and with the watchers: made
    right after each watched move (``rate`` ``None``), or at random moments, ``rate`` a second,
    while the watched game is played a move every :data:`PACE_SECONDS` (then no latency is
    measured)."""
    rng = random.Random(seed)
    async with _served(seed, database_url) as (service, url, secret):
        loop = asyncio.get_running_loop()
        # The moves elsewhere are in games of their own, chosen before they are timed.
        elsewhere = [Games(service, 1000 * (2 + i)) for i in range(ELSEWHERE)]
        unwatched = Games(service, 1000)

        async def unwatched_move() -> Played:
            return await (await unwatched.ready(rng))()

        if rate is None:
            _, alone = await _at_the_fan_out(unwatched_move, elsewhere, rng, moves, None)
        else:
            alone = await _at_random_moments(unwatched_move, elsewhere[0], rng, moves, rate, seed)
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

        async def watched_move() -> Played:
            return await _play(service, place, players, rng)

        def deliveries(version: int) -> Awaitable[list[float]]:
            ours.send(version)
            return asyncio.wait_for(loop.run_in_executor(None, ours.recv), WAIT_SECONDS)

        if rate is None:
            latencies, watched = await _at_the_fan_out(
                watched_move, elsewhere, rng, moves, deliveries
            )
        else:
            latencies = []
            watched = await _at_random_moments(watched_move, elsewhere[0], rng, moves, rate, seed)
        ours.send(None)
        await loop.run_in_executor(None, pages.join, WAIT_SECONDS)
    return latencies, alone, watched


async def _at_the_fan_out(
    move: Move,
    elsewhere: list[Games],
    rng: random.Random,
    moves: int,
    deliveries: Callable[[int], Awaitable[list[float]]] | None,
) -> tuple[list[float], list[Played]]:
    """``moves`` moves in the (watched) game, each followed from its commit on by
    :data:`ELSEWHERE` moves in other games, back to back: those moves meet the whole fan-out.
    With ``deliveries``, also how long after its commit each move reached each page."""
    latencies: list[float] = []
    played: list[Played] = []
    for _ in range(moves):
        ready = [await games.ready(rng) for games in elsewhere]
        _, version, committed, _, _ = await move()
        if deliveries is None:
            played += [await play() for play in ready]
        else:
            pending = deliveries(version)
            played += [await play() for play in ready]
            latencies += [arrival - committed for arrival in await pending]
    return latencies, played


async def _at_random_moments(
    move: Move, elsewhere: Games, rng: random.Random, moves: int, rate: float, seed: int
) -> list[Played]:
    """``moves`` moves in the (watched) game, one every :data:`PACE_SECONDS`, and meanwhile
    moves in other games at random moments, ``rate`` a second on average (each chosen before
    its moment): the moves elsewhere that the bot makes while a game is watched, of which
    only some meet a fan-out. The same ``seed`` gives the same moments, watched or not."""
    moments = random.Random(seed)
    loop = asyncio.get_running_loop()
    start = loop.time()

    async def watched_game() -> None:
        for index in range(moves):
            await asyncio.sleep(max(0.0, start + index * PACE_SECONDS - loop.time()))
            await move()

    playing = asyncio.create_task(watched_game())
    played: list[Played] = []
    due = start
    while not playing.done():
        due += moments.expovariate(rate)
        play = await elsewhere.ready(rng)
        await asyncio.sleep(max(0.0, due - loop.time()))  # a moment chosen, not a wait for work
        played.append(await play())
    await playing
    return played


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
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--web-process", action="store_true")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    watchers = max(1, min(args.watchers, MAX_WATCHERS))
    moves = max(1, min(args.moves, MAX_MOVES))
    args.rate = max(0.1, min(args.rate, MAX_RATE))
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
    # How the moves elsewhere come (the rate of random ones; None: right after each watched
    # move); per way, kind of move (alone; with its picture, as the bot answers it) and figure:
    # the runs' values without and with the watchers.
    ways = {"right after each watched move": None, f"at random, {args.rate:g} a second": args.rate}
    kinds = {"a move": 3, "a move with its picture": 4}
    figures: dict[str, Callable[[list[float]], float]] = {
        "median": statistics.median,
        "mean": statistics.mean,
        "p99": lambda values: percentile(values, 0.99),
    }
    values: dict[tuple[str, str, str], tuple[list[float], list[float]]] = {
        (way, kind, figure): ([], []) for way in ways for kind in kinds for figure in figures
    }
    for run in range(max(1, args.runs)):
        for way, rate in ways.items():
            latencies, alone_moves, watched_moves = asyncio.run(
                one_run(
                    watchers,
                    moves,
                    seed=run,
                    pages_nice=args.pages_nice,
                    database_url=urls(),
                    rate=rate,
                )
            )
            delivery = ""
            if latencies:
                p50s.append(percentile(latencies, 0.5))
                p99s.append(percentile(latencies, 0.99))
                delivery = f"delivery p50 {p50s[-1] * ms:.1f} ms, p99 {p99s[-1] * ms:.1f} ms; "
            for kind, field in kinds.items():
                for figure, of in figures.items():
                    alone, watched = values[way, kind, figure]
                    alone.append(of([move[field] for move in alone_moves]))
                    watched.append(of([move[field] for move in watched_moves]))
            print(
                f"run {run + 1}, {len(watched_moves)} moves elsewhere {way}: {delivery}"
                + "; ".join(
                    f"{kind} {values[way, kind, 'median'][0][-1] * ms:.1f} ms unwatched, "
                    f"{values[way, kind, 'median'][1][-1] * ms:.1f} ms watched"
                    for kind in kinds
                )
            )
    print(
        f"median of {len(p50s)} runs: {watchers} watchers, delivery p50 "
        f"{statistics.median(p50s) * ms:.1f} ms, p99 {statistics.median(p99s) * ms:.1f} ms"
    )
    for way in ways:
        print(f"moves elsewhere {way}, without watchers and with {watchers}:")
        for kind in kinds:
            line = []
            for figure in figures:
                unwatched, watched_too = (statistics.median(v) for v in values[way, kind, figure])
                line.append(
                    f"{figure} {unwatched * ms:.1f} -> {watched_too * ms:.1f} ms "
                    f"(x{watched_too / unwatched:.2f})"
                )
            print(f"  {kind}: " + "; ".join(line))


if __name__ == "__main__":
    main()
