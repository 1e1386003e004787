"""Variety: a game's own seed varies the computer's play within a stated margin, and the
evaluation's fitted weights add up the same terms that the tuning bench fits them on."""

import random

import pytest

from bot.ai import analyse
from bot.ai._api import _BUDGETS
from bot.ai._eval import Evaluator, weights_of
from bot.ai._features import evaluate_by_features
from bot.ai._search import Budget, Searcher
from bot.jarmo import Game
from bot.service.computer import search_seed


def random_game(ruleset: str, layout: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(ruleset=ruleset, layout=layout)
    for _ in range(rng.randrange(0, 50)):
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def test_other_seeds_open_other_games_at_medium() -> None:
    # Medium's two plies find two first moves within its margin; with the answers, the first
    # two moves of twenty seeded games make at least five different openings.
    openings = set()
    for seed in range(20):
        game = Game.new()
        for _ in range(2):
            game.play(
                analyse(game, level="medium", seed=1000 * seed + game.ply, node_limit=3_000).move
            )
        openings.add(tuple(game.history))
    assert len({opening[0] for opening in openings}) >= 2
    assert len(openings) >= 5


def test_vary_false_takes_the_best_move_whatever_the_seed() -> None:
    game = Game.new()
    moves = {
        analyse(game, level="medium", seed=seed, node_limit=3_000, vary=False).move
        for seed in range(10)
    }
    assert len(moves) == 1


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_chosen_move_is_never_worse_than_the_margin(level: str) -> None:
    budget = _BUDGETS[level]
    assert budget.variety <= 30  # the stated margins: medium 0.3 points, hard 0.1
    for seed in range(12):
        game = random_game("classic", "traditional", seed)
        if game.over:
            continue
        limits = Budget(max_depth=4, node_limit=4_000, time_limit=None, variety=budget.variety)
        searcher = Searcher(game.copy(), limits, seed)
        found = searcher.run()
        best = max(score for _, score in searcher.scored)
        assert (found.move, found.score) in searcher.scored
        assert found.score >= best - budget.variety


@pytest.mark.parametrize("seed", range(6))
def test_variety_never_gives_away_a_won_game(seed: int) -> None:
    # B3-A5 ends the game 6-2 at once; nothing else comes near it.
    game = Game.setup("B3:w C5:w E5:w D2:b E2:b", ruleset="classic")
    for level in ("medium", "hard"):
        assert analyse(game, level=level, seed=seed, node_limit=3_000).move == "B3-A5"


@pytest.mark.parametrize("ruleset", ["classic", "jasir", "ludos"])
@pytest.mark.parametrize("layout", ["traditional", "bow"])
def test_the_evaluation_adds_up_the_weighted_terms_the_tuning_fits(
    ruleset: str, layout: str
) -> None:
    for seed in range(60):
        game = random_game(ruleset, layout, seed)
        expected = evaluate_by_features(game, weights_of(game.rules))
        assert Evaluator(game).evaluate() == expected


def test_each_game_and_move_has_its_own_seed() -> None:
    seeds = {search_seed(game_id, ply) for game_id in range(1, 50) for ply in range(0, 200)}
    assert len(seeds) == 49 * 200
