"""A fresh install needs no `jarmo-bot sync`: `run` publishes the slash commands by itself, and
a restart with the same commands publishes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.fake_discord import FakeDiscord

GUILD_COMMANDS = r"/applications/\d+/guilds/\d+/commands"
GLOBAL_COMMANDS = r"/applications/\d+/commands"
LIMIT = 30.0


def published(fake: FakeDiscord, route: str) -> int:
    return len(fake.requests_to("PUT", route))


def looked_up(fake: FakeDiscord, route: str) -> int:
    return len(fake.requests_to("GET", route))


@pytest.mark.parametrize(
    ("dev_guild", "route"),
    [(True, GUILD_COMMANDS), (False, GLOBAL_COMMANDS)],
    ids=["development guild", "global"],
)
def test_run_publishes_once_and_a_restart_publishes_nothing(
    fake: FakeDiscord, tmp_path: Path, dev_guild: bool, route: str
) -> None:
    bot = BotProcess(fake, tmp_path, dev_guild=dev_guild)
    before = published(fake, route)
    bot.start()
    try:
        scope = fake.world.guild_id if dev_guild else None
        names = [command["name"] for command in fake.wait_commands(scope, LIMIT)]
        assert names == ["jarmo"]
        fake.wait_until(lambda: published(fake, route) > before, LIMIT, "the commands published")
    finally:
        assert bot.stop()[0] == 0
    assert published(fake, route) == before + 1

    asked = looked_up(fake, route)
    bot.start()
    try:
        # The second start asks Discord what it lists, sees its own commands, and stops there.
        fake.wait_until(lambda: looked_up(fake, route) > asked, LIMIT, "the commands looked up")
        fake.wait_idle()
        assert published(fake, route) == before + 1
    finally:
        assert bot.stop()[0] == 0
