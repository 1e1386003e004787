"""The slash commands in the reader's language: names, descriptions, options and choices.

Discord shows each user the command texts of their client's locale, from localizations the bot
publishes with its commands. discord.py asks an ``app_commands.Translator`` for every text in
every Discord locale; this one answers from the ``commands`` catalogue, where each English text
carries its place as a gettext context (``"parameter name"``, ``"choice name"``, …): a name
obeys Discord's rules for names, a description does not. No translation means no localization,
and Discord shows the English.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.cogs.group import JarmoCog
from bot.cogs.tree import JarmoTree
from bot.i18n import ENGLISH, Catalogue, catalogue

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "commands"

# The gettext context of each place a command text can stand.
CONTEXTS = {
    Where.command_name: "command name",
    Where.command_description: "command description",
    Where.group_name: "group name",
    Where.group_description: "group description",
    Where.parameter_name: "parameter name",
    Where.parameter_description: "parameter description",
    Where.choice_name: "choice name",
    Where.other: "other",
}
NAME_CONTEXTS = frozenset({"command name", "group name", "parameter name"})


@dataclass(frozen=True, slots=True, order=True)
class CommandText:
    """One text of the slash commands as Discord asks for it: the English and its place."""

    context: str
    message: str


@functools.cache
def command_words(language: str) -> Catalogue:
    """The command texts in ``language`` (a Discord locale such as ``pl`` or ``pt-BR``)."""
    return catalogue(LOCALE, DOMAIN, language)


class CatalogueTranslator(app_commands.Translator):
    """Localizes the commands from the ``commands`` catalogue, for every Discord locale that
    has a translation."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        words = command_words(locale.value)
        if words.language == ENGLISH:
            return None
        translated = words.pgettext(CONTEXTS[context.location], string.message)
        return None if translated == string.message else translated


class _Recorder(app_commands.Translator):
    """Notes every text discord.py would have translated, and translates none."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[CommandText] = set()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if any(character.isalpha() for character in string.message):  # not the counts 1, 2, 4
            self.seen.add(CommandText(CONTEXTS[context.location], string.message))
        return None


async def command_texts() -> list[CommandText]:
    """Every text of the bot's slash commands that can be localized, as the catalogue lists
    them: read from the command tree itself, so a new command or option is never left out."""
    bot = commands.Bot(
        command_prefix=commands.when_mentioned, tree_cls=JarmoTree, intents=discord.Intents.none()
    )
    await bot.add_cog(JarmoCog())
    return sorted(await _recorded_texts(bot.tree, bot.tree.get_commands()))


async def _recorded_texts(
    tree: app_commands.CommandTree[Any], tree_commands: Iterable[Any]
) -> set[CommandText]:
    """The localizable texts of ``tree_commands``, as discord.py hands them to a translator."""
    recorder = _Recorder()
    for command in tree_commands:
        await command.get_translated_payload(tree, recorder)
    return recorder.seen
