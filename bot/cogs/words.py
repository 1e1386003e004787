"""The words of the Discord front end: its own catalogue, and the shared wording in Discord's
voice (mentions, timestamps that each reader sees in their own time zone, slash commands)."""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path
from typing import Any

import discord

from bot.i18n import ENGLISH, Catalogue, catalogue
from bot.render import ImageWords
from bot.words import Voice, image_words, shared_catalogue

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "discord"

# The languages a server can choose for its public posts, each by its own name, as its speakers
# look for it (in the order the command offers them). Esperanto has no Discord locale, so a
# server setting is the only way to it.
SERVER_LANGUAGES = {"en": "English", "pl": "polski", "de": "Deutsch", "eo": "Esperanto"}


def mention(user_id: int) -> str:
    """A user mention; embeds never ping, message content only pings whom we allow."""
    return f"<@{user_id}>"


def relative_time(moment: datetime) -> str:
    """A Discord timestamp that each reader sees as 'in 3 hours' in their own time zone."""
    return f"<t:{int(moment.timestamp())}:R>"


def short_date(moment: datetime) -> str:
    """A Discord timestamp shown as a date in each reader's own locale."""
    return f"<t:{int(moment.timestamp())}:d>"


@functools.cache
def discord_words(language: str | None = None) -> Catalogue:
    """The Discord front end's own messages in ``language`` (English without a translation)."""
    return catalogue(LOCALE, DOMAIN, language)


@functools.cache
def discord_voice(language: str | None = None) -> Voice:
    """The shared wording as Discord shows it."""
    return Voice(shared_catalogue(language), name=mention, when=relative_time, date=short_date)


def picture_words(language: str | None = None) -> ImageWords:
    """The words the board images, replays and charts draw, in ``language``."""
    return image_words(shared_catalogue(language))


def reader_language(interaction: discord.Interaction[Any]) -> str:
    """The language of a private answer: the reader's own Discord locale."""
    return interaction.locale.value


def public_language(server_setting: str | None, guild_locale: discord.Locale | None) -> str:
    """The language of a post everyone in a server reads: the language the server chose (its
    ``/jarmo server`` setting), else the server's locale when Discord says one (community
    servers), else English. A locale without a translation reads in English all the same."""
    if server_setting:
        return server_setting
    return guild_locale.value if guild_locale is not None else ENGLISH
