"""The Discord Activity's sign-in against the loopback fake of Discord: the code exchanged for an
access token, and a watch token only for a user in the channel's instance."""

from __future__ import annotations

import pytest

from bot.web.tokens import read_watch_token
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import ActivityInstance, User
from tests.service.service_helpers import ANN, GUILD, HERE, start_match
from tests.web.conftest import SECRET, Live, LiveFactory, activity_settings


@pytest.fixture
async def activity(live_factory: LiveFactory, discord: FakeDiscord) -> Live:
    return await live_factory(**activity_settings(discord, sdk_mock=False))


async def _signed_in(live: Live, fake: FakeDiscord, user_id: int) -> str:
    code = fake.authorize(User(user_id, "someone"))
    answer = await live.client.post("/api/activity/token", json={"code": code})
    assert answer.status == 200
    token: str = (await answer.json())["access_token"]
    return token


def _instance(fake: FakeDiscord, channel_id: int, users: list[int]) -> str:
    """An instance of the Activity in ``channel_id`` of the server, with ``users`` in it."""
    app = fake.world.application_id
    instance = ActivityInstance(f"i-{fake.ids()}", fake.ids(), app, channel_id, GUILD, users)
    fake.activity_instances[instance.id] = instance
    return instance.id


async def test_a_player_in_the_instance_gets_a_token_to_move(
    activity: Live, discord: FakeDiscord
) -> None:
    board = await start_match(activity.service)
    access = await _signed_in(activity, discord, ANN.user_id)
    instance = _instance(discord, HERE.channel_id, [ANN.user_id])
    body = {"access_token": access, "instance_id": instance, "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert answer.status == 200
    grant = read_watch_token(SECRET, (await answer.json())["token"], now=activity.now())
    assert (grant.game_id, grant.user_id) == (board.game.id, ANN.user_id)


async def test_a_user_not_in_the_instance_is_refused(activity: Live, discord: FakeDiscord) -> None:
    await start_match(activity.service)
    access = await _signed_in(activity, discord, ANN.user_id)
    instance = _instance(discord, HERE.channel_id, [999])
    body = {"access_token": access, "instance_id": instance, "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "not_in_instance"})


async def test_an_instance_in_another_channel_is_refused(
    activity: Live, discord: FakeDiscord
) -> None:
    await start_match(activity.service)
    access = await _signed_in(activity, discord, ANN.user_id)
    instance = _instance(discord, 77, [ANN.user_id])
    body = {"access_token": access, "instance_id": instance, "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "not_in_instance"})


async def test_a_channel_without_a_game_is_refused(activity: Live, discord: FakeDiscord) -> None:
    access = await _signed_in(activity, discord, ANN.user_id)
    instance = _instance(discord, HERE.channel_id, [ANN.user_id])
    body = {"access_token": access, "instance_id": instance, "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "no_game"})


async def test_a_server_with_watching_off_is_refused(activity: Live, discord: FakeDiscord) -> None:
    await start_match(activity.service)
    await activity.service.servers.set_watching(GUILD, False, can_manage=True)
    access = await _signed_in(activity, discord, ANN.user_id)
    instance = _instance(discord, HERE.channel_id, [ANN.user_id])
    body = {"access_token": access, "instance_id": instance, "channel_id": str(HERE.channel_id)}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "watching_off"})


async def test_a_bad_code_or_access_token_gets_nothing(
    activity: Live, discord: FakeDiscord
) -> None:
    answer = await activity.client.post("/api/activity/token", json={"code": "made-up"})
    assert answer.status == 403 and "access_token" not in await answer.json()
    body = {"access_token": "made-up", "instance_id": "i-1", "channel_id": "10"}
    answer = await activity.client.post("/api/activity/game", json=body)
    assert (answer.status, await answer.json()) == (403, {"code": "not_in_instance"})


async def test_the_sign_in_is_not_there_without_the_activity(live: Live) -> None:
    answer = await live.client.post("/api/activity/token", json={"code": "c"})
    assert answer.status == 404
