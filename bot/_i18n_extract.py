"""Refresh the message catalogues' templates (and the translations' entries) from the code.

Run ``python -m bot._i18n_extract`` after changing any user-facing text: it rewrites each
domain's ``.pot`` from the ``_``, ``N_``, ``N_plural``, ``gettext`` and ``ngettext`` calls in its
source (the ``commands`` domain from the slash commands' tree: names, descriptions, options and
choices), and brings every ``.po`` of that domain up to date (new messages untranslated, removed
ones dropped), so translators see exactly what changed. ``tests/words`` fails while a template is
out of date.

``python -m bot._i18n_extract --missing`` lists, per domain and language, the messages that have
no translation yet (and exits with 1 if there are any).
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

PACKAGE = Path(__file__).resolve().parent
KEYWORDS = {"_": None, "N_": None, "N_plural": (1, 2), "gettext": None, "ngettext": (1, 2)}
COMMANDS = "commands"  # the domain of the slash commands' texts, read from the command tree


@dataclass(frozen=True, slots=True)
class Domain:
    """A catalogue: its name, the code it is extracted from, and its ``locale`` folder."""

    name: str
    sources: tuple[Path, ...]
    locale: Path

    @property
    def template(self) -> Path:
        return self.locale / f"{self.name}.pot"

    def translations(self) -> list[Path]:
        """Every language's ``.po`` file of this domain."""
        return sorted(self.locale.glob(f"*/LC_MESSAGES/{self.name}.po"))


DOMAINS = (
    Domain("discord", (PACKAGE / "cogs", PACKAGE / "client.py"), PACKAGE / "cogs" / "locale"),
    Domain("console", (PACKAGE / "console",), PACKAGE / "console" / "locale"),
    Domain("jarmo", (PACKAGE / "words",), PACKAGE / "words" / "locale"),
    Domain(COMMANDS, (), PACKAGE / "cogs" / "locale"),
)


def extract(domain: Domain) -> Catalog:
    """Every message the domain's code marks, with where it is used."""
    catalog = Catalog(domain=domain.name, project="jarmo-bot", fuzzy=False)
    if domain.name == COMMANDS:
        _add_command_texts(catalog)
    for path in _python_files(domain.sources):
        found = extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        )
        for lineno, message, comments, context in found:
            where = (str(path.relative_to(PACKAGE.parent)), lineno)
            catalog.add(message, locations=[where], auto_comments=comments, context=context)
    return catalog


def _add_command_texts(catalog: Catalog) -> None:
    # The slash commands are read from the tree the bot publishes (which needs discord.py), so
    # the other domains do not pay for the import.
    from bot.cogs.translator import NAME_CONTEXTS, command_texts

    for text in asyncio.run(command_texts()):
        notes = [NAME_RULE if text.context in NAME_CONTEXTS else TEXT_RULE]
        catalog.add(text.message, context=text.context, auto_comments=notes)


# Discord's limits, shown to translators beside each text of the slash commands.
NAME_RULE = (
    "A name: 1-32 characters, lowercase letters, digits, - and _ only (no spaces), "
    "different from the other names beside it."
)
TEXT_RULE = "At most 100 characters."


def untranslated(domain: Domain, translation: Path) -> list[str]:
    """The message ids of ``domain`` that ``translation`` (one language's ``.po``) leaves
    without a translation, in the template's order; a context is shown as ``context|id``."""
    with translation.open("rb") as source:
        translated = read_po(source, domain=domain.name)
    missing = []
    for message in extract(domain):
        if not message.id:
            continue
        found = translated.get(message.id, context=message.context)
        strings = found.string if found is not None else ""
        forms = strings if isinstance(strings, tuple | list) else (strings,)
        if found is None or found.fuzzy or not all(forms):
            key = message.id[0] if isinstance(message.id, tuple | list) else message.id
            missing.append(f"{message.context}|{key}" if message.context else key)
    return missing


def template_text(catalog: Catalog) -> str:
    """The ``.pot`` text of ``catalog``, without the creation date (so it is reproducible)."""
    out = io.BytesIO()
    write_po(out, catalog, omit_header=True, sort_output=True, width=100, include_lineno=False)
    return out.getvalue().decode()


def refresh(domain: Domain) -> None:
    """Rewrite the domain's template and update its translations to match the code."""
    catalog = extract(domain)
    domain.locale.mkdir(parents=True, exist_ok=True)
    domain.template.write_text(template_text(catalog))
    for path in domain.translations():
        with path.open("rb") as source:
            translated = read_po(source, domain=domain.name)
        created = translated.creation_date
        translated.update(catalog, no_fuzzy_matching=True)
        # The template's creation date would change every translation on every run.
        translated.creation_date = created
        out = io.BytesIO()
        write_po(
            out, translated, sort_output=True, width=100, ignore_obsolete=True, include_lineno=False
        )
        path.write_bytes(out.getvalue())


def _python_files(sources: Iterable[Path]) -> Iterator[Path]:
    for source in sources:
        yield from sorted(source.rglob("*.py")) if source.is_dir() else (source,)


def report_missing() -> int:
    """Print the untranslated messages of every domain and language; how many there are."""
    total = 0
    for domain in DOMAINS:
        for translation in domain.translations():
            missing = untranslated(domain, translation)
            total += len(missing)
            where = translation.relative_to(PACKAGE.parent)
            print(f"{where}: {len(missing)} untranslated")
            for message_id in missing:
                print("    " + message_id.replace("\n", "\\n"))
    return total


def main(arguments: list[str]) -> int:
    if arguments == ["--missing"]:
        return 1 if report_missing() else 0
    if arguments:
        print("usage: python -m bot._i18n_extract [--missing]", file=sys.stderr)
        return 2
    for domain in DOMAINS:
        refresh(domain)
        print(f"{domain.template.relative_to(PACKAGE.parent)}: {len(extract(domain))} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
