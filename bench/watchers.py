"""Many spectators on one game's live board: how long a move takes to reach every page, and
what the fan-out costs the bot's moves in other games.

Run: ``python bench/watchers.py [--watchers 500] [--moves 20] [--runs 3] [--pages-nice 0]``.
Everything is on this machine: the real web application on 127.0.0.1 and a real SQLite store
in a temporary folder in this process, and ``--watchers`` WebSocket pages in a second process
(as browsers would be; like browsers, they offer to compress frames). Each run makes
``--moves`` moves on the watched game; while each one reaches the pages, ``ELSEWHERE`` moves
are played in other games, chosen beforehand and made back to back from the watched move's
commit on. The same is done once with nobody watching. Prints the median and
p99 delivery latency over all pages (from the move's commit to a page's receipt of the new
state), and the median and the mean time of the moves elsewhere without and with the watchers
(each the median over the runs) and their ratios: the median is a typical move, the mean also
counts the one move in a few that waits for a whole fan-out. ``--pages-nice`` lowers the
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
import tempfile
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp

from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.store import open_store
from bot.web.app import WebSettings, bound_port, create_web_app, start_web_server
from bot.web.tokens import sign_watch_token

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


Played = tuple[int, int, float, float]  # the game, its new version, when, how long it took
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
        return record.id, report.board.game.version, done, done - start

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


async def one_run(
    watchers: int, moves: int, seed: int, pages_nice: int = 0
) -> tuple[list[float], list[float], list[float]]:
    """Delivery latencies (s), and the times of the moves elsewhere without and with the
    watchers (s)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with open_store(Path(folder) / "bench.sqlite3") as store:
            service = JarmoService(store, rng=random.Random(seed))

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
            url = f"http://127.0.0.1:{bound_port(runner)}/ws"
            loop = asyncio.get_running_loop()
            try:
                # The moves elsewhere are in games of their own, chosen before the move they
                # follow: each is timed from that move's commit on, back to back, as if
                # players elsewhere had moved then.
                unwatched = Games(service, 1000)
                elsewhere = [Games(service, 1000 * (2 + i)) for i in range(ELSEWHERE)]
                alone: list[float] = []
                for _ in range(moves):
                    ready = [await games.ready(rng) for games in elsewhere]
                    await (await unwatched.ready(rng))()
                    alone += [(await play())[3] for play in ready]
                place, players = await _new_game(service, 1)
                game_id = await service.watching.game_in_channel(place)
                assert game_id is not None
                expires = service.now().replace(year=service.now().year + 1)
                token = sign_watch_token(SECRET, game_id, expires_at=expires)
                ours, theirs = multiprocessing.get_context("spawn").Pipe()
                pages = multiprocessing.get_context("spawn").Process(
                    target=_pages_process, args=(url, token, watchers, pages_nice, theirs)
                )
                opening = time.perf_counter()
                pages.start()
                await asyncio.wait_for(loop.run_in_executor(None, ours.recv), WAIT_SECONDS)
                print(f"  {watchers} pages open in {time.perf_counter() - opening:.1f} s")
                latencies: list[float] = []
                watched: list[float] = []
                for _ in range(moves):
                    ready = [await games.ready(rng) for games in elsewhere]
                    _, version, committed, _ = await _play(service, place, players, rng)
                    ours.send(version)
                    watched += [(await play())[3] for play in ready]
                    arrivals = await asyncio.wait_for(
                        loop.run_in_executor(None, ours.recv), WAIT_SECONDS
                    )
                    latencies += [t - committed for t in arrivals]
                ours.send(None)
                await loop.run_in_executor(None, pages.join, WAIT_SECONDS)
            finally:
                closing = time.perf_counter()
                await runner.cleanup()
                print(f"  server closed in {time.perf_counter() - closing:.1f} s")
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
    args = parser.parse_args()
    watchers = max(1, min(args.watchers, MAX_WATCHERS))
    moves = max(1, min(args.moves, MAX_MOVES))
    _raise_file_limit(watchers + 100)
    ms = 1000.0
    p50s, p99s = [], []
    alones: dict[str, list[float]] = {"median": [], "mean": []}
    watcheds: dict[str, list[float]] = {"median": [], "mean": []}
    for run in range(max(1, args.runs)):
        latencies, alone_times, watched_times = asyncio.run(
            one_run(watchers, moves, seed=run, pages_nice=args.pages_nice)
        )
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        p50s.append(p50)
        p99s.append(p99)
        for figure, of in (("median", statistics.median), ("mean", statistics.mean)):
            alones[figure].append(of(alone_times))
            watcheds[figure].append(of(watched_times))
        print(
            f"run {run + 1}: {watchers} watchers, {moves} moves, {len(latencies)} deliveries: "
            f"latency p50 {p50 * ms:.1f} ms, p99 {p99 * ms:.1f} ms; a move elsewhere "
            f"{alones['median'][-1] * ms:.1f} ms unwatched, {watcheds['median'][-1] * ms:.1f} "
            f"ms during the fan-out (means {alones['mean'][-1] * ms:.1f} and "
            f"{watcheds['mean'][-1] * ms:.1f} ms)"
        )
    alone, watched = statistics.median(alones["median"]), statistics.median(watcheds["median"])
    alone_mean = statistics.median(alones["mean"])
    watched_mean = statistics.median(watcheds["mean"])
    print(
        f"median of {len(p50s)} runs: delivery p50 {statistics.median(p50s) * ms:.1f} ms, "
        f"p99 {statistics.median(p99s) * ms:.1f} ms; a move elsewhere {alone * ms:.1f} ms "
        f"without watchers, {watched * ms:.1f} ms with {watchers} (x{watched / alone:.2f}); "
        f"mean {alone_mean * ms:.1f} ms without, {watched_mean * ms:.1f} ms with "
        f"(x{watched_mean / alone_mean:.2f})"
    )


if __name__ == "__main__":
    main()
