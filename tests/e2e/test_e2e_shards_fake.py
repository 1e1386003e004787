"""The fake's sharding, seen from raw gateway connections: GET /gateway/bot recommends a shard
count, IDENTIFY names ``[shard_id, shard_count]``, and each server's events reach only the
connection of its shard, ``(guild_id >> 22) % shard_count``."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from tests.e2e.fake_discord import FakeDiscord

FRAME_SECONDS = 10.0
COMMAND = {"name": "ping", "description": "Ping", "type": 1}


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(shards=2).start()
    yield server
    server.close()


def rest(fake: FakeDiscord, method: str, path: str, body: object = None) -> Any:
    request = urllib.request.Request(
        fake.api_base_url + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


class Shard:
    """One raw gateway connection, as a shard of a bot would open it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def receive(self) -> dict[str, Any]:
        frame = await self.ws.receive(timeout=FRAME_SECONDS)
        assert frame.type == aiohttp.WSMsgType.TEXT, f"the gateway closed: {frame}"
        decoded: dict[str, Any] = json.loads(frame.data)
        return decoded

    async def dispatches(self, count: int) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        while len(found) < count:
            frame = await self.receive()
            if frame["op"] == 0:
                found.append(frame)
        return found


@asynccontextmanager
async def shard(fake: FakeDiscord, shard: object) -> AsyncIterator[Shard]:
    url = fake.gateway_url + "?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        connection = Shard(ws)
        assert (await connection.receive())["op"] == 10  # HELLO
        identify = {"token": fake.token, "intents": 1, "properties": {}, "shard": shard}
        await ws.send_json({"op": 2, "d": identify})
        yield connection


def test_gateway_bot_recommends_the_shard_count(fake: FakeDiscord) -> None:
    assert rest(fake, "GET", "/gateway/bot")["shards"] == 2


def test_each_shard_gets_its_own_servers_and_their_interactions_only(fake: FakeDiscord) -> None:
    home = fake.world
    other = fake.add_guild(shard=1 - fake.shard_of(home.guild_id))
    assert fake.shard_of(other.guild_id) != fake.shard_of(home.guild_id)
    rest(fake, "PUT", f"/applications/{home.application_id}/commands", [COMMAND])
    by_shard = {fake.shard_of(home.guild_id): home, fake.shard_of(other.guild_id): other}

    async def run() -> None:
        async with shard(fake, [0, 2]) as zero, shard(fake, [1, 2]) as one:
            for number, connection in enumerate((zero, one)):
                ready, created = await connection.dispatches(2)
                assert ready["t"] == "READY" and ready["d"]["shard"] == [number, 2]
                guild = str(by_shard[number].guild_id)
                assert [g["id"] for g in ready["d"]["guilds"]] == [guild]
                assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", guild)
            # One interaction in each server, sent together: each reaches its own shard.
            sent = [
                fake.slash(w.bob, w.channel("arena-1"), "ping", send=False) for w in (home, other)
            ]
            await asyncio.to_thread(fake.send, *sent)
            for number, connection in enumerate((zero, one)):
                (event,) = await connection.dispatches(1)
                assert event["t"] == "INTERACTION_CREATE"
                assert event["d"]["guild_id"] == str(by_shard[number].guild_id)
                assert event["d"]["channel_id"] == str(by_shard[number].channel("arena-1").id)

    asyncio.run(run())
    assert sorted(fake.identified) == [(0, 2), (1, 2)]
    assert fake.take_problems() == []


def test_a_server_added_later_arrives_on_its_shard(fake: FakeDiscord) -> None:
    async def run() -> None:
        async with shard(fake, [0, 2]) as zero, shard(fake, [1, 2]) as one:
            await zero.dispatches(1 + (fake.shard_of(fake.world.guild_id) == 0))
            await one.dispatches(1 + (fake.shard_of(fake.world.guild_id) == 1))
            joined = await asyncio.to_thread(fake.add_guild, shard=1)
            (created,) = await one.dispatches(1)
            assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(joined.guild_id))

    asyncio.run(run())


@pytest.mark.parametrize("bad", [[2, 2], [-1, 2], [0, 0], "0", [0]])
def test_an_impossible_shard_is_refused(fake: FakeDiscord, bad: object) -> None:
    async def run() -> None:
        async with shard(fake, bad) as connection:
            frame = await connection.ws.receive(timeout=FRAME_SECONDS)
            assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert connection.ws.close_code == 4010

    asyncio.run(run())
    assert fake.take_problems() == [f"IDENTIFY with an invalid shard: {bad!r}"]
