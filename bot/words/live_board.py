"""The words of the live board's refusals that no use case gives: a link that does not open
the game, a server that turned watching off, a page that sends too much, and a failure of ours.
The page shows them as they are (no Discord markup)."""

from __future__ import annotations

from typing import Literal

from bot.i18n import N_
from bot.words.voice import Voice, shared_catalogue, slash_command, unchanged

PageRefusal = Literal["bad_token", "expired_token", "watching_off", "flood", "other"]

_TEXTS: dict[PageRefusal, str] = {
    "bad_token": N_(
        "This link does not open a game. Ask for a new one with /jarmo watch in the game's channel."
    ),
    "expired_token": N_(
        "This link has expired. Ask for a new one with /jarmo watch in the game's channel."
    ),
    "watching_off": N_(
        "This server has turned the live board off. Someone who can manage the server can turn "
        "it on again with /jarmo server watch on."
    ),
    "flood": N_("This page sent too much at once. Reload it to watch again."),
    "other": N_("Something went wrong on our side. Reload the page and try again."),
}


def page_voice(language: str | None, name_of: dict[int, str]) -> Voice:
    """How the live board speaks: plain text in the page's language, players by name."""
    return Voice(
        shared_catalogue(language),
        name=lambda user_id: name_of.get(user_id, str(user_id)),
        command=slash_command,
        strong=unchanged,
        quiet=unchanged,
        autocomplete=False,
    )


def page_refusal_text(code: PageRefusal, voice: Voice) -> str:
    """The sentence the page shows for a refusal of its own."""
    return voice.gettext(_TEXTS[code])
