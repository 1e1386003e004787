"""The message catalogues: templates in step with the code, and languages that fall back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot._i18n_extract import DOMAINS, Domain, extract, template_text
from bot.i18n import ENGLISH, catalogue


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda domain: domain.name)
def test_each_template_lists_exactly_the_messages_of_its_code(domain: Domain) -> None:
    current = domain.template.read_text() if domain.template.exists() else ""
    assert current == template_text(extract(domain)), (
        f"{domain.template} is out of date: run python -m bot._i18n_extract"
    )


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda domain: domain.name)
def test_every_catalogue_has_messages(domain: Domain) -> None:
    assert len(extract(domain)) > 10


def test_a_language_without_a_translation_falls_back_to_english(tmp_path: Path) -> None:
    words = catalogue(tmp_path, "jarmo", "pl")
    assert words.language == ENGLISH and words.gettext("Goodbye.") == "Goodbye."


def test_a_translation_is_used_for_its_language_and_its_regional_variants(tmp_path: Path) -> None:
    folder = tmp_path / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "jarmo.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && '
        '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "Goodbye."\nmsgstr "Do widzenia."\n\n'
        'msgid "{count} game"\nmsgid_plural "{count} games"\n'
        'msgstr[0] "{count} partia"\nmsgstr[1] "{count} partie"\nmsgstr[2] "{count} partii"\n'
    )
    for language in ("pl", "pl-PL", "pl_PL"):
        words = catalogue(tmp_path, "jarmo", language)
        assert words.language == "pl" and words.gettext("Goodbye.") == "Do widzenia."
    words = catalogue(tmp_path, "jarmo", "pl")
    shown = [words.ngettext("{count} game", "{count} games", n).format(count=n) for n in (1, 3, 5)]
    assert shown == ["1 partia", "3 partie", "5 partii"]
    assert words.gettext("Not in the catalogue.") == "Not in the catalogue."


MARKERS = frozenset({"_", "N_", "N_plural", "gettext", "ngettext"})


def _marked_in_fstrings(path: Path) -> list[str]:
    """Messages written as literals inside f-strings: the extractor cannot see them there, so
    they would read in English in every language."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.JoinedStr):
            continue
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            name = call.func.attr if isinstance(call.func, ast.Attribute) else None
            name = call.func.id if isinstance(call.func, ast.Name) else name
            literal = any(isinstance(arg, ast.Constant) for arg in call.args)
            if name in MARKERS and literal:
                found.append(f"{path}:{call.lineno}")
    return found


def test_no_message_hides_inside_an_f_string() -> None:
    bot = Path(__file__).resolve().parents[2] / "bot"
    hidden = [where for path in sorted(bot.rglob("*.py")) for where in _marked_in_fstrings(path)]
    assert hidden == []
