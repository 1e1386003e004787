"""Tournaments, one package: the pure draw and table (``draw``), the use cases (``cases``),
going from round to round (``rounds``), the values they return (``views``), the outbox posts
(``announcements`` writes them, ``posts`` rebuilds them) and finished events (``history``)."""

from bot.service.tournaments.cases import IsMember, TournamentCases
from bot.service.tournaments.views import (
    ForcedMatch,
    ForcedRound,
    MatchWelcome,
    RoundView,
    TableView,
    TournamentRecord,
    TournamentRequest,
    TournamentView,
)

__all__ = [
    "ForcedMatch",
    "ForcedRound",
    "IsMember",
    "MatchWelcome",
    "RoundView",
    "TableView",
    "TournamentCases",
    "TournamentRecord",
    "TournamentRequest",
    "TournamentView",
]
