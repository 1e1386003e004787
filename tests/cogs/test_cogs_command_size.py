"""Every command fits Discord's size limit in every language it is published in: Discord refuses
the whole sync, and the bot does not start, when one command's names, descriptions and choices
pass 4000 characters, each text counted at its longest localization."""

from __future__ import annotations

from bot.client import JarmoBot
from bot.cogs import CatalogueTranslator, setup
from bot.config import BotConfig
from tests.e2e.discord_limits import MAX_COMMAND_CHARACTERS, command_characters


async def test_every_command_fits_discords_size_in_its_longest_localizations() -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    translator = CatalogueTranslator()
    sizes = {
        command.name: command_characters(await command.get_translated_payload(bot.tree, translator))
        for command in bot.tree.get_commands()
    }
    assert sizes and all(size <= MAX_COMMAND_CHARACTERS for size in sizes.values()), sizes
