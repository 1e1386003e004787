"""A match (series) of games between two players with sides swapped after every game (rules §6)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Final

from .position import Side

MATCH_LENGTHS: Final = (1, 2, 4, 6)
# The lengths in which each player has White as often as the other.
EVEN_MATCH_LENGTHS: Final = tuple(games for games in MATCH_LENGTHS if games % 2 == 0)


@dataclass(frozen=True, slots=True)
class GameScore:
    """One finished game of a match: who had which side and the points each side scored."""

    white: Hashable
    black: Hashable
    points: dict[Side, int]

    def points_of(self, player: Hashable) -> int:
        """The points ``player`` scored in this game."""
        return self.points["white"] if player == self.white else self.points["black"]


@dataclass
class Match:
    """Score keeping for a match; players are opaque ids (Discord user ids in the bot)."""

    first_white: Hashable
    first_black: Hashable
    games: int = 1
    scores: list[GameScore] = field(default_factory=list)
    forfeited_by: Hashable | None = None

    def __post_init__(self) -> None:
        if self.games not in MATCH_LENGTHS:
            raise ValueError(f"a match has 1, 2, 4 or 6 games, not {self.games}")
        if self.first_white == self.first_black:
            raise ValueError("a match needs two different players")

    @property
    def players(self) -> tuple[Hashable, Hashable]:
        """The two players, the one with White in the first game first."""
        return self.first_white, self.first_black

    def white_for(self, index: int) -> Hashable:
        """Who plays White in game ``index`` (0-based): sides swap after every game."""
        return self.first_white if index % 2 == 0 else self.first_black

    def black_for(self, index: int) -> Hashable:
        """Who plays Black in game ``index`` (0-based)."""
        return self.first_black if index % 2 == 0 else self.first_white

    @property
    def over(self) -> bool:
        """True once every game is played or a player forfeited."""
        return self.forfeited_by is not None or len(self.scores) >= self.games

    @property
    def games_left(self) -> int:
        """Games still to be played (none once the match is over)."""
        return 0 if self.over else self.games - len(self.scores)

    def record(self, points: dict[Side, int]) -> GameScore:
        """Record the current game's final points. ``ValueError`` if the match is over."""
        if self.over:
            raise ValueError("the match is over; no more games can be recorded")
        index = len(self.scores)
        score = GameScore(
            self.white_for(index),
            self.black_for(index),
            {"white": points["white"], "black": points["black"]},
        )
        self.scores.append(score)
        return score

    def forfeit(self, loser: Hashable, points: dict[Side, int]) -> GameScore:
        """``loser`` resigns or runs out of time: the current game is recorded with its points as
        they stand and the match ends, won by the other player whatever the totals say."""
        if loser not in self.players:
            raise ValueError(f"{loser!r} does not play in this match")
        score = self.record(points)
        self.forfeited_by = loser
        return score

    def totals(self) -> dict[Hashable, int]:
        """Each player's match score: the sum of the points they scored in the match's games."""
        return {p: sum(s.points_of(p) for s in self.scores) for p in self.players}

    def leader(self) -> Hashable | None:
        """The player ahead on points right now, or ``None`` when level."""
        a, b = self.players
        totals = self.totals()
        if totals[a] == totals[b]:
            return None
        return a if totals[a] > totals[b] else b

    def winner(self) -> Hashable | None:
        """The match winner; ``None`` while the match runs or when it is drawn."""
        if not self.over:
            return None
        if self.forfeited_by is not None:
            a, b = self.players
            return b if self.forfeited_by == a else a
        return self.leader()

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (players must be JSON values themselves)."""
        return {
            "first_white": self.first_white,
            "first_black": self.first_black,
            "games": self.games,
            "scores": [[s.points["white"], s.points["black"]] for s in self.scores],
            "forfeited_by": self.forfeited_by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Rebuild a match from ``to_dict`` output."""
        match = cls(data["first_white"], data["first_black"], data["games"])
        for white, black in data["scores"]:
            match.record({"white": white, "black": black})
        match.forfeited_by = data["forfeited_by"]
        return match
