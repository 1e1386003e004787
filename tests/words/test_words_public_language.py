"""Which language a public post speaks: the server's own choice, else its Discord locale."""

from __future__ import annotations

import discord
import pytest

from bot.cogs.words import discord_voice, discord_words, public_language
from bot.words import side_label


@pytest.mark.parametrize(
    ("setting", "guild_locale", "expected"),
    [
        ("eo", discord.Locale.polish, "eo"),  # the server chose Esperanto: it wins
        ("de", None, "de"),
        (None, discord.Locale.polish, "pl"),  # no choice: the community server's locale
        (None, discord.Locale.brazil_portuguese, "pt-BR"),  # no translation: English below
        (None, None, "en"),
        ("", discord.Locale.german, "de"),  # an empty setting is no setting
    ],
)
def test_public_language(
    setting: str | None, guild_locale: discord.Locale | None, expected: str
) -> None:
    assert public_language(setting, guild_locale) == expected


@pytest.mark.parametrize(
    ("setting", "guild_locale", "white"),
    [
        ("eo", discord.Locale.polish, "Blanko"),
        (None, discord.Locale.german, "Weiß"),
        (None, discord.Locale.brazil_portuguese, "White"),
    ],
)
def test_a_public_post_reads_in_that_language(
    setting: str | None, guild_locale: discord.Locale | None, white: str
) -> None:
    language = public_language(setting, guild_locale)
    assert side_label("white", "classic", discord_voice(language)) == white


def test_the_discord_front_end_speaks_each_shipped_language() -> None:
    assert discord_words("pl").gettext("You resigned.") == "Poddałeś(-aś) się."
    assert discord_words("de").gettext("Accept") == "Annehmen"
    assert discord_words("eo").gettext("Accept") == "Akcepti"
    assert discord_words("pl-PL").language == "pl"
