"""The fake itself: it refuses what Discord refuses, so the other end-to-end tests mean something.
Also ``python -m bot sync`` against it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from tests.e2e.bot_process import run_sync
from tests.e2e.discord_limits import (
    check_allowed_mentions,
    check_commands,
    check_components_v2,
    check_message,
)
from tests.e2e.fake_discord import FakeDiscord


def command(**changes: object) -> dict[str, object]:
    base = {
        "name": "jarmo",
        "description": "Play Jarmo",
        "type": 1,
        "options": [
            {
                "name": "move",
                "description": "Make a move",
                "type": 1,
                "options": [
                    {"name": "move", "description": "e.g. A1-C2", "type": 3, "required": True},
                    {"name": "note", "description": "optional", "type": 3},
                ],
            }
        ],
    }
    return base | changes


def sub(*options: dict[str, object]) -> list[dict[str, object]]:
    return [{"name": "move", "description": "Make a move", "type": 1, "options": list(options)}]


STRING = {"name": "text", "description": "text", "type": 3}
BAD_COMMANDS = {
    "upper-case name": command(name="Jarmo"),
    "space in name": command(name="jar mo"),
    "name too long": command(name="j" * 33),
    "empty description": command(description=""),
    "description too long": command(description="d" * 101),
    "26 options": command(options=[STRING | {"name": f"o{i}"} for i in range(26)]),
    "required after optional": command(
        options=sub(STRING, STRING | {"name": "must", "required": True})
    ),
    "group inside a subcommand": command(
        options=sub({"name": "g", "description": "g", "type": 2, "options": []})
    ),
    "subcommand beside a plain option": command(
        options=[*sub(), STRING]
    ),
    "26 choices": command(
        options=[STRING | {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]
    ),
    "autocomplete with choices": command(
        options=[STRING | {"autocomplete": True, "choices": [{"name": "a", "value": "a"}]}]
    ),
    "integer choice for a string": command(
        options=[STRING | {"choices": [{"name": "one", "value": 1}]}]
    ),
    "duplicate option names": command(options=[STRING, STRING]),
    "over 4000 characters": command(
        options=[STRING | {"name": f"o{i}", "description": "d" * 100} for i in range(24)]
        + [STRING | {"name": "c", "choices": [
            {"name": "n" * 100, "value": "v" * 100} for _ in range(25)
        ]}]
    ),
}  # fmt: skip


def test_a_valid_command_passes() -> None:
    assert check_commands([command()]) == []


@pytest.mark.parametrize("case", BAD_COMMANDS)
def test_command_limits_are_enforced(case: str) -> None:
    assert check_commands([BAD_COMMANDS[case]]), case


def test_a_command_is_measured_by_its_longest_localization() -> None:
    # Discord counts each name and description at its longest text, the default included: a
    # command that fits in English can still be refused for its German or Polish.
    options = [STRING | {"name": f"o{i}", "description": "d" * 80} for i in range(24)]
    choices = [{"name": f"n{i}", "value": f"v{i}"} for i in range(25)]
    english = command(options=[*options, STRING | {"name": "c", "choices": choices}])
    assert check_commands([english]) == []
    localized = [
        option | {"description_localizations": {"de": "d" * 80, "pl": "p" * 100}}
        for option in options
    ]
    long_choices = [choice | {"name_localizations": {"eo": "n" * 100}} for choice in choices]
    refused = command(options=[*localized, STRING | {"name": "c", "choices": long_choices}])
    assert check_commands([refused]) == [
        "commands[0]: 5047 characters in names, descriptions and choices (max 4000)"
    ]


def test_two_commands_with_one_name_are_refused() -> None:
    assert check_commands([command(), command()])


@pytest.mark.parametrize(
    ("mentions", "ok"),
    [
        ({"parse": [], "users": ["1"]}, True),
        ({"parse": ["users"]}, True),
        ({"parse": ["everyone"]}, False),
        ({"parse": ["roles"]}, False),
        ({"parse": [], "roles": ["5"]}, False),
        (None, False),
    ],
)
def test_allowed_mentions_must_never_reach_everyone_or_roles(
    mentions: dict[str, list[str]] | None, ok: bool
) -> None:
    payload = {"content": "hello <@1>", "allowed_mentions": mentions}
    assert (check_allowed_mentions(payload, required=True) == []) is ok


def test_message_limits_are_enforced() -> None:
    assert check_message({"content": "x" * 2001}, creating=True, files=0)
    assert check_message({}, creating=True, files=0)  # empty
    assert check_message({"embeds": [{"title": "t" * 257}]}, creating=True, files=0)
    assert check_message({"content": "ok"}, creating=True, files=0) == []
    button = {"type": 2, "style": 1, "label": "b", "custom_id": "x" * 101}
    rows = [{"type": 1, "components": [button]}]
    assert check_message({"content": "ok", "components": rows}, creating=True, files=0)


def test_a_files_alternative_text_is_held_to_discords_limit() -> None:
    def attached(description: object) -> dict[str, Any]:
        return {"content": "ok", "attachments": [{"id": "0", "description": description}]}

    assert check_message(attached("d" * 1024), creating=True, files=1) == []
    assert check_message(attached("d" * 1025), creating=True, files=1)
    assert check_message(attached(7), creating=True, files=1)
    gallery: dict[str, Any] = {"type": 12, "items": [{"media": {"url": "attachment://a.png"}}]}
    gallery["items"][0]["description"] = "d" * 1025
    v2 = {"flags": 32768, "components": [gallery]}
    assert check_components_v2(v2, was_v2=True)
    gallery["items"][0]["description"] = "the board"
    assert check_components_v2(v2, was_v2=True) == []


def test_unknown_routes_are_answered_404_and_recorded(fake: FakeDiscord) -> None:
    request = urllib.request.Request(f"{fake.api_base_url}/guilds/1/bans", method="GET")
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=10)
    assert error.value.code == 404
    assert json.loads(error.value.read())["message"] == "404: Not Found"
    assert fake.take_problems() == ["unknown route: GET /guilds/1/bans"]


def test_rest_calls_need_the_bot_token(fake: FakeDiscord) -> None:
    request = urllib.request.Request(f"{fake.api_base_url}/users/@me")
    request.add_header("Authorization", "Bot wrong")
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=10)
    assert error.value.code == 401


def test_python_m_bot_sync_publishes_the_commands(fake: FakeDiscord, tmp_path: Path) -> None:
    result = run_sync(fake, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert fake.token not in result.stdout + result.stderr
    guild = fake.world.guild_id
    assert [scope for scope, _ in fake.command_puts] == [guild]
    [jarmo] = fake.commands[guild]
    assert jarmo["name"] == "jarmo" and len(jarmo["options"]) >= 9
    # Syncing again keeps the command's id, as Discord does for an unchanged name.
    again = run_sync(fake, tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert fake.commands[guild][0]["id"] == jarmo["id"]
    assert not fake.sessions_started, "sync must not connect to the gateway"


def test_python_m_bot_sync_without_a_dev_guild_publishes_globally(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    before = len(fake.command_puts)
    result = run_sync(fake, tmp_path, dev_guild=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert [scope for scope, _ in fake.command_puts[before:]] == [None]
    assert [c["name"] for c in fake.commands[None]] == ["jarmo"]


class Misbehaving(discord.Client):
    """A discord.py client that breaks one of Discord's rules per subcommand of /oops."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none()
        )
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        subcommands = [
            {"name": name, "description": f"answer {name}", "type": 1}
            for name in ("late", "everyone", "orphan", "fine")
        ]
        command = {"name": "oops", "description": "Break a rule", "options": subcommands}
        assert self.application_id is not None
        await self.http.bulk_upsert_guild_commands(self.application_id, self.guild_id, [command])

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # The fake refuses some answers; swallow that here (a traceback formatted in this
        # thread while pytest formats one can trip a CPython 3.11 ast bug).
        with contextlib.suppress(discord.HTTPException):
            await self._misbehave(interaction)

    async def _misbehave(self, interaction: discord.Interaction) -> None:
        what = interaction.data["options"][0]["name"]  # type: ignore[index, typeddict-item]  # a slash command's
        response = interaction.response
        if what == "late":
            await asyncio.sleep(0.6)
            await response.send_message("sorry I'm late")
        elif what == "everyone":
            everyone = discord.AllowedMentions(everyone=True)
            await response.send_message("@everyone look", allowed_mentions=everyone)
        elif what == "orphan":
            embed = discord.Embed(title="no file").set_image(url="attachment://missing.png")
            await response.send_message(embed=embed)
        else:
            await response.send_message("fine")


async def _cancel_the_rest() -> None:
    """Cancel what the closed client left running (its ready timer) before the loop closes."""
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@pytest.fixture
def strict_fake() -> Iterator[FakeDiscord]:
    """A fake with a short answer deadline, and discord.py pointed at it in this process."""
    # Plain text gateway frames here (the bot process gets zlib-stream): discord.py reads both.
    server = FakeDiscord(answer_deadline=0.3, compress=False).start()
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = server.api_base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever)
    thread.start()
    client = Misbehaving(server.world.guild_id)
    running = asyncio.run_coroutine_threadsafe(client.start(server.token), loop)
    try:
        server.wait_session(1)
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(client.close(), loop).result(10)
        running.result(10)
        asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
        server.close()


@pytest.mark.parametrize(
    ("subcommand", "problem"),
    [
        ("late", "answered after"),
        ("everyone", "could ping @everyone"),
        ("orphan", "attachment://missing.png, which is not attached"),
    ],
)
def test_the_fake_catches_a_client_breaking_the_rules(
    strict_fake: FakeDiscord, subcommand: str, problem: str
) -> None:
    world = strict_fake.world
    strict_fake.slash(world.ann, world.channel("general"), f"oops {subcommand}")
    strict_fake.wait_until(lambda: strict_fake.problems, 10, "a problem to be recorded")
    assert problem in " ".join(strict_fake.take_problems())
    fine = strict_fake.slash(world.ann, world.channel("general"), "oops fine").wait_answer()
    assert fine.content == "fine" and not strict_fake.take_problems()
