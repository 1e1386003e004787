"""The search's own rules state agrees with ``bot.jarmo`` move for move."""

import random

import pytest

from bot.ai._state import State
from bot.jarmo import Game

CASES = [
    (ruleset, layout, max_plies)
    for ruleset in ("classic", "jasir", "ludos")
    for layout in ("bow", "knight")
    for max_plies in (200, 25)
]


def snapshot(st: State) -> tuple:
    """Everything make/unmake must restore (the kind of an empty point is meaningless)."""
    kinds = [k if o else 0 for k, o in zip(st.kind, st.owner, strict=True)]
    return (
        st.owner[:],
        kinds,
        [p[:] for p in st.pieces],
        st.captured[:],
        st.reserve[:],
        st.on_board[:],
        st.in_camp[:],
        [r[:] for r in st.recent],
        st.side,
        st.ply,
        st.hash,
    )


@pytest.mark.parametrize(("ruleset", "layout", "max_plies"), CASES)
def test_move_generator_and_make_unmake_match_the_rules_engine(ruleset, layout, max_plies):
    positions = 0
    for seed in range(30):
        rng = random.Random(f"{ruleset}/{layout}/{seed}")
        game = Game.new(ruleset=ruleset, layout=layout, max_plies=max_plies)
        state = State(game.to_dict())
        while True:
            legal = game.legal_moves()
            mine = [] if state.stopped() else state.moves()
            assert sorted(state.text(m) for m in mine) == sorted(legal), game.to_dict()
            positions += 1
            if not legal:
                break
            before = snapshot(state)
            for move in mine:
                state.make(move)
                state.unmake()
                assert snapshot(state) == before
            move = rng.choice(mine)
            game.play(state.text(move))
            state.make(move)
            assert state.hash == State(game.to_dict()).hash  # incremental hash = fresh hash
    assert positions > 300


def test_state_scores_a_finished_game_like_the_rules_engine():
    for ruleset in ("classic", "ludos"):
        for seed in range(40):
            rng = random.Random(seed)
            game = Game.new(ruleset=ruleset)
            while not game.over:
                game.play(rng.choice(game.legal_moves()))
            state = State(game.to_dict())
            winner = game.winner()
            expected = 0 if winner is None else 1 if winner == "white" else -1
            assert state.result(0) == expected and state.result(1) == -expected
            assert state.points(0) == game.points()["white"]


def shuffle_moves(state: State, texts: list[str]) -> None:
    """Play canonical moves on a state by matching their text."""
    for text in texts:
        (move,) = [m for m in state.moves() if state.text(m) == text]
        state.make(move)


SHUFFLE = ["A1-B3", "E5-D3", "B3-A1", "D3-E5", "A1-B3", "E5-D3", "B3-A1", "D3-E5"]


def test_ludos_repetition_ends_the_game_in_the_search_state_too():
    game = Game.setup("A1:w E1:w A5:b E5:b", ruleset="ludos")
    state = State(game.to_dict())
    shuffle_moves(state, SHUFFLE[:7])
    assert not state.stopped()
    shuffle_moves(state, SHUFFLE[7:])
    for text in SHUFFLE:
        game.play(text)
    assert game.over and state.stopped()
    state.unmake()
    assert not state.stopped()


def test_no_shuffling_forbids_the_fifth_step_in_the_search_state_too():
    game = Game.setup("A1:w E1:w A5:b E5:b", ruleset="classic")
    state = State(game.to_dict())
    shuffle_moves(state, SHUFFLE)
    for text in SHUFFLE:
        game.play(text)
    # White has played A1-B3, back, A1-B3, back: A1-B3 is forbidden now, and the game goes on.
    assert not game.over and "A1-B3" not in game.legal_moves()
    assert not state.stopped()
    assert sorted(state.text(m) for m in state.moves()) == sorted(game.legal_moves())
