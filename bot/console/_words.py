"""The console's catalogue, and the shared wording spoken the console's way."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from bot.i18n import ENGLISH, Catalogue, catalogue
from bot.words import Voice, shared_catalogue, unchanged

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "console"

# The languages ``jarmo-bot play --lang`` offers.
CONSOLE_LANGUAGES = ("de", "en", "eo", "pl")
# The environment variables that name the terminal's language, the strongest first (POSIX).
_LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

# What a player types for each command the shared wording may name. The console has no clocks,
# challenges or moderators: a new match is started from the shell, and a damaged game is set
# aside with the doctor.
_TYPED = {
    "abort": "jarmo-bot doctor --quarantine",
    "challenge": "jarmo-bot play",
}


def console_command(name: str) -> str:
    """How a console player runs ``name``: 'resign' for the console's own commands."""
    return f"'{_TYPED.get(name, name)}'"


def console_language(chosen: str | None, environment: Mapping[str, str]) -> str:
    """The console's language: the one ``--lang`` chose, else the terminal's (``pl_PL.UTF-8``
    gives ``pl_PL``), else English; the catalogues fall back from ``pl_PL`` to ``pl``."""
    if chosen:
        return chosen
    for variable in _LANGUAGE_VARIABLES:
        setting = environment.get(variable, "").split(".", 1)[0].split("@", 1)[0]
        if setting:
            return ENGLISH if setting in ("C", "POSIX") else setting
    return ENGLISH


def console_catalogue(language: str | None = None) -> Catalogue:
    """The console's own messages in ``language`` (English when there is no translation)."""
    return catalogue(LOCALE, DOMAIN, language)


def console_voice(name: Callable[[int], str], language: str | None = None) -> Voice:
    """The shared wording as the console shows it: plain names, typed commands, no markdown."""
    return Voice(
        shared_catalogue(language),
        name=name,
        command=console_command,
        strong=unchanged,
        quiet=unchanged,
        autocomplete=False,
    )
