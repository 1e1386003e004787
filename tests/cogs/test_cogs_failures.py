"""Every failure is answered in one place, the command tree's ``on_error``: a refusal privately
with its message, anything else logged with who and where, and a private apology that gives
nothing away. Buttons reach it through their base class; bad move text through its
transformer."""

from __future__ import annotations

import logging
from typing import Any
from unittest import mock

import discord
import pytest
from discord import app_commands

from bot.client import JarmoBot
from bot.cogs import ResignButton
from bot.cogs.tree import SORRY, ComponentError
from bot.config import BotConfig
from bot.service import Code, NotYourTurn
from bot.store import StoreBusy

SECRET = "token=abc123 at /home/jarmo/secret.db"


def interaction_with(bot: JarmoBot, *, user_id: int = 5, answered: bool = False) -> Any:
    """An interaction in a server channel, answered already or not, from ``user_id``."""
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    interaction.client = bot
    interaction.user = mock.Mock(id=user_id)
    interaction.guild_id, interaction.channel_id = 10, 20
    interaction.locale = interaction.guild_locale = discord.Locale.british_english
    interaction.command = mock.Mock(qualified_name="jarmo move")
    interaction.response = mock.create_autospec(discord.InteractionResponse, instance=True)
    interaction.response.is_done.return_value = answered
    interaction.followup = mock.create_autospec(discord.Webhook, instance=True)
    return interaction


@pytest.fixture
def bot() -> JarmoBot:
    return JarmoBot(BotConfig(), serve=False)


def invoke_error(error: Exception) -> app_commands.CommandInvokeError:
    return app_commands.CommandInvokeError(mock.Mock(name="move"), error)


def private_answer(interaction: Any) -> str:
    """The text of the one private answer the interaction got."""
    calls = interaction.response.send_message.await_args_list
    calls += interaction.followup.send.await_args_list
    [call] = calls
    assert call.kwargs["ephemeral"] is True
    return str(call.args[0])


async def test_a_refusal_is_answered_privately_with_its_message(
    bot: JarmoBot, caplog: pytest.LogCaptureFixture
) -> None:
    interaction = interaction_with(bot)
    with caplog.at_level(logging.DEBUG, logger="bot.cogs.tree"):
        refusal = NotYourTurn(Code.COMPUTER_THINKING)
        await bot.tree.on_error(interaction, invoke_error(refusal))
    assert private_answer(interaction) == "Wait for the computer's move, then ask for a hint."
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]


async def test_a_busy_database_is_a_refusal_too(bot: JarmoBot) -> None:
    interaction = interaction_with(bot, answered=True)  # after a defer: a follow-up
    await bot.tree.on_error(interaction, invoke_error(StoreBusy(2.0)))
    assert "busy" in private_answer(interaction)


async def test_a_fault_is_logged_with_context_and_apologised_for(
    bot: JarmoBot, caplog: pytest.LogCaptureFixture
) -> None:
    interaction = interaction_with(bot)
    await bot.tree.on_error(interaction, invoke_error(RuntimeError(SECRET)))
    assert private_answer(interaction) == SORRY
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert record.getMessage() == "/jarmo move failed (user 5, guild 10, channel 20)"


async def test_a_failed_apology_is_only_a_warning(
    bot: JarmoBot, caplog: pytest.LogCaptureFixture
) -> None:
    interaction = interaction_with(bot)
    failure = discord.HTTPException(mock.Mock(status=404, reason="Not Found"), "Unknown")
    interaction.response.send_message.side_effect = failure
    await bot.tree.on_error(interaction, invoke_error(NotYourTurn(Code.COMPUTER_THINKING)))
    assert [r.levelname for r in caplog.records] == ["WARNING"]


async def test_a_components_failure_is_named_by_the_component(
    bot: JarmoBot, caplog: pytest.LogCaptureFixture
) -> None:
    interaction = interaction_with(bot)
    await bot.tree.on_error(interaction, ComponentError(KeyError(SECRET), "stop"))
    assert private_answer(interaction) == SORRY
    assert caplog.records[0].getMessage().startswith("stop failed (user 5")


async def test_a_button_refusal_reaches_the_trees_handler(bot: JarmoBot) -> None:
    interaction = interaction_with(bot, user_id=6)
    await ResignButton(game_id=1, user_id=5).callback(interaction)
    assert private_answer(interaction) == "This button is not for you. Use /jarmo resign yourself."


async def test_a_button_fault_reaches_the_trees_handler(
    bot: JarmoBot, caplog: pytest.LogCaptureFixture
) -> None:
    interaction = interaction_with(bot, user_id=5)  # the bot was never set up: no service
    await ResignButton(game_id=1, user_id=5).callback(interaction)
    assert private_answer(interaction) == SORRY
    assert caplog.records[0].getMessage().startswith("resign failed (user 5")
