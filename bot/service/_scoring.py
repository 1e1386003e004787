"""Match arithmetic on stored records, delegated to the rules engine's ``Match``."""

from __future__ import annotations

from bot.jarmo import Match
from bot.store import GameRecord, MatchRecord


def scoreboard(match: MatchRecord, games: list[GameRecord]) -> Match:
    """The engine's match score keeping, replayed from the match's ended games."""
    board = Match(match.first_white_id, match.first_black_id, match.game_count)
    for record in games:
        if record.is_active or record.points is None:
            continue
        if record.status in ("resigned", "timeout"):
            loser = record.black_id if record.winner == "white" else record.white_id
            board.forfeit(loser, record.points)
        else:
            board.record(record.points)
    return board


def points_by_player(record: GameRecord, points: dict[str, int] | None = None) -> dict[int, int]:
    """A game's points keyed by player id rather than side."""
    pts = points if points is not None else (record.points or record.game.points())
    return {record.white_id: pts["white"], record.black_id: pts["black"]}
