"""Tournaments, the pure part: the draw of each round (Berger round robin or Swiss) and the
table with its tie-breaks, from plain ids and numbers. The use cases store and announce them.
"""

from bot.service.tournaments.draw.berger import round_robin_round, round_robin_rounds
from bot.service.tournaments.draw.models import (
    BYE_POINTS,
    MATCH_DRAW,
    MATCH_LOSS,
    MATCH_WIN,
    Bye,
    Event,
    Format,
    MatchResult,
    Outcome,
    Pairing,
    PairingError,
    PlayerId,
    Round,
    RoundCell,
    Standing,
    Standings,
    forfeit,
)
from bot.service.tournaments.draw.standings import standings
from bot.service.tournaments.draw.swiss import swiss_round

MIN_PLAYERS = 3  # fewer make no tournament worth the name (the use cases refuse them)
# A longer Swiss is a round robin in all but name, and its late rounds are slow to pair without
# rematches in big fields (seconds at 40 rounds of 100 players; milliseconds up to 15).
SWISS_MAX_ROUNDS = 15


def max_rounds(format: Format, count: int) -> int:
    """The most rounds an event of ``count`` players may have: a round robin's full cycle; a
    Swiss event no more than that (rematches would follow) nor than ``SWISS_MAX_ROUNDS``."""
    cycle = round_robin_rounds(count)
    return cycle if format == "round-robin" else min(cycle, SWISS_MAX_ROUNDS)


def pair_round(format: Format, event: Event, number: int) -> Round:
    """Round ``number``'s draw in ``format``. Raises ``PairingError`` (see the two pairers)."""
    if format == "round-robin":
        return round_robin_round(event, number)
    return swiss_round(event, number)


__all__ = [
    "BYE_POINTS",
    "MATCH_DRAW",
    "MATCH_LOSS",
    "MATCH_WIN",
    "MIN_PLAYERS",
    "SWISS_MAX_ROUNDS",
    "Bye",
    "Event",
    "Format",
    "MatchResult",
    "Outcome",
    "Pairing",
    "PairingError",
    "PlayerId",
    "Round",
    "RoundCell",
    "Standing",
    "Standings",
    "forfeit",
    "max_rounds",
    "pair_round",
    "round_robin_round",
    "round_robin_rounds",
    "standings",
    "swiss_round",
]
