"""Refresh the message catalogues' templates (and the translations' entries) from the code.

Run ``python -m bot._i18n_extract`` after changing any user-facing text: it rewrites each
domain's ``.pot`` from the ``_``, ``N_``, ``gettext`` and ``ngettext`` calls in its source, and
brings every ``.po`` of that domain up to date (new messages untranslated, removed ones dropped),
so translators see exactly what changed. ``tests/words`` fails while a template is out of date.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

PACKAGE = Path(__file__).resolve().parent
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}


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
)


def extract(domain: Domain) -> Catalog:
    """Every message the domain's code marks, with where it is used."""
    catalog = Catalog(domain=domain.name, project="jarmo-bot", fuzzy=False)
    for path in _python_files(domain.sources):
        found = extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        )
        for lineno, message, comments, context in found:
            where = (str(path.relative_to(PACKAGE.parent)), lineno)
            catalog.add(message, locations=[where], auto_comments=comments, context=context)
    return catalog


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
        translated.update(catalog, no_fuzzy_matching=True)
        out = io.BytesIO()
        write_po(
            out, translated, sort_output=True, width=100, ignore_obsolete=True, include_lineno=False
        )
        path.write_bytes(out.getvalue())


def _python_files(sources: Iterable[Path]) -> Iterator[Path]:
    for source in sources:
        yield from sorted(source.rglob("*.py")) if source.is_dir() else (source,)


def main() -> None:
    for domain in DOMAINS:
        refresh(domain)
        print(f"{domain.template.relative_to(PACKAGE.parent)}: {len(extract(domain))} messages")


if __name__ == "__main__":
    main()
