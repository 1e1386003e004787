"""Wording of rating changes, shared by the match standings and the stats commands."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.service.stats_models import RatingShift, shown

Namer = Callable[[int], str]


def rating_lines(shifts: Iterable[RatingShift], name: Namer) -> list[str]:
    """'Ratings (classic): Ann 1068 (+68) · Bob 932 (−68)', or nothing for an unrated match."""
    shifts = list(shifts)
    if not shifts:
        return []
    parts = [f"{name(s.user_id)} {shown(s.after)} ({signed(s.delta)})" for s in shifts]
    return [f"Ratings ({shifts[0].ruleset}): " + " · ".join(parts)]


def signed(delta: int) -> str:
    """'+12', '±0', '−7' (a real minus sign)."""
    return f"+{delta}" if delta > 0 else "±0" if delta == 0 else f"−{-delta}"
