"""Property-based tests over random games: invariants that must hold in every position."""

import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.jarmo import PIECES_PER_SIDE, Game, IllegalMove
from bot.jarmo.board import IN_ENEMY_CAMP, POINT_INDEX, POINT_NAMES, SIDE_INDEX
from bot.jarmo.errors import Problem

rulesets = st.sampled_from(["classic", "jasir", "ludos"])
layouts = st.sampled_from(["traditional", "bow", "knight"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(
    ruleset: str, layout: str, seed: int, max_plies: int = 200
) -> Iterator[tuple[Game, str | None]]:
    """Yield (game, move) before each random legal move, then the finished game with None."""
    rng = random.Random(seed)
    game = Game.new(ruleset=ruleset, layout=layout, max_plies=max_plies)
    while not game.over:
        move = rng.choice(game.legal_moves())
        yield game, move
        game.play(move)
    yield game, None


def check_invariants(game: Game) -> None:
    pos = game.position()
    points = [p.point for p in pos.pieces]
    assert len(points) == len(set(points)), "two pieces on one point"
    for side in ("white", "black"):
        on_board = sum(1 for p in pos.pieces if p.side == side)
        assert on_board + pos.captured[side] + pos.reserve[side] == PIECES_PER_SIDE
        assert pos.captured[side] >= 0 and pos.reserve[side] >= 0
    expected = {
        s: sum(
            2 if IN_ENEMY_CAMP[SIDE_INDEX[s]][POINT_INDEX[p.point]] else 1
            for p in pos.pieces
            if p.side == s
        )
        for s in ("white", "black")
    }
    assert game.points() == expected


@settings(max_examples=60, deadline=None)
@given(rulesets, layouts, seeds)
def test_invariants_hold_through_random_games(ruleset: str, layout: str, seed: int) -> None:
    for game, move in random_game(ruleset, layout, seed):
        check_invariants(game)
        if move is None:
            assert game.over and game.legal_moves() == [] and game.outcome() is not None
            assert game.ply <= 200
            continue
        if "-" in move or "x" in move:
            origin = POINT_INDEX[move[:2]]
            assert not IN_ENEMY_CAMP[SIDE_INDEX[game.turn]][origin], "a piece left the enemy camp"


@settings(max_examples=40, deadline=None)
@given(rulesets, layouts, seeds, st.integers(min_value=0, max_value=80))
def test_to_dict_round_trips_through_json(
    ruleset: str, layout: str, seed: int, stop_at: int
) -> None:
    for game, _ in random_game(ruleset, layout, seed):
        if game.ply >= stop_at or game.over:
            break
    data = json.loads(json.dumps(game.to_dict()))
    twin = Game.from_dict(data)
    assert twin == game and twin.to_dict() == game.to_dict()
    assert twin.legal_moves() == game.legal_moves() and twin.over == game.over
    assert twin.outcome() == game.outcome() and twin.turn == game.turn


@settings(max_examples=40, deadline=None)
@given(rulesets, layouts, seeds, st.integers(min_value=0, max_value=60))
def test_play_accepts_exactly_the_legal_moves_and_explains_every_refusal(
    ruleset: str, layout: str, seed: int, stop_at: int
) -> None:
    for game, _ in random_game(ruleset, layout, seed):
        if game.ply >= stop_at or game.over:
            break
    legal = set(game.legal_moves())
    candidates = [f"{a}-{b}" for a in POINT_NAMES for b in POINT_NAMES if a != b]
    candidates += [f"@{a}" for a in POINT_NAMES] + [
        m + "@B1" for m in sorted(legal) if "@" not in m
    ][:5]
    before = game.to_dict()
    for text in candidates:
        trial = game.copy()
        try:
            played = trial.play(text)
        except IllegalMove as err:
            assert err.problem is not Problem.NOT_ALLOWED, f"unexplained refusal of {text}"
            assert trial.to_dict() == before
            continue
        assert played in legal
    assert game.to_dict() == before


@settings(max_examples=30, deadline=None)
@given(rulesets, seeds)
def test_replaying_the_history_reproduces_the_game(ruleset: str, seed: int) -> None:
    *_, (game, _) = random_game(ruleset, "traditional", seed)
    replay = Game.new(ruleset=ruleset)
    for move in game.history:
        replay.play(move)
    assert replay == game
    positions = game.positions()
    assert len(positions) == game.ply + 1 and positions[-1] == game.position()


@settings(max_examples=20, deadline=None)
@given(rulesets, seeds, st.integers(min_value=1, max_value=30))
def test_the_ply_guard_is_never_exceeded(ruleset: str, seed: int, max_plies: int) -> None:
    *_, (game, _) = random_game(ruleset, "knight", seed, max_plies=max_plies)
    assert game.ply <= max_plies
