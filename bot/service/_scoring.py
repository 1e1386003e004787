"""Match arithmetic on stored records, delegated to the rules engine's ``Match`` and typed by
player id."""

from __future__ import annotations

from collections.abc import Hashable

from bot.jarmo import Match
from bot.jarmo.position import Side
from bot.store import GameRecord, MatchRecord


class Scoreboard:
    """A match's score, replayed from its ended games; players are user ids."""

    def __init__(self, match: MatchRecord, games: list[GameRecord]) -> None:
        self._match = Match(match.first_white_id, match.first_black_id, match.game_count)
        for record in games:
            # An aborted game counts for nobody: the match is decided by the games finished.
            if record.is_active or record.points is None or record.status == "aborted":
                continue
            if record.status in ("resigned", "timeout"):
                loser = record.black_id if record.winner == "white" else record.white_id
                self._match.forfeit(loser, record.points)
            else:
                self._match.record(record.points)

    @property
    def over(self) -> bool:
        """Whether the match is decided."""
        return self._match.over

    @property
    def games_left(self) -> int:
        """Games still to play (never negative)."""
        return max(self._match.games_left, 0)

    def record(self, points: dict[Side, int]) -> None:
        """Count a game that ended with these points."""
        self._match.record(points)

    def forfeit(self, loser_id: int, points: dict[Side, int]) -> None:
        """Count a game ``loser_id`` resigned or lost on time: the rest of the match is lost."""
        self._match.forfeit(loser_id, points)

    def totals(self) -> dict[int, int]:
        """Points per player so far."""
        return {_player(who): points for who, points in self._match.totals().items()}

    def leader(self) -> int | None:
        """The player ahead, or ``None`` when level."""
        return _maybe_player(self._match.leader())

    def winner(self) -> int | None:
        """The match winner once decided, or ``None`` (a draw, or not decided)."""
        return _maybe_player(self._match.winner())


def _player(who: Hashable) -> int:
    if not isinstance(who, int):
        raise TypeError(f"players are user ids, not {who!r}")
    return who


def _maybe_player(who: Hashable | None) -> int | None:
    return None if who is None else _player(who)


def points_by_player(record: GameRecord) -> dict[int, int]:
    """A game's points keyed by player id rather than side."""
    points = record.points or record.engine.points()
    return {record.white_id: points["white"], record.black_id: points["black"]}
