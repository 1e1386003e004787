"""The fake itself, for an app installed to users: the places outside the bot's servers, the
interactions Discord sends from them, and the limits it sets there. Each test plays the bot
through plain REST calls, so no bot process runs."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import (
    EPHEMERAL,
    MEMBER_PERMISSIONS,
    PRIVATE_APP_PERMISSIONS,
    USE_EXTERNAL_APPS,
    USE_EXTERNAL_EMOJIS,
    Interaction,
)

EVERYWHERE = {
    "name": "jarmo",
    "description": "Play Jarmo",
    "type": 1,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
    "options": [{"name": "rules", "description": "The rules", "type": 1}],
}
SERVERS_ONLY = {
    "name": "settings",
    "description": "Server settings",
    "type": 1,
    "integration_types": [0],
    "contexts": [0],
}
TEXT = {"content": "hello", "allowed_mentions": {"parse": []}}
BUTTON = {
    "content": "board",
    "allowed_mentions": {"parse": []},
    "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
    ],
}


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord().start()
    status, _ = call(
        server, "PUT", f"/applications/{server.world.application_id}/commands",
        [EVERYWHERE, SERVERS_ONLY],
    )  # fmt: skip
    assert status == 200
    yield server
    server.close()


def call(fake: FakeDiscord, method: str, path: str, body: object) -> tuple[int, Any]:
    """A REST call to the fake as the bot makes it: the HTTP status and the JSON answer."""
    request = urllib.request.Request(
        f"{fake.api_base_url}{path}", data=json.dumps(body).encode(), method=method
    )
    request.add_header("Authorization", f"Bot {fake.token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return int(response.status), json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def arrived(interaction: Interaction) -> Interaction:
    """The interaction as if dispatched just now (this test plays the bot)."""
    interaction.sent_at = time.monotonic()
    return interaction


def answer(fake: FakeDiscord, interaction: Interaction, data: dict[str, Any]) -> int:
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    return call(fake, "POST", path, {"type": 4, "data": data})[0]


def hook(fake: FakeDiscord, interaction: Interaction) -> str:
    return f"/webhooks/{fake.world.application_id}/{interaction.token}"


def test_a_slash_outside_the_servers_needs_the_users_own_install(fake: FakeDiscord) -> None:
    world = fake.world
    place = fake.group_dm(world.ann, world.bob)
    with pytest.raises(AssertionError, match="never installed the app"):
        fake.slash(world.ann, place, "jarmo rules", send=False)
    fake.install_for(world.ann)
    payload = fake.slash(world.ann, place, "jarmo rules", send=False).payload
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    assert payload["user"]["id"] == str(world.ann.id)
    assert "member" not in payload and "guild_id" not in payload and "guild" not in payload
    assert payload["channel"]["type"] == 3 and payload["channel"]["name"] is None
    assert [u["id"] for u in payload["channel"]["recipients"]] == [
        str(world.ann.id),
        str(world.bob.id),
    ]
    assert int(payload["app_permissions"]) == PRIVATE_APP_PERMISSIONS
    with pytest.raises(AssertionError, match="never installed the app"):
        fake.slash(world.bob, place, "jarmo rules", send=False)


def test_a_dm_between_users_and_the_bots_own_dm_are_told_apart(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    between = fake.slash(world.ann, fake.dm(world.ann, world.bob), "jarmo rules", send=False)
    assert between.payload["context"] == 2 and between.payload["channel"]["type"] == 1
    assert len(between.payload["channel"]["recipients"]) == 2
    own = fake.slash(world.ann, fake.bot_dm(world.ann), "jarmo rules", send=False).payload
    assert own["context"] == 1 and own["channel"]["type"] == 1
    assert int(own["app_permissions"]) == PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS
    assert own["authorizing_integration_owners"] == {"0": "0", "1": str(world.ann.id)}
    # Bob never installed it, but the server install reaches the bot's DM.
    bobs = fake.slash(world.bob, fake.bot_dm(world.bob), "jarmo rules", send=False).payload
    assert bobs["authorizing_integration_owners"] == {"0": "0"}


def test_in_the_bots_server_the_owners_name_the_server_and_an_installer(
    fake: FakeDiscord,
) -> None:
    world = fake.world
    general = world.channel("general")
    plain = fake.slash(world.bob, general, "jarmo rules", send=False).payload
    assert plain["authorizing_integration_owners"] == {"0": str(world.guild_id)}
    assert plain["context"] == 0 and "permissions" in plain["member"] and "user" not in plain
    fake.install_for(world.ann)
    both = fake.slash(world.ann, general, "jarmo rules", send=False).payload
    assert both["authorizing_integration_owners"] == {
        "0": str(world.guild_id),
        "1": str(world.ann.id),
    }
    only_server = fake.slash(world.ann, general, "settings", send=False).payload
    assert only_server["authorizing_integration_owners"] == {"0": str(world.guild_id)}


def test_a_command_is_refused_where_its_contexts_and_installs_do_not_reach(
    fake: FakeDiscord,
) -> None:
    world = fake.world
    fake.install_for(world.ann)
    with pytest.raises(AssertionError, match="not offered in context 2"):
        fake.slash(world.ann, fake.group_dm(world.ann, world.bob), "settings", send=False)
    with pytest.raises(AssertionError, match="never installed the app"):
        fake.slash(world.ann, fake.user_install_guild(), "settings", send=False)


def test_a_server_without_the_bot_is_served_as_a_user_install(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    place = fake.user_install_guild()
    payload = fake.slash(world.ann, place, "jarmo rules", send=False).payload
    assert payload["guild_id"] == str(place.guild_id) != str(world.guild_id)
    assert payload["context"] == 0 and payload["channel"]["type"] == 0
    assert payload["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    assert int(payload["member"]["permissions"]) & USE_EXTERNAL_APPS
    assert int(payload["app_permissions"]) == MEMBER_PERMISSIONS


def test_without_external_apps_every_answer_is_forced_private(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    place = fake.user_install_guild(external_apps=False)
    interaction = arrived(fake.slash(world.ann, place, "jarmo rules", send=False))
    assert not int(interaction.payload["member"]["permissions"]) & USE_EXTERNAL_APPS
    assert answer(fake, interaction, TEXT) == 204
    status, followup = call(fake, "POST", hook(fake, interaction) + "?wait=true", TEXT)
    assert status == 200 and followup["flags"] & EPHEMERAL
    assert interaction.original is not None and interaction.original.ephemeral
    assert fake.channel_messages(place) == []
    assert [m.content for m in fake.visible_messages(place, world.ann)] == ["hello", "hello"]
    assert fake.visible_messages(place, world.bob) == []
    assert fake.take_problems() == []


def test_anyone_may_press_a_button_of_an_installers_message(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    place = fake.group_dm(world.ann, world.bob)
    challenge = arrived(fake.slash(world.ann, place, "jarmo rules", send=False))
    assert answer(fake, challenge, BUTTON) == 204
    [board] = fake.channel_messages(place)
    press = fake.press(world.bob, board, "Go", send=False)
    assert press.payload["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    assert press.payload["user"]["id"] == str(world.bob.id)
    assert press.payload["context"] == 2 and "member" not in press.payload
    assert fake.take_problems() == []


def test_at_most_five_followups_outside_the_apps_servers(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    interaction = arrived(
        fake.slash(world.ann, fake.dm(world.ann, world.bob), "jarmo rules", send=False)
    )
    assert answer(fake, interaction, TEXT) == 204
    for _ in range(5):
        assert call(fake, "POST", hook(fake, interaction), TEXT)[0] == 204
    assert fake.take_problems() == []
    status, error = call(fake, "POST", hook(fake, interaction), TEXT)
    assert status == 400 and error["code"] == 40094
    assert "more than 5 follow-ups" in fake.take_problems()[0]
    # Editing the original answer is not capped.
    assert call(fake, "PATCH", hook(fake, interaction) + "/messages/@original", TEXT)[0] == 200


def test_followups_in_the_bots_server_are_not_capped(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    general = world.channel("general")
    interaction = arrived(fake.slash(world.ann, general, "jarmo rules", send=False))
    assert answer(fake, interaction, TEXT) == 204
    for _ in range(7):
        assert call(fake, "POST", hook(fake, interaction), TEXT)[0] == 204
    assert fake.take_problems() == []


def test_a_token_older_than_fifteen_minutes_is_refused(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    place = fake.group_dm(world.ann, world.bob)
    interaction = arrived(fake.slash(world.ann, place, "jarmo rules", send=False))
    assert answer(fake, interaction, TEXT) == 204
    fake.age_interaction(interaction, 14 * 60)
    assert call(fake, "PATCH", hook(fake, interaction) + "/messages/@original", TEXT)[0] == 200
    fake.age_interaction(interaction, 61)
    status, error = call(fake, "PATCH", hook(fake, interaction) + "/messages/@original", TEXT)
    assert (status, error["code"]) == (401, 50027)
    status, error = call(fake, "POST", hook(fake, interaction), TEXT)
    assert (status, error["code"]) == (401, 50027)
    assert len([p for p in fake.take_problems() if "token used after" in p]) == 2


def test_the_bot_cannot_post_by_itself_where_it_is_not(fake: FakeDiscord) -> None:
    world = fake.world
    fake.install_for(world.ann)
    group = fake.group_dm(world.ann, world.bob)
    for place in (group, fake.dm(world.ann, world.bob), fake.user_install_guild()):
        status, error = call(fake, "POST", f"/channels/{place.id}/messages", TEXT)
        assert (status, error["code"]) == (403, 50001)
        assert "where it is not" in fake.take_problems()[0]
    interaction = arrived(fake.slash(world.ann, group, "jarmo rules", send=False))
    assert answer(fake, interaction, TEXT) == 204
    [message] = fake.channel_messages(group)
    thread = f"/channels/{group.id}/messages/{message.id}/threads"
    assert call(fake, "POST", thread, {"name": "game"})[0] == 403
    edit = f"/channels/{group.id}/messages/{message.id}"
    assert call(fake, "PATCH", edit, TEXT)[0] == 403
    assert len(fake.take_problems()) == 2


def test_the_bot_may_still_open_and_post_in_its_own_dm(fake: FakeDiscord) -> None:
    world = fake.world
    place = fake.bot_dm(world.ann)
    status, channel = call(fake, "POST", "/users/@me/channels", {"recipient_id": str(world.ann.id)})
    assert status == 200 and channel["id"] == str(place.id)
    assert call(fake, "POST", f"/channels/{place.id}/messages", TEXT)[0] == 200
    assert [m.content for m in fake.channel_messages(place)] == ["hello"]
    assert fake.take_problems() == []
