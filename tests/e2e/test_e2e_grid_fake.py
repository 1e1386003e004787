"""The fake's Components V2: it refuses what Discord refuses for messages with the
IS_COMPONENTS_V2 flag, so the click grid's tests mean something."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.discord_limits import COMPONENTS_V2, check_components_v2
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Interaction

EPHEMERAL = 64


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


def row(*ids: str) -> dict[str, Any]:
    return {"type": 1, "components": [button(i) for i in ids]}


def grid(rows: int = 5, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """A container like the click grid's: text, an image and ``rows`` rows of five buttons."""
    children = [
        {"type": 10, "content": "Click a piece to move."},
        {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
        *(row(*(f"c{r}{c}" for c in range(5))) for r in range(rows)),
    ]
    if extra:
        children.append(row(*extra))
    return [{"type": 17, "components": children}]


V2 = {"flags": COMPONENTS_V2}
CASES = {
    "the click grid": (V2 | {"components": grid(extra=("back", "later"))}, None),
    "content beside V2": (V2 | {"content": "hi", "components": grid()}, "cannot be used with"),
    "an embed beside V2": (V2 | {"embeds": [{"title": "t"}], "components": grid()}, "embeds"),
    "41 components": (V2 | {"components": grid(rows=6, extra=("x",))}, "41 in all; at most 40"),
    "a custom id twice": (V2 | {"components": grid(extra=("c00",))}, "used twice"),
    "six buttons in a row": (
        V2 | {"components": [{"type": 17, "components": [row(*"abcdef")]}]},
        "1-5 buttons",
    ),
    "a container in a container": (
        V2 | {"components": [{"type": 17, "components": grid()}]},
        "type 17 not allowed",
    ),
    "an empty gallery": (V2 | {"components": [{"type": 12, "items": []}]}, "1-10 items"),
    "a button at the top": (V2 | {"components": [button("b")]}, "cannot stand at the top"),
}


@pytest.mark.parametrize(("payload", "problem"), CASES.values(), ids=CASES.keys())
def test_components_v2_limits(payload: dict[str, Any], problem: str | None) -> None:
    found = check_components_v2(payload, was_v2=False)
    if problem is None:
        assert found == [], found
    else:
        assert any(problem in p for p in found), found


def test_the_v2_flag_stays_once_set() -> None:
    assert check_components_v2({"flags": 0}, was_v2=True) == [
        "flags: IS_COMPONENTS_V2 cannot be removed from a message"
    ]
    assert check_components_v2({"content": "back to text"}, was_v2=True)
    assert check_components_v2({"content": "plain"}, was_v2=False) == []


def call(fake: FakeDiscord, method: str, path: str, body: dict[str, Any]) -> int:
    """A REST call to the fake as a client would make it; returns the HTTP status."""
    request = urllib.request.Request(
        f"{fake.api_base_url}{path}", data=json.dumps(body).encode(), method=method
    )
    request.add_header("Authorization", f"Bot {fake.token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def undispatched(fake: FakeDiscord) -> Interaction:
    """An interaction the fake knows (its callback may be called) but never dispatched: this
    test itself plays the bot."""
    world = fake.world
    interaction = fake.slash(world.ann, world.channel("general"), "jarmo rules", send=False)
    interaction.sent_at = time.monotonic()
    return interaction


def test_a_deferred_answer_cannot_carry_v2_and_the_original_is_edited_instead(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    interaction = undispatched(fake)
    callback = f"/interactions/{interaction.id}/{interaction.token}/callback"
    deferred = {"type": 5, "data": {"flags": EPHEMERAL | COMPONENTS_V2}}
    assert call(fake, "POST", callback, deferred) == 400
    assert "deferred response cannot use IS_COMPONENTS_V2" in fake.take_problems()[0]
    assert call(fake, "POST", callback, {"type": 5, "data": {"flags": EPHEMERAL}}) == 204
    hook = f"/webhooks/{fake.world.application_id}/{interaction.token}"
    text = {"type": 10, "content": "Thinking done."}
    filled = {"flags": COMPONENTS_V2, "components": [text]}
    assert call(fake, "POST", hook, filled) == 400  # a follow-up cannot fill it in with V2
    assert "deferred response cannot use" in fake.take_problems()[0]
    assert call(fake, "PATCH", f"{hook}/messages/@original", filled) == 200
    assert interaction.original is not None
    message = fake.message(interaction.original.id)
    assert message.components_v2 and message.ephemeral and message.texts() == ["Thinking done."]
    assert call(fake, "PATCH", f"{hook}/messages/@original", {"flags": EPHEMERAL}) == 400
    assert "cannot be removed" in fake.take_problems()[0]
    text_only = {"content": "text", "allowed_mentions": {"parse": []}}
    assert call(fake, "PATCH", f"{hook}/messages/@original", text_only) == 400
    assert "cannot be used with IS_COMPONENTS_V2" in " ".join(fake.take_problems())
