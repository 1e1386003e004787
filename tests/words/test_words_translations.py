"""The shipped translations: complete, with the same placeholders as the English, plural forms
that fit each language, and English wherever a translation is missing."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from bot._i18n_extract import COMMANDS, DOMAINS, Domain, untranslated
from bot.cogs.words import SERVER_LANGUAGES, discord_voice
from bot.console import CONSOLE_LANGUAGES
from bot.i18n import ENGLISH, catalogue
from bot.words import duration_text, shared_catalogue

SHIPPED = ("de", "eo", "pl")
DISCORD_LOCALES = ("de", "pl")  # Discord has no Esperanto: its commands stay English there


def _shipped_translations() -> list[tuple[Domain, str]]:
    return [
        (domain, language)
        for domain in DOMAINS
        for language in (DISCORD_LOCALES if domain.name == COMMANDS else SHIPPED)
    ]


def _path(domain: Domain, language: str) -> Path:
    return domain.locale / language / "LC_MESSAGES" / f"{domain.name}.po"


@pytest.mark.parametrize(
    ("domain", "language"),
    _shipped_translations(),
    ids=lambda value: value.name if isinstance(value, Domain) else value,
)
def test_each_shipped_language_translates_every_message(domain: Domain, language: str) -> None:
    path = _path(domain, language)
    assert path.is_file(), f"{language} has no {domain.name} catalogue"
    missing = untranslated(domain, path)
    assert missing == [], (
        f"{path} leaves {len(missing)} message(s) untranslated (python -m bot._i18n_extract "
        "--missing lists them all):\n" + "\n".join(missing)
    )


def _fields(text: str) -> set[tuple[str, str | None, str | None]]:
    return {
        (name, conversion, spec)
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


@pytest.mark.parametrize(
    ("domain", "language"),
    _shipped_translations(),
    ids=lambda value: value.name if isinstance(value, Domain) else value,
)
def test_translations_keep_the_placeholders_of_the_english(domain: Domain, language: str) -> None:
    with _path(domain, language).open("rb") as source:
        messages = [message for message in read_po(source) if message.id]
    wrong = []
    for message in messages:
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        forms = (
            tuple(message.string)
            if isinstance(message.string, (tuple, list))
            else (message.string,)
        )
        expected = set().union(*(_fields(text) for text in ids))
        for form in forms:
            if form and _fields(form) != expected:
                wrong.append(f"{ids[0]!r} -> {form!r}")
    assert wrong == []


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "1 partia"),
        (2, "2 partie"),
        (4, "4 partie"),
        (5, "5 partii"),
        (12, "12 partii"),
        (22, "22 partie"),
        (25, "25 partii"),
    ],
)
def test_polish_has_three_plural_forms(count: int, expected: str) -> None:
    words = shared_catalogue("pl")
    assert words.ngettext("{count} game", "{count} games", count).format(count=count) == expected


def test_durations_take_each_languages_plural() -> None:
    three_hours = 3 * 3600 + 2 * 86_400
    assert duration_text(three_hours, discord_voice("pl")) == "2 dni 3 godziny"
    assert duration_text(5 * 3600, discord_voice("pl")) == "5 godzin"
    assert duration_text(3600, discord_voice("de")) == "1 Stunde"
    assert duration_text(three_hours, discord_voice("eo")) == "2 tagoj 3 horoj"
    assert duration_text(three_hours, discord_voice()) == "2 days 3 hours"


def test_every_server_and_console_language_is_shipped() -> None:
    assert set(SERVER_LANGUAGES) == {ENGLISH, *SHIPPED}
    assert set(CONSOLE_LANGUAGES) == {ENGLISH, *SHIPPED}


def test_a_language_nobody_translated_reads_in_english() -> None:
    for language in ("fr", "pt-BR", "en-GB", None):
        words = shared_catalogue(language)
        assert words.language == ENGLISH and words.gettext("White") == "White"


def test_a_message_missing_from_a_translation_reads_in_english(tmp_path: Path) -> None:
    folder = tmp_path / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "jarmo.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "White"\nmsgstr "Białe"\n\n'
        'msgid "Black"\nmsgstr ""\n\n'
        'msgid "{count} game"\nmsgid_plural "{count} games"\n'
        'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n'
    )
    words = catalogue(tmp_path, "jarmo", "pl")
    assert words.language == "pl" and words.gettext("White") == "Białe"
    assert words.gettext("Black") == "Black"  # in the file, not translated yet
    assert words.gettext("Green") == "Green"  # not in the file at all
    assert words.ngettext("{count} game", "{count} games", 5) == "{count} games"
    # and the shipped catalogues do the same for a message added after they were translated
    assert shared_catalogue("pl").gettext("A message added tomorrow") == "A message added tomorrow"


def test_the_missing_list_names_each_untranslated_message(tmp_path: Path) -> None:
    (jarmo,) = [domain for domain in DOMAINS if domain.name == "jarmo"]
    with _path(jarmo, "pl").open("rb") as source:
        polish = read_po(source, locale="pl")
    polish.delete("Black")
    polish["White"].string = ""
    games = polish["{count} game"]
    assert isinstance(games.string, tuple), "a plural message has a tuple of forms"
    games.string = (games.string[0], "", games.string[2])
    half_done = tmp_path / "jarmo.po"
    with half_done.open("wb") as out:
        write_po(out, polish)
    assert sorted(untranslated(jarmo, half_done)) == ["Black", "White", "{count} game"]
