"""The slash commands in Polish and German: what the translator publishes obeys Discord's rules
for localized names and descriptions, and English stays the default everywhere else."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.client import JarmoBot
from bot.cogs import JarmoTree, setup
from bot.cogs.translator import CatalogueTranslator, command_texts

LOCALIZED = ("pl", "de")  # the Discord locales with a translation
NAME_LIMIT, DESCRIPTION_LIMIT, CHOICE_LIMIT = 32, 100, 100


async def translated_payload() -> list[dict[str, Any]]:
    bot = commands.Bot(
        command_prefix=commands.when_mentioned, tree_cls=JarmoTree, intents=discord.Intents.none()
    )
    await setup(cast(JarmoBot, bot))  # a bare bot will do: the commands need nothing of it
    translator = CatalogueTranslator()
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


def is_discord_name(name: str) -> bool:
    """Discord's rule for command and option names: 1-32 of letters, digits, - and _ (any
    script), lowercase wherever a letter has a lowercase form."""
    allowed = all(
        character in "-_" or unicodedata.category(character)[0] in "LN" for character in name
    )
    return 1 <= len(name) <= NAME_LIMIT and allowed and name == name.lower()


def walk(options: list[dict[str, Any]], where: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Each list of sibling commands or options, with where it is, depth first."""
    yield where, options
    for option in options:
        yield from walk(option.get("options", []), f"{where} {option['name']}")


def localized(item: dict[str, Any], key: str, locale: str) -> str:
    text: str = item.get(f"{key}_localizations", {}).get(locale, item[key])
    return text


def context_at(
    location: app_commands.TranslationContextLocation,
) -> app_commands.TranslationContextTypes:
    """A translation context at ``location`` without the command or option it belongs to: the
    catalogue translator reads only the location."""
    # Typed discord.py pairs each location with its kind of data; here there is none, on purpose.
    return app_commands.TranslationContext(cast(Any, location), None)


@pytest.mark.parametrize("locale", LOCALIZED)
async def test_every_localized_name_follows_discords_rules(locale: str) -> None:
    broken = []
    for where, siblings in walk(await translated_payload(), "/"):
        names = [localized(item, "name", locale) for item in siblings]
        broken += [f"{where}: {name!r}" for name in names if not is_discord_name(name)]
        if len(set(names)) != len(names):
            broken.append(f"{where}: names repeat {sorted(names)}")
        for item in siblings:
            description = localized(item, "description", locale)
            if not 1 <= len(description) <= DESCRIPTION_LIMIT:
                broken.append(f"{where} {item['name']}: description of {len(description)}")
            for choice in item.get("choices", []):
                if not 1 <= len(localized(choice, "name", locale)) <= CHOICE_LIMIT:
                    broken.append(f"{where} {item['name']}: choice {choice['name']}")
    assert broken == []


@pytest.mark.parametrize("locale", LOCALIZED)
async def test_every_command_option_and_choice_is_localized(locale: str) -> None:
    untranslated = []
    for where, siblings in walk(await translated_payload(), "/"):
        for item in siblings:
            for key in ("name", "description"):
                # the brand stays: /jarmo is jarmo in every language
                if locale not in item.get(f"{key}_localizations", {}) and item[key] != "jarmo":
                    untranslated.append(f"{where} {item['name']} ({key})")
    assert untranslated == []


async def test_polish_and_german_commands_read_in_their_language() -> None:
    (jarmo,) = await translated_payload()
    assert jarmo["name"] == "jarmo" and "pl" in jarmo["description_localizations"]
    sub = {command["name"]: command for command in jarmo["options"]}
    assert sub["move"]["name_localizations"] == {"pl": "ruch", "de": "zug"}
    assert sub["resign"]["description_localizations"]["pl"].startswith("Poddaj się")
    (side,) = [option for option in sub["challenge"]["options"] if option["name"] == "side"]
    white = side["choices"][0]
    assert white["value"] == "white" and white["name_localizations"] == {
        "pl": "białe",
        "de": "weiß",
    }


@pytest.mark.parametrize(
    "locale", [discord.Locale.american_english, discord.Locale.french, discord.Locale.japanese]
)
async def test_locales_without_a_translation_get_no_localization(locale: discord.Locale) -> None:
    translator = CatalogueTranslator()
    context = context_at(app_commands.TranslationContextLocation.command_name)
    assert await translator.translate(app_commands.locale_str("move"), locale, context) is None


async def test_the_same_english_word_is_translated_by_its_place() -> None:
    translator = CatalogueTranslator()
    where = app_commands.TranslationContextLocation
    texts = {
        place: await translator.translate(
            app_commands.locale_str("rules"),
            discord.Locale.polish,
            context_at(place),
        )
        for place in (where.command_name, where.command_description)
    }
    assert texts == {where.command_name: "zasady", where.command_description: None}


async def test_the_catalogue_lists_every_text_discord_asks_for() -> None:
    texts = {(text.context, text.message) for text in await command_texts()}
    assert ("command name", "move") in texts and ("choice name", "white") in texts
    assert ("parameter description", "Your side in the first game") in texts
    assert not any(message.isdigit() for _, message in texts)  # the match lengths 1, 2, 4, 6
