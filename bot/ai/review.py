"""Reviewing a finished game: what each move cost in expected game points, a label for it, each
player's accuracy and the game's turning points.

Pure: it reads the searches' answers (:class:`PositionVerdict`, one per position), it does not
search. The service has every position searched with the same fixed node budget
(:data:`REVIEW_NODE_LIMIT`), so a review is the same on every machine and every run.

Expected game points are a game's result as a player may still expect it: 1 for a win, ½ for a
draw, 0 for a loss. A search's score (the expected point margin in hundredths, for the side to
move) becomes expected game points through a logistic curve (:func:`expected_points`); a
finished position is worth its actual result. The rules page (docs/rules.md, "Review") states
the same numbers in words: change them together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from bot.jarmo import Game, Side

from ._api import analyse

#: The level and the node budget every position of a review is searched with. The budget, not
#: the clock, ends each search: the answer is the same on any machine (bench/review.py measures
#: what it costs).
REVIEW_LEVEL: Final = "hard"
REVIEW_NODE_LIMIT: Final = 10_000
#: A search's time limit, only a guard: the node budget ends it long before on any machine.
REVIEW_TIME_GUARD: Final = 60.0

#: The score (hundredths of a point of margin) at which the side to move expects about 0.73 of
#: a game point, e^1 / (1 + e^1): one point of margin usually decides a game of Jarmo.
EXPECTATION_SCALE: Final = 120


class Label(StrEnum):
    """What a move was, from the loss in expected game points it caused."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: A move losing less than each bound gets its label (the search's own move is always best).
LABEL_BOUNDS: Final[tuple[tuple[float, Label], ...]] = (
    (0.01, Label.BEST),
    (0.05, Label.GOOD),
    (0.10, Label.INACCURACY),
    (0.20, Label.MISTAKE),
)
#: A move's accuracy falls from 100 (no loss) to 0 at this loss, in a straight line.
ZERO_ACCURACY_LOSS: Final = 0.5
TURNING_POINTS: Final = 3


@dataclass(frozen=True, slots=True)
class PositionVerdict:
    """A search's answer about one position: the move it prefers and the score for the side
    to move (``SearchResult.move`` and ``.score``)."""

    best: str
    score: int


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of the game: ``ply`` counts from 1; ``loss`` is in expected game points;
    ``better`` is the search's move where the played one is not best (else ``None``);
    ``white_after`` is White's expected game points after the move (the graph's point)."""

    ply: int
    side: Side
    played: str
    label: Label
    loss: float
    better: str | None
    white_after: float


@dataclass(frozen=True, slots=True)
class GameReview:
    """A whole game's review: ``white_start`` is White's expectation before the first move,
    ``accuracy`` each side's figure (0–100; ``None`` for a side without moves),
    ``turning_points`` the plies of the (up to three) largest swings, in ply order."""

    moves: tuple[MoveReview, ...]
    white_start: float
    accuracy: dict[Side, int | None]
    turning_points: tuple[int, ...]

    def graph(self) -> list[float]:
        """White's expected game points after 0, 1, 2, ... plies."""
        return [self.white_start, *(move.white_after for move in self.moves)]

    def counts(self, side: Side) -> dict[Label, int]:
        """How many of ``side``'s moves got each label."""
        found = dict.fromkeys(Label, 0)
        for move in self.moves:
            if move.side == side:
                found[move.label] += 1
        return found

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` reads it back."""
        return {
            "format": 1,
            "white_start": self.white_start,
            "accuracy": dict(self.accuracy),
            "turning_points": list(self.turning_points),
            "moves": [
                [m.ply, m.side, m.played, m.label.value, m.loss, m.better, m.white_after]
                for m in self.moves
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameReview:
        """Rebuild a review from :meth:`to_dict` output; ``ValueError`` if malformed."""
        try:
            if data["format"] != 1:
                raise ValueError(f"unknown review format {data['format']!r}")
            moves = tuple(
                MoveReview(int(ply), _side(side), str(played), Label(label), float(loss),
                           None if better is None else str(better), float(after))
                for ply, side, played, label, loss, better, after in data["moves"]
            )  # fmt: skip
            accuracy: dict[Side, int | None] = {
                side: None if data["accuracy"][side] is None else int(data["accuracy"][side])
                for side in ("white", "black")
            }
            return cls(moves, float(data["white_start"]), accuracy, tuple(data["turning_points"]))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed review data: {exc!r}") from exc


def expected_points(score: int) -> float:
    """The expected game points of the side to move, from a search's ``score``."""
    return 1.0 / (1.0 + math.exp(-score / EXPECTATION_SCALE))


def label_for(loss: float, *, searched_move: bool) -> Label:
    """The label of a move that lost ``loss`` expected game points; the search's own move
    (``searched_move``) is best whatever a later search thinks of it."""
    if searched_move:
        return Label.BEST
    for bound, label in LABEL_BOUNDS:
        if loss < bound:
            return label
    return Label.BLUNDER


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0–100."""
    return 100.0 * max(0.0, 1.0 - loss / ZERO_ACCURACY_LOSS)


def positions(game: Game) -> list[Game]:
    """Every position of ``game`` from its start: index ``i`` is the position after ``i``
    plies (independent copies; the last one is ``game`` as it stands)."""
    replay = Game.new(game.ruleset, game.layout.name, game.max_plies)
    found = [replay.copy()]
    for move in game.history:
        replay.play(move)
        found.append(replay.copy())
    return found


def search_verdict(game: Game) -> PositionVerdict | None:
    """Search one position as a review does (in this process), or ``None`` when it is over."""
    if game.over:
        return None
    found = analyse(
        game,
        level=REVIEW_LEVEL,
        node_limit=REVIEW_NODE_LIMIT,
        time_limit=REVIEW_TIME_GUARD,
        vary=False,  # a review names the best move, the same on every run
    )
    return PositionVerdict(found.move, found.score)


def final_expectation(game: Game, side: Side) -> float:
    """What ``side`` scores in a finished ``game``: 1, ½ or 0."""
    winner = game.winner()
    if winner is None:
        return 0.5
    return 1.0 if winner == side else 0.0


def review(frames: Sequence[Game], verdicts: Sequence[PositionVerdict | None]) -> GameReview:
    """The review of a game from its positions (``positions(game)``: each one the one before
    with one more move) and one verdict per position (``None`` exactly for a finished position,
    which is worth its result).

    Raises ``ValueError`` when the verdicts do not fit the positions.
    """
    if len(verdicts) != len(frames) or not frames:
        raise ValueError(f"{len(verdicts)} verdicts for {len(frames)} positions")
    white = [_white_expectation(f, v) for f, v in zip(frames, verdicts, strict=True)]
    moves = []
    for index in range(1, len(frames)):
        before, verdict = frames[index - 1], verdicts[index - 1]
        if verdict is None or frames[index].ply != before.ply + 1:
            raise ValueError(f"position {index} does not follow the one before it")
        played = frames[index].history[-1]
        moves.append(
            _judge(frames[index].ply, before.turn, played, verdict, white[index - 1], white[index])
        )
    return GameReview(tuple(moves), white[0], _accuracies(moves), _turning_points(moves, white[0]))


def _white_expectation(frame: Game, verdict: PositionVerdict | None) -> float:
    if frame.over:
        return final_expectation(frame, "white")
    if verdict is None:
        raise ValueError(f"no verdict for the unfinished position after ply {frame.ply}")
    mover = expected_points(verdict.score)
    return mover if frame.turn == "white" else 1.0 - mover


def _judge(
    ply: int, side: Side, played: str, verdict: PositionVerdict, before: float, after: float
) -> MoveReview:
    own_before, own_after = (before, after) if side == "white" else (1 - before, 1 - after)
    loss = max(0.0, own_before - own_after)
    searched = _same_move(played, verdict.best)
    label = label_for(loss, searched_move=searched)
    if label is Label.BEST:
        loss = 0.0 if searched else loss
    better = None if label is Label.BEST else verdict.best
    return MoveReview(ply, side, played, label, round(loss, 4), better, round(after, 4))


def _same_move(played: str, searched: str) -> bool:
    # The history writes a capture with its mark, as the search's canonical move does; compare
    # without it all the same, so a notation detail never turns a best move into a worse one.
    return played.replace("x", "-") == searched.replace("x", "-")


def _accuracies(moves: Sequence[MoveReview]) -> dict[Side, int | None]:
    found: dict[Side, int | None] = {}
    for side in ("white", "black"):
        own = [move_accuracy(m.loss) for m in moves if m.side == side]
        found[side] = round(sum(own) / len(own)) if own else None
    return found


def _turning_points(moves: Sequence[MoveReview], start: float) -> tuple[int, ...]:
    swings = []
    before = start
    for move in moves:
        swing = abs(move.white_after - before)
        if swing > 0 and move.label in (Label.MISTAKE, Label.BLUNDER, Label.INACCURACY):
            swings.append((swing, move.ply))
        before = move.white_after
    largest = sorted(swings, key=lambda found: (-found[0], found[1]))[:TURNING_POINTS]
    return tuple(sorted(ply for _, ply in largest))


def _side(name: object) -> Side:
    if name not in ("white", "black"):
        raise ValueError(f"not a side: {name!r}")
    return "white" if name == "white" else "black"
