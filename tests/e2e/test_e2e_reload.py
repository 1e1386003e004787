"""End to end, in this process: the bot's cogs reloaded while it runs (``reload_extension``)
answer commands and persistent buttons as before, with no command published twice, and the
bot still stops within its limit afterwards."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.ai import search_pool
from bot.client import JarmoBot
from bot.config import BotConfig
from bot.service.computer import ProcessThinker
from tests.e2e.bot_against_fake import point_discord_py_at
from tests.e2e.e2e_play import accept, challenge
from tests.e2e.fake_discord import FakeDiscord

LIMIT_SECONDS = 20.0  # for each condition below, never a synchronisation
STOP_SECONDS = 10.0


@pytest.fixture
def discord_at_fake(fake: FakeDiscord) -> Iterator[None]:
    """discord.py in this process talks to the fake, as the bot process's launcher makes it."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_py_at(fake.api_base_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


@pytest.fixture
def cog_modules() -> Iterator[None]:
    """Put back the ``bot.cogs`` modules the reload replaced, for the other tests' imports."""
    ours = {name: module for name, module in sys.modules.items() if name.startswith("bot.cogs")}
    yield
    for name in [name for name in sys.modules if name.startswith("bot.cogs")]:
        del sys.modules[name]
    sys.modules.update(ours)


@pytest.fixture
def no_computer_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody plays the computer here: its search processes are never started."""

    def idle(cls: type[ProcessThinker], workers: int) -> ProcessThinker:
        return cls(search_pool(workers))

    monkeypatch.setattr(ProcessThinker, "open", classmethod(idle))


async def test_commands_and_buttons_answer_after_the_cogs_reload(
    fake: FakeDiscord,
    discord_at_fake: None,
    cog_modules: None,
    no_computer_processes: None,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = BotConfig(
        token=fake.token,
        database=tmp_path / "jarmo.sqlite3",
        dev_guild_id=fake.world.guild_id,
        computer_workers=1,
    )
    bot = JarmoBot(config)
    world, general = fake.world, fake.world.channel("general")
    async with bot:
        running = asyncio.create_task(bot.start(config.token or ""))
        await asyncio.wait_for(bot.wait_until_ready(), LIMIT_SECONDS)
        published = await asyncio.to_thread(fake.wait_commands, world.guild_id)
        offer = await asyncio.to_thread(challenge, fake, general, world.ann, world.bob)

        await bot.reload_extension("bot.cogs")
        assert sorted(bot.cogs) == ["Announcer", "JarmoCog", "ThreadCog"]
        assert [command.name for command in bot.tree.get_commands()] == ["jarmo"]

        # A button posted before the reload, and a command after it.
        board = await asyncio.to_thread(accept, fake, offer, world.bob)
        player = world.ann if board.content.startswith(world.ann.mention) else world.bob
        grid = await asyncio.to_thread(lambda: fake.press(player, board, "Move").wait_answer())
        assert grid.ephemeral and grid.message is not None
        rules = await asyncio.to_thread(
            lambda: fake.slash(world.cat, general, "jarmo rules").wait_answer()
        )
        assert rules.ephemeral and rules.message is not None
        assert await asyncio.to_thread(fake.wait_commands, world.guild_id) == published

        began = time.monotonic()
        await asyncio.wait_for(bot.close(), STOP_SECONDS)
        assert time.monotonic() - began < STOP_SECONDS
        await asyncio.wait_for(running, LIMIT_SECONDS)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
