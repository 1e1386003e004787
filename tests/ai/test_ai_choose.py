"""``choose_move`` / ``analyse``: legal, side-effect free, reproducible, and not blind."""

import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.ai import LEVELS, analyse, choose_move, choose_move_from_dict
from bot.jarmo import Game

NODES = 1_500  # small budgets keep the suite fast and, unlike time, reproducible


def random_position(ruleset: str, layout: str, seed: int) -> Game:
    """A running game after a random number of random plies."""
    rng = random.Random(seed)
    while True:
        game = Game.new(ruleset=ruleset, layout=layout)
        for _ in range(rng.randrange(0, 40)):
            if game.over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.over:
            return game


@pytest.mark.parametrize("ruleset", ["classic", "jasir", "ludos"])
@pytest.mark.parametrize("layout", ["bow", "knight"])
def test_returns_a_legal_move_and_leaves_the_game_untouched(ruleset: str, layout: str) -> None:
    for seed in range(6):
        game = random_position(ruleset, layout, seed)
        before = game.to_dict()
        level = LEVELS[seed % len(LEVELS)]
        move = choose_move(game, level=level, seed=seed, node_limit=NODES)
        assert move in game.legal_moves()
        assert game.to_dict() == before


def test_same_seed_and_node_limit_give_the_same_move() -> None:
    for seed in range(4):
        game = random_position("classic", "bow", 100 + seed)
        for level in LEVELS:
            first = analyse(game, level=level, seed=seed, node_limit=3_000)
            again = analyse(game, level=level, seed=seed, node_limit=3_000)
            assert first == again


def test_analysis_reports_depth_nodes_and_a_line_starting_with_the_move() -> None:
    game = Game.new()
    result = analyse(game, level="hard", node_limit=5_000)
    assert result.depth >= 2 and 0 < result.nodes <= 5_000
    assert result.pv[0] == result.move and result.move in game.legal_moves()


def assert_wins_at_once(game: Game, level: str) -> str:
    side = game.turn
    move = choose_move(game, level=level, node_limit=3_000)
    game.play(move)
    assert game.over and game.winner() == side, (move, game.outcome())
    return move


@pytest.mark.parametrize("level", LEVELS)
def test_enters_the_enemy_camp_to_end_a_won_game(level: str) -> None:
    # White's last runner on B3 can step to A5: every white piece then stands in the camp.
    game = Game.setup("B3:w C5:w E5:w D2:b E2:b", ruleset="classic")
    assert assert_wins_at_once(game, level) == "B3-A5"


@pytest.mark.parametrize(("level", "bonus"), [("easy", 300), ("medium", 300), ("hard", 100)])
def test_a_won_game_is_worth_its_margin_plus_the_levels_result_bonus(
    level: str, bonus: int
) -> None:
    # B3-A5 ends the game 6-2. Hard counts the win itself as one point only (the others: three),
    # so a wider margin later can outweigh ending a game now with a narrow lead.
    game = Game.setup("B3:w C5:w E5:w D2:b E2:b", ruleset="classic")
    result = analyse(game, level=level, node_limit=3_000)
    assert (result.move, result.score) == ("B3-A5", 400 + bonus)


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_capture_that_ends_the_game(level: str) -> None:
    # Taking C3 leaves Black only the piece in White's camp: 5 points to 2.
    game = Game.setup("D1:w D5:w E5:w A1:b C3:b", ruleset="classic")
    assert assert_wins_at_once(game, level) == "D1xC3"


@pytest.mark.parametrize("level", LEVELS)
def test_stops_the_runner_that_would_win(level: str) -> None:
    # Any other move lets D3 walk into White's camp and win 6-5; the capture wins 5-4 instead.
    game = Game.setup("D2:w A5:w E5:w A1:b C1:b D3:b", ruleset="classic")
    assert assert_wins_at_once(game, level) == "D2xD3"


def test_ludos_uses_the_camp_tie_break() -> None:
    # C4-A5 ends the game at 2 points each; White wins on pieces in the enemy camp (1 to 0).
    game = Game.setup("C4:w C3:b A2:b", ruleset="ludos", turn="white")
    move = choose_move(game, level="medium", node_limit=3_000)
    game.play(move)
    assert game.over and game.winner() == "white", (move, game.outcome())


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_does_not_hang_a_piece(level: str) -> None:
    # Every move but C2-E3 puts a piece where Black can take it.
    game = Game.setup("E2:w C2:w B2:w A1:w C3:b D3:b A5:b E5:b", ruleset="classic")
    assert choose_move(game, level=level, node_limit=5_000) == "C2-E3"


def test_unknown_level_and_finished_game_raise_value_error() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        choose_move(Game.new(), level="grandmaster")
    finished = Game.setup("A5:w B5:w A1:b")
    assert finished.over
    with pytest.raises(ValueError, match="over"):
        choose_move(finished)
    with pytest.raises(ValueError):
        choose_move_from_dict(finished.to_dict(), "easy", 0, 0.1)


def test_runs_in_a_process_pool() -> None:
    game = Game.new(ruleset="ludos", layout="knight")
    with ProcessPoolExecutor(max_workers=1) as pool:
        move = pool.submit(choose_move_from_dict, game.to_dict(), "hard", 3, 0.2).result(60)
    assert move in game.legal_moves()
