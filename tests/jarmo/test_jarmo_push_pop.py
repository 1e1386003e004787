"""``push``/``pop`` and the position key: taking an action back restores the exact position."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.jarmo import Action, Game

rulesets = st.sampled_from(["classic", "jasir", "ludos"])
layouts = st.sampled_from(["traditional", "bow", "knight"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a position is: its stored form, key, legal actions and ending."""
    return (game.to_dict(), game.key, game.legal_codes(), game.outcome(), game.ply)


@settings(max_examples=60, deadline=None)
@given(rulesets, layouts, seeds, st.integers(min_value=10, max_value=200))
def test_pop_undoes_every_push_exactly_through_random_games(
    ruleset: str, layout: str, seed: int, max_plies: int
) -> None:
    rng = random.Random(seed)
    game = Game.new(ruleset=ruleset, layout=layout, max_plies=max_plies)
    before = [snapshot(game)]
    while not game.over:
        here = before[-1]
        for code in game.legal_codes():  # every action from here, made and taken back
            game.push(code)
            assert game.key == Game.from_dict(game.to_dict()).key  # incremental = fresh
            assert game.pop() == code
            assert snapshot(game) == here
        game.push(rng.choice(game.legal_codes()))
        before.append(snapshot(game))
    for here in reversed(before[:-1]):  # all the way back to the start
        game.pop()
        assert snapshot(game) == here
    with pytest.raises(IndexError):
        game.pop()


@settings(max_examples=40, deadline=None)
@given(rulesets, layouts, seeds)
def test_push_of_a_legal_code_is_play_of_its_text(ruleset: str, layout: str, seed: int) -> None:
    rng = random.Random(seed)
    pushed = Game.new(ruleset=ruleset, layout=layout)
    played = Game.new(ruleset=ruleset, layout=layout)
    while not pushed.over:
        codes, texts = pushed.legal_codes(), pushed.legal_moves()
        assert len(codes) == len(texts)
        i = rng.randrange(len(codes))
        pushed.push(codes[i])
        assert played.play(texts[i]) == texts[i]
        assert pushed == played and pushed.key == played.key


def test_equal_positions_reached_by_different_orders_have_equal_keys() -> None:
    one, two = Game.new(), Game.new()
    for move in ["A1-C2", "A5-C4", "E1-D3"]:
        one.play(move)
    for move in ["E1-D3", "A5-C4", "A1-C2"]:
        two.play(move)
    assert one.key == two.key
    assert one.key != Game.new().key


def test_a_game_rebuilt_from_storage_has_nothing_to_take_back_but_plays_on() -> None:
    game = Game.new()
    game.play("A1-C2")
    rebuilt = Game.from_dict(game.to_dict())
    with pytest.raises(IndexError):
        rebuilt.pop()
    rebuilt.play(Action.parse("a5 c4"))
    assert rebuilt.pop() == Action.parse("A5-C4").code
    assert rebuilt == game and rebuilt.history == ["A1-C2"]
