"""The values of a tournament's draw and table: plain player ids and integer points.

A pairing is a match (a few games with sides swapped after each); ``first`` is the player who
starts its first game, the tournament's "colour". Match points are 2 for a match won, 1 for a
match drawn and 0 for a match lost, so every total stays a whole number (Sonneborn-Berger,
which counts a drawn opponent's points half, may end in a half).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

PlayerId = int
Format = Literal["round-robin", "swiss"]
Outcome = Literal["win", "draw", "loss", "bye", "forfeit-win", "forfeit-loss"]

MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 2, 1, 0
BYE_POINTS = MATCH_WIN  # a bye is worth one match win (and no game points)


class PairingError(ValueError):
    """The event given cannot be paired as asked (a bad round number, a player twice, ...)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to meet in one match; ``first`` starts its first game."""

    first: PlayerId
    second: PlayerId

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise PairingError(f"player {self.first} cannot meet themselves")

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        """Both players, the starting one first."""
        return self.first, self.second


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How one pairing ended: the winner (``None`` for a drawn match) and each player's game
    points. A ``forfeit`` was decided without play (a withdrawal): it scores like a match but
    counts as no game played and no colour had. ``forced_by``: the moderator who decided it
    before it was over (it scores as its games had gone)."""

    round: int
    first: PlayerId
    second: PlayerId
    winner: PlayerId | None
    points: tuple[int, int] = (0, 0)  # game points of first, second
    forfeit: bool = False
    forced_by: PlayerId | None = None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise PairingError(f"player {self.first} cannot meet themselves")
        if self.winner not in (self.first, self.second, None):
            raise PairingError(f"winner {self.winner} did not play in this match")
        if self.round < 1 or min(self.points) < 0:
            raise PairingError("rounds count from 1 and game points are never negative")

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        """Both players, the starting one first."""
        return self.first, self.second

    def match_points(self, player: PlayerId) -> int:
        """What ``player`` scored: 2 for the match won, 1 drawn, 0 lost."""
        if self.winner is None:
            return MATCH_DRAW
        return MATCH_WIN if self.winner == player else MATCH_LOSS


@dataclass(frozen=True, slots=True)
class Bye:
    """``player`` sat out ``round`` (an odd field) and scores one match win for it."""

    round: int
    player: PlayerId


@dataclass(frozen=True, slots=True)
class Event:
    """Everything pairing and standings read: the players in seed order (top seed first), the
    results and byes so far, who has withdrawn (not paired again, results kept), and the rounds
    paired whose matches are not all decided yet (``unfinished``: a bye is decided when its
    round is paired, so results alone cannot tell a round in progress from one played)."""

    players: tuple[PlayerId, ...]
    results: tuple[MatchResult, ...] = ()
    byes: tuple[Bye, ...] = ()
    withdrawn: frozenset[PlayerId] = field(default_factory=frozenset)
    unfinished: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise PairingError("a player is entered twice")
        entered = set(self.players)
        named = {p for r in self.results for p in r.players} | {b.player for b in self.byes}
        if not named | self.withdrawn <= entered:
            raise PairingError(f"not entered: {sorted(named | self.withdrawn - entered)}")
        if any(number < 1 for number in self.unfinished):
            raise PairingError("rounds count from 1")

    @property
    def active(self) -> tuple[PlayerId, ...]:
        """The players still in, in seed order."""
        return tuple(p for p in self.players if p not in self.withdrawn)

    @property
    def rounds_played(self) -> int:
        """The last round of those played to the end, every match decided (0 before)."""
        if self.unfinished:
            return min(self.unfinished) - 1
        return self.rounds_paired

    @property
    def rounds_paired(self) -> int:
        """The highest round paired so far, played or not (0 before the first)."""
        rounds = [r.round for r in self.results] + [b.round for b in self.byes]
        return max((*rounds, *self.unfinished), default=0)

    @property
    def round_in_progress(self) -> int | None:
        """The round being played (paired, not every match decided), if any."""
        return max(self.unfinished) if self.unfinished else None

    def with_round(self, results: tuple[MatchResult, ...], bye: Bye | None = None) -> Event:
        """This event with one more round's results (and its bye) added."""
        byes = self.byes if bye is None else (*self.byes, bye)
        return Event(self.players, (*self.results, *results), byes, self.withdrawn, self.unfinished)

    def with_withdrawal(self, player: PlayerId) -> Event:
        """This event with ``player`` withdrawn: their results stay, they are paired no more."""
        return Event(
            self.players, self.results, self.byes, self.withdrawn | {player}, self.unfinished
        )


@dataclass(frozen=True, slots=True)
class Round:
    """One round's draw: the matches to play and the bye. ``walkovers`` are round-robin
    pairings with a withdrawn player, won by the other without play (see ``walkover_results``).
    """

    number: int
    pairings: tuple[Pairing, ...]
    bye: PlayerId | None = None
    walkovers: tuple[Pairing, ...] = ()

    def walkover_results(self, withdrawn: frozenset[PlayerId]) -> tuple[MatchResult, ...]:
        """The forfeit result of each walkover: the player still in wins."""
        return tuple(
            forfeit(self.number, pairing, absent=next(p for p in pairing.players if p in withdrawn))
            for pairing in self.walkovers
        )


def forfeit(round_number: int, pairing: Pairing, *, absent: PlayerId) -> MatchResult:
    """The result of ``pairing`` forfeited by ``absent`` (who withdrew): the other wins.

    Raises ``PairingError`` if ``absent`` is not in the pairing.
    """
    if absent not in pairing.players:
        raise PairingError(f"player {absent} is not in this pairing")
    winner = pairing.second if absent == pairing.first else pairing.first
    return MatchResult(round_number, pairing.first, pairing.second, winner, forfeit=True)


@dataclass(frozen=True, slots=True)
class RoundCell:
    """One player's round in the table: whom they met, how it went, who started, the points
    (theirs, the opponent's), and the moderator who forced the result, if one did. A bye has
    no opponent."""

    round: int
    outcome: Outcome
    opponent: PlayerId | None = None
    started: bool = False
    points: tuple[int, int] = (0, 0)
    forced_by: PlayerId | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the table. ``buchholz`` sums the opponents' match points; ``sonneborn_berger``
    counts a beaten opponent's match points in full and a drawn opponent's half (FIDE's
    definition), so it is a whole number or a half."""

    rank: int
    player: PlayerId
    match_points: int
    game_points: int
    buchholz: int
    sonneborn_berger: float
    rounds: tuple[RoundCell | None, ...]  # round 1 first; None: not paired that round
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Standings:
    """The table, best first, after ``rounds`` rounds played to the end. While a round is in
    progress (``in_progress``) its decided results and its bye are in the rows already."""

    rows: tuple[Standing, ...]
    rounds: int
    in_progress: int | None = None

    def rank_of(self, player: PlayerId) -> int:
        """``player``'s rank. Raises ``KeyError`` for a player not in the table."""
        for row in self.rows:
            if row.player == player:
                return row.rank
        raise KeyError(player)
