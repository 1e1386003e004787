"""The Activity's share dialog, server side: the final position of an ended game drawn by the
bot's own renderer, uploaded to the loopback fake of Discord with the user's access token, and
the attachment's url answered; refusals as codes, the game untouched and no token logged."""

from __future__ import annotations

import dataclasses
import logging
import socket
from typing import Any

import pytest
from aiohttp import ClientResponse

from bot.service import Report
from bot.words.images import image_words
from bot.words.voice import shared_catalogue
from tests.e2e.fake_discord import DiscordError, FakeDiscord
from tests.e2e.fake_models import User
from tests.service.service_helpers import ANN, BOB, GUILD, HERE, start_match
from tests.web.conftest import Live, LiveFactory, activity_settings


@pytest.fixture
async def activity(live_factory: LiveFactory, discord: FakeDiscord) -> Live:
    return await live_factory(**activity_settings(discord, sdk_mock=False))


async def access_token(live: Live, fake: FakeDiscord, user_id: int) -> str:
    """The access token the Activity's page of ``user_id`` got through the server."""
    code = fake.authorize(User(user_id, f"user{user_id}"))
    answer = await live.client.post("/api/activity/token", json={"code": code})
    assert answer.status == 200
    token: str = (await answer.json())["access_token"]
    return token


async def resigned_game(live: Live) -> Report:
    """Ann (White) and Bob play; Bob resigns."""
    await start_match(live.service)
    return await live.service.play.resign(HERE, BOB)


async def share(live: Live, **body: Any) -> ClientResponse:
    return await live.client.post("/api/activity/share", json=body)


async def test_an_ended_game_is_uploaded_as_its_final_board_and_its_url_answered(
    activity: Live, discord: FakeDiscord
) -> None:
    report = await resigned_game(activity)
    game_id = report.board.game.id
    access = await access_token(activity, discord, ANN.user_id)
    answer = await share(
        activity, token=activity.token(game_id, user_id=ANN.user_id), access_token=access
    )

    assert answer.status == 200
    [kept] = discord.app_attachments
    assert await answer.json() == {"url": kept.url}
    assert kept.user.id == ANN.user_id and kept.content_type == "image/png"
    # The very picture the board message in Discord shows of the ended game.
    assert kept.data == await report.board.image.png(image_words(shared_catalogue("en")))
    assert kept.filename == f"jarmo-{game_id}.png"


async def test_the_picture_is_seen_from_the_viewers_side_in_the_pages_language(
    activity: Live, discord: FakeDiscord
) -> None:
    report = await resigned_game(activity)
    access = await access_token(activity, discord, BOB.user_id)
    token = activity.token(report.board.game.id, user_id=BOB.user_id)
    answer = await share(activity, token=token, access_token=access, lang="de")

    assert answer.status == 200
    [kept] = discord.app_attachments
    blacks_view = dataclasses.replace(report.board.image, perspective="black")
    assert kept.data == await blacks_view.png(image_words(shared_catalogue("de")))


async def test_a_game_still_played_is_not_shared(activity: Live, discord: FakeDiscord) -> None:
    board = await start_match(activity.service)
    before = await activity.service.watching.snapshot(board.game.id)
    access = await access_token(activity, discord, ANN.user_id)
    token = activity.token(board.game.id, user_id=ANN.user_id)
    answer = await share(activity, token=token, access_token=access)

    assert (answer.status, await answer.json()) == (409, {"code": "game_not_over"})
    assert discord.app_attachments == []
    assert await activity.service.watching.snapshot(board.game.id) == before


@pytest.mark.parametrize(
    ("make_token", "code"),
    [
        (lambda live, game_id: live.token(game_id, secret=b"f" * 32), "bad_token"),
        (lambda live, game_id: live.token(game_id, hours=-1), "expired_token"),
        (lambda live, game_id: live.token(game_id + 99), "bad_token"),
        (lambda live, game_id: "not-a-token", "bad_token"),
    ],
    ids=["forged", "expired", "another game", "garbled"],
)
async def test_a_token_that_is_not_good_is_refused(
    activity: Live, discord: FakeDiscord, make_token: Any, code: str
) -> None:
    report = await resigned_game(activity)
    access = await access_token(activity, discord, ANN.user_id)
    answer = await share(
        activity, token=make_token(activity, report.board.game.id), access_token=access
    )

    assert (answer.status, await answer.json()) == (401, {"code": code})
    assert discord.app_attachments == []


async def test_a_server_with_watching_off_shares_nothing(
    activity: Live, discord: FakeDiscord
) -> None:
    report = await resigned_game(activity)
    await activity.service.servers.set_watching(GUILD, False, can_manage=True)
    access = await access_token(activity, discord, ANN.user_id)
    token = activity.token(report.board.game.id, user_id=ANN.user_id)
    answer = await share(activity, token=token, access_token=access)

    assert (answer.status, await answer.json()) == (403, {"code": "watching_off"})
    assert discord.app_attachments == []


async def test_discord_refusing_the_upload_is_told_and_nothing_secret_is_logged(
    activity: Live, discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    report = await resigned_game(activity)
    game_id = report.board.game.id
    access = await access_token(activity, discord, ANN.user_id)
    token = activity.token(game_id, user_id=ANN.user_id)
    discord.refuse = lambda method, path: (
        DiscordError(500, "500: Internal Server Error") if path.endswith("/attachment") else None
    )
    caplog.set_level(logging.DEBUG)
    refused = await share(activity, token=token, access_token=access)
    discord.refuse = None
    # A token Discord does not know (signed out meanwhile) is Discord's refusal too.
    unknown = await share(activity, token=token, access_token="signed-out")

    for answer in (refused, unknown):
        assert (answer.status, await answer.json()) == (502, {"code": "discord_refused"})
    assert discord.refused == [f"POST /applications/{discord.world.application_id}/attachment"]
    assert discord.app_attachments == []
    assert "upload" in caplog.text
    assert access not in caplog.text and token not in caplog.text
    assert "signed-out" not in caplog.text
    assert (await activity.service.watching.snapshot(game_id)).status == "resigned"


async def test_discord_out_of_reach_is_told(
    live_factory: LiveFactory, discord: FakeDiscord
) -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v10"
    settings = activity_settings(discord, sdk_mock=False) | {"discord_api": nowhere}
    live = await live_factory(**settings)
    report = await resigned_game(live)
    token = live.token(report.board.game.id, user_id=ANN.user_id)
    answer = await share(live, token=token, access_token="any")

    assert (answer.status, await answer.json()) == (502, {"code": "discord_refused"})


async def test_a_request_without_both_tokens_is_bad(activity: Live) -> None:
    report = await resigned_game(activity)
    token = activity.token(report.board.game.id)
    assert (await share(activity, token=token)).status == 400
    assert (await share(activity, access_token="a")).status == 400
    assert (await activity.client.post("/api/activity/share", data=b"[")).status == 400


async def test_there_is_no_sharing_without_the_activity(live: Live) -> None:
    assert (await share(live, token="t", access_token="a")).status == 404
