"""Many spectators on one game's live board: how long a move takes to reach every page, and
what watching costs the move itself.

Run: ``python bench/watchers.py [--watchers 500] [--moves 20] [--runs 3]``.
Everything is on this machine: the real web application on 127.0.0.1, a real SQLite store in a
temporary folder, and ``--watchers`` WebSocket clients in the same process. Each run plays
``--moves`` moves through the service twice, on a game nobody watches and on one every client
watches, and measures the delivery latency of every state frame (from the move's commit to its
arrival at each socket) and the time of each move. Prints the median and p99 latency over all
sockets, and the median move time without and with the watchers (median over the runs) and
their ratio. Bounded: at most 2000 watchers and 200 moves, and no wait longer than 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import tempfile
import time
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


async def _play(
    service: JarmoService,
    place: Place,
    players: dict[int, Actor],
    rng: random.Random,
) -> tuple[int, int, float, float]:
    """One move: the game, its new version, when it was committed, how long it took."""
    record = await service.kit.store.games.active(place.channel_id)
    assert record is not None, "the game ended: ask for fewer moves"
    mover = players[record.player_id(record.engine.turn)]
    move = rng.choice(record.engine.legal_moves())
    start = time.perf_counter()
    report = await service.watching.move(
        record.id, mover, read_action(move), expected_version=record.version
    )
    done = time.perf_counter()
    return record.id, report.board.game.version, done, done - start


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
        async with session.ws_connect(url) as ws:
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


async def one_run(watchers: int, moves: int, seed: int) -> tuple[list[float], float, float]:
    """Delivery latencies (s), and the median move time without and with the watchers (s)."""
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
            try:
                alone_place, alone_players = await _new_game(service, 1)
                alone = [
                    (await _play(service, alone_place, alone_players, rng))[3] for _ in range(moves)
                ]
                place, players = await _new_game(service, 2)
                game_id = await service.watching.game_in_channel(place)
                assert game_id is not None
                expires = service.now().replace(year=service.now().year + 1)
                token = sign_watch_token(SECRET, game_id, expires_at=expires)
                connector = aiohttp.TCPConnector(limit=0)
                async with aiohttp.ClientSession(connector=connector) as session:
                    pages = Watchers(watchers)
                    opening = time.perf_counter()
                    await pages.open(session, url, token)
                    print(f"  {watchers} pages open in {time.perf_counter() - opening:.1f} s")
                    latencies: list[float] = []
                    watched: list[float] = []
                    for _ in range(moves):
                        _, version, committed, took = await _play(service, place, players, rng)
                        watched.append(took)
                        latencies += [t - committed for t in await pages.all_got(version)]
                    await pages.close()
            finally:
                closing = time.perf_counter()
                await runner.cleanup()
                print(f"  server closed in {time.perf_counter() - closing:.1f} s")
    return latencies, statistics.median(alone), statistics.median(watched)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    watchers = max(1, min(args.watchers, MAX_WATCHERS))
    moves = max(1, min(args.moves, MAX_MOVES))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * watchers + 100  # each page is two sockets here: the client's and the server's
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    ms = 1000.0
    p50s, p99s, alones, watcheds = [], [], [], []
    for run in range(max(1, args.runs)):
        latencies, alone, watched = asyncio.run(one_run(watchers, moves, seed=run))
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        p50s.append(p50)
        p99s.append(p99)
        alones.append(alone)
        watcheds.append(watched)
        print(
            f"run {run + 1}: {watchers} watchers, {moves} moves, {len(latencies)} deliveries: "
            f"latency p50 {p50 * ms:.1f} ms, p99 {p99 * ms:.1f} ms; move {alone * ms:.1f} ms "
            f"alone, {watched * ms:.1f} ms watched"
        )
    alone, watched = statistics.median(alones), statistics.median(watcheds)
    print(
        f"median of {len(p50s)} runs: delivery p50 {statistics.median(p50s) * ms:.1f} ms, "
        f"p99 {statistics.median(p99s) * ms:.1f} ms; move {alone * ms:.1f} ms without watchers, "
        f"{watched * ms:.1f} ms with {watchers} (x{watched / alone:.2f})"
    )


if __name__ == "__main__":
    main()
