"""The slash commands users see: one ``/jarmo`` group, one cog made of every feature's commands,
exactly as it was published before (``jarmo_commands.json``, Discord's payload); and the cog
unloads and loads again as a unit, with its persistent components."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.client import JarmoBot
from bot.cogs import DYNAMIC_ITEMS, FEATURES, JarmoCog, setup
from bot.config import BotConfig

PUBLISHED = Path(__file__).with_name("jarmo_commands.json")


async def published_commands() -> list[dict[str, Any]]:
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


async def test_the_commands_are_exactly_those_users_know() -> None:
    # Names, descriptions, options, choices, limits and order: a change would re-publish the
    # commands and change what players read.
    assert await published_commands() == json.loads(PUBLISHED.read_text())


async def test_each_feature_defines_its_sub_commands_of_the_one_cog() -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    group = bot.tree.get_command("jarmo")
    assert isinstance(group, app_commands.Group)
    commands = [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]
    features = {feature.__name__ for feature in FEATURES}
    owners = {
        command.qualified_name: command.callback.__qualname__.split(".")[0] for command in commands
    }
    assert set(owners.values()) == features
    assert owners["jarmo move"] == "PlayCommands" and owners["jarmo pause"] == "ClockCommands"
    assert owners["jarmo tournament standings"] == "TournamentCommands"
    assert owners["jarmo standings"] == "PlayCommands"
    cog = bot.get_cog("JarmoCog")
    assert isinstance(cog, JarmoCog) and bot.cogs.keys() == {"JarmoCog"}
    assert all(command.binding is cog for command in commands)
    assert all(command.parent is group for command in group.commands)


@pytest.fixture
def cog_modules() -> Iterator[None]:
    """Put back the ``bot.cogs`` modules a reload replaced, so that the other tests' classes
    are still the ones the code in ``sys.modules`` uses."""
    ours = {name: module for name, module in sys.modules.items() if _in_cogs(name)}
    yield
    for name in [name for name in sys.modules if _in_cogs(name)]:
        del sys.modules[name]
    sys.modules.update(ours)


def _in_cogs(name: str) -> bool:
    return name == "bot.cogs" or name.startswith("bot.cogs.")


def payload(bot: JarmoBot) -> list[dict[str, Any]]:
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


def persistent_templates(bot: JarmoBot) -> set[str]:
    """The custom-id templates of the persistent components the bot answers."""
    dynamic = bot._connection._view_store._dynamic_items  # no public way to list them
    return {pattern.pattern for pattern in dynamic}


async def test_the_commands_unload_and_load_again_as_one_group(cog_modules: None) -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    await bot.load_extension("bot.cogs")
    loaded = sys.modules["bot.cogs"]
    published, templates = payload(bot), persistent_templates(bot)
    assert published == json.loads(PUBLISHED.read_text())
    assert len(templates) == len(DYNAMIC_ITEMS)

    await bot.unload_extension("bot.cogs")
    assert bot.tree.get_commands() == [] and bot.cogs == {}
    assert persistent_templates(bot) == set()

    await bot.load_extension("bot.cogs")
    assert payload(bot) == published and persistent_templates(bot) == templates

    await bot.reload_extension("bot.cogs")  # new modules, new classes: nothing left twice
    assert payload(bot) == published and persistent_templates(bot) == templates
    reloaded = sys.modules["bot.cogs"]
    assert reloaded is not loaded
    assert set(bot._connection._view_store._dynamic_items.values()) == set(reloaded.DYNAMIC_ITEMS)
