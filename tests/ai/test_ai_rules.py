"""The search plays by the engine's rules: it walks the game with push/pop, ends games where the
engine ends them and scores them as the engine does."""

import random

import pytest

from bot.ai._search import RESULT_BONUS, Budget, Searcher
from bot.jarmo import Game, Side
from bot.jarmo.codes import NOTATION

BUDGET = Budget(max_depth=2, node_limit=None, time_limit=None)


def test_a_search_leaves_the_game_it_walked_exactly_as_it_was() -> None:
    for ruleset in ("classic", "jasir", "ludos"):
        for seed in range(10):
            rng = random.Random(seed)
            game = Game.new(ruleset=ruleset)
            for _ in range(rng.randrange(0, 30)):
                if game.over:
                    break
                game.play(rng.choice(game.legal_moves()))
            if game.over:
                continue
            before, key = game.to_dict(), game.key
            found = Searcher(game, BUDGET, seed).run()
            assert game.to_dict() == before and game.key == key
            assert found.move in game.legal_codes()


def test_the_search_scores_a_finished_game_like_the_rules_engine() -> None:
    for ruleset in ("classic", "ludos"):
        for seed in range(40):
            rng = random.Random(seed)
            game = Game.new(ruleset=ruleset)
            while not game.over:
                game.play(rng.choice(game.legal_moves()))
            points = game.points()
            mover = game.turn
            other: Side = "black" if game.turn == "white" else "white"
            margin = 100 * (points[mover] - points[other])
            score = Searcher(game, BUDGET, 0)._terminal()
            winner = game.winner()
            if winner is None:
                assert score in (margin - 50, margin + 50)  # contempt for a draw
            else:
                sign = 1 if winner == mover else -1
                assert score == margin + sign * RESULT_BONUS


SHUFFLE = ["A1-B3", "E5-D3", "B3-A1", "D3-E5", "A1-B3", "E5-D3", "B3-A1", "D3-E5"]


def test_ludos_repetition_ends_the_game_and_pop_takes_the_ending_back() -> None:
    game = Game.setup("A1:w E1:w A5:b E5:b", ruleset="ludos")
    for text in SHUFFLE[:7]:
        game.play(text)
    assert not game.stopped
    game.play(SHUFFLE[7])
    assert game.over and game.stopped
    game.pop()
    assert not game.stopped and not game.over


def test_no_shuffling_forbids_the_fifth_step_in_the_integer_moves_too() -> None:
    game = Game.setup("A1:w E1:w A5:b E5:b", ruleset="classic")
    for text in SHUFFLE:
        game.play(text)
    # White has played A1-B3, back, A1-B3, back: A1-B3 is forbidden now, and the game goes on.
    assert not game.over and "A1-B3" not in game.legal_moves()
    assert [str(a) for a in game.legal_actions()] == game.legal_moves()
    assert len(game.legal_codes()) == len(game.legal_moves())


# The search's answer at depth 4 from fixed positions: move, score and the nodes it took, kept
# as data like move-generation counts. A change made for speed must find the same move with
# the same score after the same tree; a change to what the search does updates the table.
SEARCH_TREES = [
    ("classic", "A1-B3 D5-B4 B3xB4 C5-B3 C1-A2 A5-C4", "B4xB3", 328, 916),
    (
        "classic",
        "E1-C2 C5-B3 C2-B2 E5-C4 C1-D3 B3-C5 B1-A3 B5xA3 D3-D2 C4-E5 A1-B3 C5xB3 D2-D3 B3-D2",
        "D3xD2",
        -179,
        668,
    ),
    ("jasir", "B1-D2 C5-B3 D2-D3 B3-B2 D3xE5 A5-B3", "A1xB3", 286, 603),
    (
        "jasir",
        "C1-A2 B5-A3 D1-C3 E5-C4 C3-A4 C5-E4 A1-C2 E4-C3 A2xC3 D5-E3 C3-B3 C4-B2 C2xB2 E3-C2",
        "B3xA5",
        600,
        618,
    ),
    ("ludos", "D1-B2 C5-B3 B2-D1 D5-B4 A1xB3 B5-D4", "B3xB4", 304, 1503),
    (
        "ludos",
        "C1-A2 A5-B3 D1-C3 B3-B2 E1-C2 E5-D3 C3-B3 D5-E3 C2-E1 B5-A3 E1xD3 A3xB1 D3-B4 E3-C2",
        "B3xB2",
        15,
        1500,
    ),
]


@pytest.mark.parametrize(("ruleset", "moves", "move", "score", "nodes"), SEARCH_TREES)
def test_the_search_walks_the_same_tree_to_the_same_answer(
    ruleset: str, moves: str, move: str, score: int, nodes: int
) -> None:
    game = Game.new(ruleset=ruleset)
    for text in moves.split():
        game.play(text)
    found = Searcher(game, Budget(max_depth=4, node_limit=None, time_limit=None), 0).run()
    assert (NOTATION[found.move], found.score, found.depth, found.nodes) == (move, score, 4, nodes)
