"""The commands offer exactly the settings the service accepts: their choices are the engine's
own rulesets and match lengths, and the service's computer levels, not lists kept twice."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.client import JarmoBot
from bot.cogs import setup
from bot.cogs.transformers import OneOf
from bot.config import BotConfig
from bot.jarmo import RULESETS
from bot.jarmo.match import MATCH_LENGTHS
from bot.service.challenges import COMPUTER_LEVELS


async def option_choices(*path: str) -> dict[str, list[Any]]:
    """Each option of the ``/jarmo`` sub-command at ``path`` with the values it offers."""
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    (group,) = [c for c in bot.tree.get_commands() if c.name == "jarmo"]
    command = group.to_dict(bot.tree)
    for name in path:
        (command,) = [option for option in command["options"] if option["name"] == name]
    return {
        option["name"]: [choice["value"] for choice in option.get("choices", [])]
        for option in command["options"]
    }


async def test_a_challenge_offers_the_engines_rulesets_and_match_lengths() -> None:
    choices = await option_choices("challenge")
    assert choices["ruleset"] == list(RULESETS)
    assert choices["games"] == list(MATCH_LENGTHS)
    assert choices["level"] == list(COMPUTER_LEVELS)


@pytest.mark.parametrize("path", [("tournament", "create"), ("leaderboard",), ("stats",)])
async def test_other_commands_offer_the_engines_rulesets(path: tuple[str, ...]) -> None:
    assert (await option_choices(*path))["ruleset"] == list(RULESETS)


async def test_a_choice_arrives_as_the_value_chosen() -> None:
    lengths = OneOf(MATCH_LENGTHS)
    assert [choice.name for choice in lengths.choices] == [str(n) for n in MATCH_LENGTHS]
    nobody = cast("discord.Interaction[JarmoBot]", None)  # the value alone decides
    assert await lengths.transform(nobody, 4) == 4
