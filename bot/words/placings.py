"""Wording of finished tournaments in a player's history: "Spring Cup — 2nd of 7"."""

from __future__ import annotations

from bot.i18n import N_
from bot.service.stats_models import TournamentPlacing
from bot.words.tournaments import format_name
from bot.words.voice import Voice, iso_date

# English ordinals need the number's ending; each form is its own message so that every
# language words a place its own way ("2. von 7", "2-a el 7").
_PLACES = {
    # TRANSLATORS: a player's place in a tournament's final table, e.g. "2nd of 7 (players)".
    # The four English endings (st, nd, rd, th) are four messages; word each as your language
    # says a place, e.g. "Platz {rank} von {players}" for all four.
    "st": N_("{rank}st of {players}"),
    "nd": N_("{rank}nd of {players}"),
    "rd": N_("{rank}rd of {players}"),
    "th": N_("{rank}th of {players}"),
}
_ENDINGS = {1: "st", 2: "nd", 3: "rd"}


def place_text(rank: int, players: int, voice: Voice) -> str:
    """'2nd of 7'."""
    ending = "th" if rank % 100 in (11, 12, 13) else _ENDINGS.get(rank % 10, "th")
    return voice.gettext(_PLACES[ending]).format(rank=rank, players=players)


def placing_text(placing: TournamentPlacing, voice: Voice) -> str:
    """'Spring Cup — 2nd of 7'."""
    return voice.gettext("{name} — {place}").format(
        name=placing.tournament.name,
        place=place_text(placing.rank, placing.players, voice),
    )


def placing_lines(placings: tuple[TournamentPlacing, ...], voice: Voice) -> list[str]:
    """A heading and one line per tournament: the letter the picker shows, the day it ended,
    its name, the player's place, and their matches a moderator forced."""
    if not placings:
        return []
    lines = [voice.strong(voice.gettext("Tournaments"))]
    for number, placing in enumerate(placings, 1):
        ended = placing.tournament.finished_at or placing.tournament.created_at
        line = f"`T{number}` {voice.date(ended)} · {placing_text(placing, voice)}"
        lines.append(" · ".join([line, *_forced_phrases(placing, voice)]))
    return lines


def _forced_phrases(placing: TournamentPlacing, voice: Voice) -> list[str]:
    """'round 2 forced by @Mod' for each of the player's matches a moderator forced."""
    return [
        voice.gettext("round {number} forced by {moderator}").format(
            number=number, moderator=voice.name(moderator)
        )
        for number, moderator in placing.forced
    ]


def placing_option(number: int, placing: TournamentPlacing, voice: Voice) -> tuple[str, str]:
    """(label, description) of a tournament in the history's picker; plain text, within
    Discord's 100 characters."""
    record = placing.tournament
    label = f"T{number}. {placing_text(placing, voice)}"
    ended = iso_date(record.finished_at or record.created_at)
    description = voice.gettext("{date} · {format} · the final table").format(
        date=ended, format=format_name(record.format, voice)
    )
    return label[:100], description[:100]
