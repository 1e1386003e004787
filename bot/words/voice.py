"""How a front end speaks: the reader's language, and its way with names, times and commands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bot.i18n import Catalogue, catalogue

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "jarmo"


def plain_time(moment: datetime) -> str:
    """'21 Nov 2026 17:05 UTC': a moment for front ends without Discord's timestamps."""
    return f"{moment:%d %b %Y %H:%M} UTC"


def iso_date(moment: datetime) -> str:
    """'2026-11-21' (UTC)."""
    return moment.strftime("%Y-%m-%d")


def slash_command(name: str) -> str:
    """How Discord users call a command: '/jarmo resume'."""
    return f"/jarmo {name}"


def markdown_strong(text: str) -> str:
    """Discord's bold."""
    return f"**{text}**"


def markdown_quiet(text: str) -> str:
    """Discord's italics, for notes beside the main text."""
    return f"_{text}_"


def unchanged(text: str) -> str:
    """For front ends without text styles."""
    return text


@dataclass(frozen=True, slots=True)
class Voice:
    """Everything the shared wording needs from the front end that shows it.

    ``name`` shows a user (a mention in Discord, a display name in the console); ``when`` shows
    a coming moment (a Discord relative timestamp, or a plain UTC time); ``date`` shows the day
    of a past game; ``command`` names a command as the reader would type it; ``strong`` and
    ``quiet`` mark emphasis and side notes where the front end has text styles;
    ``autocomplete`` says whether the reader's commands suggest legal moves as they type.
    """

    catalogue: Catalogue
    name: Callable[[int], str]
    command: Callable[[str], str] = slash_command
    when: Callable[[datetime], str] | None = None
    date: Callable[[datetime], str] = iso_date
    strong: Callable[[str], str] = markdown_strong
    quiet: Callable[[str], str] = markdown_quiet
    autocomplete: bool = True

    def gettext(self, message: str) -> str:
        """``message`` in the reader's language."""
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of a message that fits ``count``, in the reader's language."""
        return self.catalogue.ngettext(singular, plural, count)


def shared_catalogue(language: str | None = None) -> Catalogue:
    """The shared wording in ``language`` (English when there is no translation)."""
    return catalogue(LOCALE, DOMAIN, language)
