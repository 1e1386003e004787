"""The Discord Activity's sign-in against a stub of Discord's API on a loopback port: the code
exchanged for an access token, and a watch token only for a user in the channel's instance."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.web.tokens import read_watch_token
from tests.service.service_helpers import ANN, GUILD, HERE, start_match
from tests.web.conftest import SECRET, Live, LiveFactory

APP_ID = 555
CLIENT_SECRET = "client-secret"
BOT_TOKEN = "bot-token"


@dataclass
class StubDiscord:
    """Just the three calls the sign-in makes, and what it was asked."""

    codes: dict[str, int] = field(default_factory=dict)  # code -> user
    tokens: dict[str, int] = field(default_factory=dict)  # access token -> user
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.post("/oauth2/token", self.token),
                web.get("/users/@me", self.me),
                web.get("/applications/{app}/activity-instances/{instance}", self.instance),
            ]
        )
        return app

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.asked.append("token")
        if (form.get("client_id"), form.get("client_secret")) != (str(APP_ID), CLIENT_SECRET):
            return web.json_response({"error": "invalid_client"}, status=401)
        user = self.codes.pop(str(form.get("code")), None)
        if user is None or form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "invalid_grant"}, status=400)
        self.tokens[f"access-{user}"] = user
        return web.json_response({"access_token": f"access-{user}", "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        user = self.tokens.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        if user is None:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response({"id": str(user), "username": "someone"})

    async def instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        if request.match_info["app"] != str(APP_ID):
            return web.json_response({"message": "Missing Access"}, status=403)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "404: Not Found"}, status=404)
        return web.json_response(found)

    def start(self, instance: str, channel_id: int, users: list[int]) -> None:
        self.instances[instance] = {
            "application_id": str(APP_ID),
            "instance_id": instance,
            "location": {
                "kind": "gc",
                "channel_id": str(channel_id),
                "guild_id": str(GUILD),
            },
            "users": [str(user) for user in users],
        }


@pytest.fixture
async def discord() -> AsyncIterator[tuple[StubDiscord, str]]:
    stub = StubDiscord()
    server = TestServer(stub.app(), host="127.0.0.1")
    await server.start_server()
    yield stub, str(server.make_url("")).rstrip("/")
    await server.close()


@pytest.fixture
async def activity(live_factory: LiveFactory, discord: tuple[StubDiscord, str]) -> Live:
    return await live_factory(
        activity=True,
        client_id=APP_ID,
        client_secret=CLIENT_SECRET,
        bot_token=BOT_TOKEN,
        discord_api=discord[1],
    )


async def _signed_in(live: Live, stub: StubDiscord, user_id: int) -> str:
    stub.codes["code-1"] = user_id
    answer = await live.client.post("/api/activity/token", json={"code": "code-1"})
    assert answer.status == 200
    token: str = (await answer.json())["access_token"]
    return token


async def test_a_player_in_the_instance_gets_a_token_to_move(
    activity: Live, discord: tuple[StubDiscord, str]
) -> None:
    stub = discord[0]
    board = await start_match(activity.service)
    access = await _signed_in(activity, stub, ANN.user_id)
    stub.start("i-1", HERE.channel_id, [ANN.user_id])
    body = {"access_token": access, "instance_id": "i-1", "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert answer.status == 200
    grant = read_watch_token(SECRET, (await answer.json())["token"], now=activity.now())
    assert (grant.game_id, grant.user_id) == (board.game.id, ANN.user_id)


async def test_a_user_not_in_the_instance_is_refused(
    activity: Live, discord: tuple[StubDiscord, str]
) -> None:
    stub = discord[0]
    await start_match(activity.service)
    access = await _signed_in(activity, stub, ANN.user_id)
    stub.start("i-1", HERE.channel_id, [999])
    body = {"access_token": access, "instance_id": "i-1", "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "not_in_instance"})


async def test_an_instance_in_another_channel_is_refused(
    activity: Live, discord: tuple[StubDiscord, str]
) -> None:
    stub = discord[0]
    await start_match(activity.service)
    access = await _signed_in(activity, stub, ANN.user_id)
    stub.start("i-1", 77, [ANN.user_id])
    body = {"access_token": access, "instance_id": "i-1", "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "not_in_instance"})


async def test_a_channel_without_a_game_is_refused(
    activity: Live, discord: tuple[StubDiscord, str]
) -> None:
    stub = discord[0]
    access = await _signed_in(activity, stub, ANN.user_id)
    stub.start("i-1", HERE.channel_id, [ANN.user_id])
    body = {"access_token": access, "instance_id": "i-1", "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "no_game"})


async def test_a_server_with_watching_off_is_refused(
    activity: Live, discord: tuple[StubDiscord, str]
) -> None:
    stub = discord[0]
    await start_match(activity.service)
    await activity.service.servers.set_watching(GUILD, False, can_manage=True)
    access = await _signed_in(activity, stub, ANN.user_id)
    stub.start("i-1", HERE.channel_id, [ANN.user_id])
    body = {"access_token": access, "instance_id": "i-1", "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "watching_off"})


async def test_a_bad_code_or_access_token_gets_nothing(
    activity: Live, discord: tuple[StubDiscord, str]
) -> None:
    answer = await activity.client.post("/api/activity/token", json={"code": "made-up"})
    assert answer.status == 403 and "access_token" not in await answer.json()
    body = {"access_token": "made-up", "instance_id": "i-1", "channel_id": "10"}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "not_in_instance"})


async def test_the_sign_in_is_not_there_without_the_activity(live: Live) -> None:
    answer = await live.client.post("/api/activity/token", json={"code": "c"})
    assert answer.status == 404
