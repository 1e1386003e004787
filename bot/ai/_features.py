"""A position's evaluation terms, counted one by one: the evaluation is their weighted sum.

``bench/tune.py`` fits the weights (``_weights.py``) to game results from these counts; the
search never calls this (``_eval.Evaluator`` adds up the same terms, memoised, much faster), and
a test checks that the two agree.
"""

from __future__ import annotations

from bot.jarmo import Game
from bot.jarmo.board import ARCHER, IN_ENEMY_CAMP, MARKED, POINT_COUNT
from bot.jarmo.steps import points_of, side_steps

from ._eval import (
    ATTACK,
    DEFEND,
    MOBILITY,
    PLACE_BLACK,
    PLACE_WHITE,
    REDEPLOY_RIGHT,
    RESERVE_PIECE,
    RUNNER,
    TEMPO,
    WEIGHT_COUNT,
)


def features(game: Game) -> list[int]:
    """The counts of each weight's term (``WEIGHT_COUNT`` of them) from White's point of view:
    White's count less Black's. The evaluation for the side to move is their dot product with
    the weights, negated when Black is to move."""
    counts = [0] * WEIGHT_COUNT
    steps = side_steps(game.layout, game.rules.no_backwards)
    occupancy, kinds = game.occupancy, game.kinds
    for s, sign, place in ((0, 1, PLACE_WHITE), (1, -1, PLACE_BLACK)):
        own, enemy = occupancy[s], occupancy[1 - s]
        points = points_of(own)
        for p in points:
            counts[place + p] += sign
            for q in steps[s].targets[p]:
                if own >> q & 1:
                    counts[DEFEND] += sign
                elif enemy >> q & 1:
                    counts[ATTACK] += sign
                else:
                    counts[MOBILITY] += sign
        captured = game.captured_counts[s]
        if captured:
            marked_in_camp = runners = 0
            for p in points:
                if kinds[p] == ARCHER:
                    continue
                if not IN_ENEMY_CAMP[s][p]:
                    runners += 1
                elif kinds[p] == MARKED:
                    marked_in_camp += 1
            counts[REDEPLOY_RIGHT] += sign * min(marked_in_camp, captured)
            counts[RUNNER] += sign * min(runners, captured)
        if game.rules.guards:
            counts[RESERVE_PIECE] += sign * game.reserve_counts[s]
    counts[TEMPO] = 1 if game.turn_index == 0 else -1
    return counts


def evaluate_by_features(game: Game, weights: tuple[int, ...]) -> int:
    """The evaluation for the side to move, from the counts (slow; for the fit and tests)."""
    value = sum(w * c for w, c in zip(weights, features(game), strict=True))
    return -value if game.turn_index else value


assert PLACE_BLACK + POINT_COUNT == MOBILITY
