"""The tree's answers to a full database: the player is told that the bot cannot save and that
nothing changed; the operator gets one warning with the database's own reason, no traceback."""

from __future__ import annotations

import logging

import pytest

from bot.client import JarmoBot
from bot.config import BotConfig
from bot.store import StoreFull
from tests.cogs.test_cogs_failures import interaction_with, invoke_error, private_answer


@pytest.fixture
def bot() -> JarmoBot:
    return JarmoBot(BotConfig(), serve=False)


async def test_a_full_database_is_told_and_logged_once_with_its_cause(
    bot: JarmoBot, caplog: pytest.LogCaptureFixture
) -> None:
    interaction = interaction_with(bot)
    with caplog.at_level(logging.DEBUG, logger="bot.cogs.tree"):
        await bot.tree.on_error(interaction, invoke_error(StoreFull("database or disk is full")))
    answer = private_answer(interaction)
    assert "cannot save" in answer and "nothing was changed" in answer
    [logged] = caplog.records
    assert logged.levelno == logging.WARNING and logged.exc_info is None
    assert logged.getMessage() == "/jarmo move could not be saved: database or disk is full"
