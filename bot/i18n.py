"""Message catalogues: the words of the front ends, kept in gettext ``.po`` files.

Each front end has its own catalogue (a gettext *domain*): ``discord`` for the cogs, ``console``
for the terminal, and ``jarmo`` for the wording both share (endings, standings, ratings). The
English text is the message id itself, so English needs no file; a language is a
``locale/<lang>/LC_MESSAGES/<domain>.po`` beside the domain's template ``locale/<domain>.pot``.

The ``.po`` files are compiled in memory with Babel when first used, so the repository holds
only text that translators edit, and no build step can leave a stale ``.mo`` behind.

Code marks its messages with ``_`` (and ``N_`` for text looked up later, ``N_plural`` for a
pair of forms looked up later with ``ngettext``), which is what ``python -m bot._i18n_extract``
extracts to refresh the templates.
"""

from __future__ import annotations

import functools
import gettext
import io
from dataclasses import dataclass
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ENGLISH = "en"


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it yet (for tables of messages)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message's singular and plural for extraction as one entry, looked up later with
    ``ngettext`` (languages have one, two or three forms where English has two)."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One domain's messages in one language; missing messages fall back to English."""

    domain: str
    language: str
    translations: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        """``message`` in this catalogue's language."""
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of a message that fits ``count`` (languages differ in their plural rules)."""
        return self.translations.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in this catalogue's language, where ``context`` tells it apart from the
        same English words used elsewhere (a command's name, an option's)."""
        return self.translations.pgettext(context, message)


def catalogue(directory: Path, domain: str, language: str | None = None) -> Catalogue:
    """The catalogue of ``domain`` under ``directory`` (a front end's ``locale`` folder).

    ``language`` is a Discord or POSIX locale such as ``pl``, ``pt-BR`` or ``de_DE``; the most
    specific translation that exists is used, then the bare language, then English.
    """
    for candidate in _candidates(language):
        path = directory / candidate / "LC_MESSAGES" / f"{domain}.po"
        if path.is_file():
            return Catalogue(domain, candidate, _compiled(path))
    return Catalogue(domain, ENGLISH, gettext.NullTranslations())


def _candidates(language: str | None) -> list[str]:
    if not language:
        return []
    specific = language.replace("-", "_")
    general = specific.split("_", 1)[0]
    return [specific, general] if general != specific else [specific]


@functools.cache
def _compiled(path: Path) -> gettext.GNUTranslations:
    # The language (the folder above LC_MESSAGES) gives Babel the plural rules when the file's
    # header leaves them out; without it the compiled catalogue would use English plurals.
    language = path.parent.parent.name
    with path.open("rb") as source:
        messages = read_po(source, locale=language, domain=path.stem)
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
