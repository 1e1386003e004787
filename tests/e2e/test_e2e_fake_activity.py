"""The fake itself, for an app with an Activity: the LAUNCH_ACTIVITY answer to an interaction
(only where the app has one), the instances it starts, the OAuth2 code exchange of the
Activity's server and who the access token belongs to. Each test plays the bot (or the
Activity's server) through plain REST calls, so no bot process runs."""

from __future__ import annotations

import base64
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any
from unittest.mock import ANY

import pytest

from tests.e2e.fake_discord import LAUNCH_ACTIVITY, FakeDiscord
from tests.e2e.fake_models import Interaction

COMMANDS = [
    {
        "name": "jarmo",
        "description": "Play Jarmo",
        "type": 1,
        "options": [{"name": "rules", "description": "The rules", "type": 1}],
    }
]
BUTTON = {
    "content": "board",
    "allowed_mentions": {"parse": []},
    "components": [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "Live", "custom_id": "l"}]}
    ],
}


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord().start()
    app = server.world.application_id
    assert call(server, "PUT", f"/applications/{app}/commands", COMMANDS)[0] == 200
    yield server
    server.close()


def call(
    fake: FakeDiscord,
    method: str,
    path: str,
    body: object = None,
    *,
    authorization: str | None = None,
    form: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """A REST call to the fake: the HTTP status and the JSON answer. The bot's token unless
    ``authorization`` says otherwise; ``form`` sends a form instead of JSON."""
    data = None
    request = urllib.request.Request(f"{fake.api_base_url}{path}", method=method)
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    elif body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", authorization or f"Bot {fake.token}")
    try:
        with urllib.request.urlopen(request, data, timeout=10) as response:
            raw = response.read()
            return int(response.status), json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def launch(fake: FakeDiscord, interaction: Interaction) -> tuple[int, Any]:
    interaction.sent_at = time.monotonic()  # as if dispatched just now (the test is the bot)
    path = f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=true"
    return call(fake, "POST", path, {"type": LAUNCH_ACTIVITY})


def board(fake: FakeDiscord) -> Any:
    """A message with a button in #general, answered to Ann's command."""
    general = fake.world.channel("general")
    command = fake.slash(fake.world.ann, general, "jarmo rules", send=False)
    command.sent_at = time.monotonic()
    path = f"/interactions/{command.id}/{command.token}/callback"
    assert call(fake, "POST", path, {"type": 4, "data": BUTTON})[0] == 204
    [message] = fake.channel_messages(general)
    return message


def exchange(fake: FakeDiscord, code: str, secret: str | None = None) -> tuple[int, Any]:
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": str(fake.world.application_id),
        "client_secret": secret or fake.client_secret,
    }
    return call(fake, "POST", "/oauth2/token", authorization="", form=form)


def test_a_click_launches_the_activity_in_its_channel_with_the_clicker(fake: FakeDiscord) -> None:
    fake.activity = True
    world = fake.world
    press = fake.press(world.bob, board(fake), "Live", send=False)
    status, answer = launch(fake, press)
    assert status == 200
    [instance] = fake.instances_in(world.channel("general"))
    assert answer["interaction"]["activity_instance_id"] == instance.id
    assert answer["resource"] == {"type": 12, "activity_instance": {"id": instance.id}}
    assert press.answer is not None and press.answer.type == LAUNCH_ACTIVITY
    assert instance.users == [world.bob.id]
    fake.join_activity(instance, world.cat)
    app = world.application_id
    status, shown = call(fake, "GET", f"/applications/{app}/activity-instances/{instance.id}")
    assert status == 200
    assert shown["application_id"] == str(app) and shown["instance_id"] == instance.id
    assert shown["location"] == {
        "id": f"gc-{world.guild_id}-{world.channel('general').id}",
        "kind": "gc",
        "channel_id": str(world.channel("general").id),
        "guild_id": str(world.guild_id),
    }
    assert shown["users"] == [str(world.bob.id), str(world.cat.id)]
    assert fake.take_problems() == []


def test_an_app_without_an_activity_cannot_launch_one(fake: FakeDiscord) -> None:
    press = fake.press(fake.world.bob, board(fake), "Live", send=False)
    status, _ = launch(fake, press)
    assert status == 400 and press.answer is None
    assert fake.instances_in(fake.world.channel("general")) == []
    assert [p for p in fake.take_problems() if "LAUNCH_ACTIVITY" in p]


def test_an_activity_instance_is_read_with_the_bot_token_only(fake: FakeDiscord) -> None:
    instance = fake.start_activity(fake.world.channel("general"), fake.world.ann)
    path = f"/applications/{fake.world.application_id}/activity-instances/"
    assert call(fake, "GET", path + "i-unknown")[0] == 404
    assert call(fake, "GET", path + instance.id, authorization="Bot wrong")[0] == 401
    assert call(fake, "GET", f"/applications/1/activity-instances/{instance.id}")[0] == 403


def test_a_code_is_exchanged_once_for_a_token_that_names_its_user(fake: FakeDiscord) -> None:
    code = fake.authorize(fake.world.ann)
    status, granted = exchange(fake, code)
    assert status == 200 and granted["token_type"] == "Bearer"
    bearer = f"Bearer {granted['access_token']}"
    status, me = call(fake, "GET", "/users/@me", authorization=bearer)
    assert status == 200 and me["id"] == str(fake.world.ann.id) and "bot" not in me
    assert exchange(fake, code) == (400, {"error": "invalid_grant", "error_description": ANY})
    assert call(fake, "GET", "/users/@me", authorization="Bearer nonsense")[0] == 401
    status, bot = call(fake, "GET", "/users/@me")  # the bot's own token still reads the bot
    assert status == 200 and bot["id"] == str(fake.world.bot.id)


def test_a_wrong_code_or_secret_is_refused(fake: FakeDiscord) -> None:
    code = fake.authorize(fake.world.bob)
    assert exchange(fake, "not-a-code")[1]["error"] == "invalid_grant"
    assert exchange(fake, code, secret="wrong") == (401, {"error": "invalid_client"})
    basic = base64.b64encode(f"{fake.world.application_id}:{fake.client_secret}".encode())
    form = {"grant_type": "authorization_code", "code": code}
    status, granted = call(
        fake, "POST", "/oauth2/token", authorization=f"Basic {basic.decode()}", form=form
    )
    assert status == 200 and granted["access_token"]


PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


def upload(
    fake: FakeDiscord,
    data: bytes,
    authorization: str,
    *,
    field: str = "file",
    app: int | None = None,
) -> tuple[int, Any]:
    """An Activity's attachment upload: ``data`` as the one part of a multipart form."""
    boundary = "jarmo-boundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="end.png"\r\n'
        "Content-Type: image/png\r\n\r\n"
    ).encode()
    body = head + data + f"\r\n--{boundary}--\r\n".encode()
    path = f"{fake.api_base_url}/applications/{app or fake.world.application_id}/attachment"
    request = urllib.request.Request(path, data=body, method="POST")
    request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    request.add_header("Authorization", authorization)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def signed_in(fake: FakeDiscord) -> str:
    """Ann's Bearer authorization, as her Activity's server got it."""
    status, granted = exchange(fake, fake.authorize(fake.world.ann))
    assert status == 200
    return f"Bearer {granted['access_token']}"


def test_a_users_token_uploads_an_image_for_the_share_dialog(fake: FakeDiscord) -> None:
    status, answer = upload(fake, PNG, signed_in(fake))
    assert status == 200
    [kept] = fake.app_attachments
    assert (kept.user.id, kept.data, kept.content_type) == (fake.world.ann.id, PNG, "image/png")
    attachment = answer["attachment"]
    assert attachment["id"] == str(kept.id) and attachment["filename"] == "end.png"
    assert attachment["size"] == len(PNG)
    assert attachment["url"].startswith("https://cdn.discordapp.com/ephemeral-attachments/")
    assert fake.take_problems() == []


def test_an_upload_needs_a_users_token_one_image_and_the_size_limit(fake: FakeDiscord) -> None:
    bearer = signed_in(fake)
    assert upload(fake, PNG, "Bearer nonsense")[0] == 401
    assert upload(fake, PNG, f"Bot {fake.token}")[0] == 401  # a user's token, not the bot's
    assert upload(fake, PNG, bearer, app=1)[0] == 403
    assert upload(fake, b"just some text", bearer)[0] == 400
    too_big = PNG + bytes(10 * 1024 * 1024)
    refused = {"message": "Request entity too large", "code": 40005}
    assert upload(fake, too_big, bearer) == (413, refused)
    assert fake.app_attachments == [] and fake.take_problems() == []
    assert upload(fake, PNG, bearer, field="files[0]")[0] == 400
    assert [p for p in fake.take_problems() if "not one part named file" in p]
