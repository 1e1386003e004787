"""The published board: the engine's lines are the rules' list, and the engine plays exactly
the game that a plain, independent reading of the rules plays on it."""

import random

import pytest

from bot.jarmo import DEFAULT_LAYOUT, Game, get_layout
from bot.jarmo.board import POINT_NAMES
from tests.jarmo.reference_rules import NEIGHBOURS, ReferenceGame


def test_new_games_are_on_the_published_board() -> None:
    assert DEFAULT_LAYOUT == "traditional"
    assert Game.new().layout.name == "traditional"
    assert len(get_layout("traditional").lines) == 39


@pytest.mark.parametrize("point", POINT_NAMES)
def test_each_points_neighbours_are_the_rules_list(point: str) -> None:
    layout = get_layout("traditional")
    engine = {POINT_NAMES[q] for q in layout.neighbours[POINT_NAMES.index(point)]}
    assert engine == set(NEIGHBOURS[point])


def test_the_rules_list_of_neighbours_is_symmetric() -> None:
    for point, targets in NEIGHBOURS.items():
        assert all(point in NEIGHBOURS[t] for t in targets), point


GAMES_PER_RULESET = 700


@pytest.mark.parametrize("ruleset", ["classic", "jasir", "ludos"])
def test_the_engine_and_the_reference_play_the_same_random_games(ruleset: str) -> None:
    rng = random.Random(f"published/{ruleset}")
    for _ in range(GAMES_PER_RULESET):
        engine = Game.new(ruleset=ruleset)
        reference = ReferenceGame(ruleset)
        seen: list[list[str]] = []
        while True:
            legal = engine.legal_moves()
            assert set(legal) == reference.moves(), (engine.history, reference.moves())
            assert engine.over == reference.over and engine.points() == reference.points()
            if engine.over:
                assert engine.winner() == reference.winner()
                break
            seen.append(legal)
            code = rng.choice(engine.legal_codes())
            engine.push(code)
            reference.play(engine.history[-1])
        for legal in reversed(seen):  # taking every action back restores every position
            engine.pop()
            assert engine.legal_moves() == legal
