"""The slash commands users see: one ``/jarmo`` made of every feature's cog, exactly as it was
published before the cogs were split (``jarmo_commands.json``, Discord's payload)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import JarmoBot
from bot.cogs import FEATURES, JarmoTree, setup
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


async def test_each_feature_cog_owns_its_sub_commands() -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    group = bot.tree.get_command("jarmo")
    assert isinstance(group, app_commands.Group)
    commands = [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]
    owners = {command.name: type(command.binding) for command in commands}
    assert {owner for owner in owners.values()} == set(FEATURES)
    assert owners["move"].__name__ == "PlayCog" and owners["pause"].__name__ == "ClockCog"
    assert all(command.parent is group for command in group.commands)


@app_commands.guild_only()
class First(commands.GroupCog, group_name="game", group_description="A game"):
    @app_commands.command()
    async def one(self, interaction: discord.Interaction[Any]) -> None:
        """The first."""


class Second(commands.GroupCog, group_name="game", group_description="Ignored"):
    @app_commands.command()
    async def two(self, interaction: discord.Interaction[Any]) -> None:
        """The second."""


class Other(commands.GroupCog, group_name="other", group_description="Another group"):
    @app_commands.command()
    async def three(self, interaction: discord.Interaction[Any]) -> None:
        """The third."""


async def test_group_cogs_of_one_name_share_the_first_ones_group() -> None:
    bot = commands.Bot(
        command_prefix=commands.when_mentioned, tree_cls=JarmoTree, intents=discord.Intents.none()
    )
    first, second = First(), Second()
    for cog in (first, second, Other()):
        await bot.add_cog(cog)
    assert sorted(command.name for command in bot.tree.get_commands()) == ["game", "other"]
    game = bot.tree.get_command("game")
    assert isinstance(game, app_commands.Group)
    assert game.description == "A game" and game.guild_only
    one, two = game.get_command("one"), game.get_command("two")
    assert isinstance(one, app_commands.Command) and one.binding is first
    assert (
        isinstance(two, app_commands.Command)
        and two.binding is second
        and two.qualified_name == "game two"
    )
