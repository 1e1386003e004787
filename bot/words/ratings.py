"""Wording of ratings and rating changes, shared by the match standings and the stats commands.

A rating is *provisional* until its player has finished :data:`PROVISIONAL_GAMES` rated games in
its ruleset: a new rating is still uncertain, so each early game moves it a lot (and because the
shown rating also rises as the system grows sure of a player, a first win gains more than a
first loss costs). Provisional ratings are shown with a question mark, ``1012?``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.service.stats_models import RatingShift, shown
from bot.words.voice import Voice

PROVISIONAL_GAMES = 10


def provisional_note(voice: Voice) -> str:
    """Why some ratings carry a question mark."""
    return voice.gettext(
        "? marks a provisional rating: fewer than {count} rated games in that ruleset. A new "
        "rating is uncertain, so the first games move it a lot; it also rises as it grows "
        "certain, which is why an early win gains more than an early loss costs."
    ).format(count=PROVISIONAL_GAMES)


def is_provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated games in its ruleset is still provisional."""
    return games < PROVISIONAL_GAMES


def rating_label(rating: float, games: int) -> str:
    """'1012' for a settled rating, '1012?' for a provisional one (:data:`PROVISIONAL_GAMES`)."""
    return f"{shown(rating)}?" if is_provisional(games) else str(shown(rating))


def rating_lines(shifts: Iterable[RatingShift], voice: Voice) -> list[str]:
    """'Ratings (classic): Ann 1068 (+68) · Bob 932 (−68)', or nothing for an unrated match;
    a note on provisional ratings follows when one of them is provisional."""
    shifts = list(shifts)
    if not shifts:
        return []
    parts = [
        f"{voice.name(s.user_id)} {rating_label(s.after, s.games)} ({signed(s.delta)})"
        for s in shifts
    ]
    heading = voice.gettext("Ratings ({ruleset}): {changes}")
    lines = [heading.format(ruleset=shifts[0].ruleset, changes=" · ".join(parts))]
    if any(is_provisional(s.games) for s in shifts):
        lines.append(provisional_note(voice))
    return lines


def signed(delta: int) -> str:
    """'+12', '±0', '−7' (a real minus sign)."""
    return f"+{delta}" if delta > 0 else "±0" if delta == 0 else f"−{-delta}"
