"""The review's pure logic: labels from the loss in expected game points, accuracy, turning
points, and known positions searched with the review's own budget."""

from __future__ import annotations

import pytest

from bot.ai.review import (
    GameReview,
    Label,
    PositionVerdict,
    expected_points,
    label_for,
    move_accuracy,
    positions,
    review,
    search_verdict,
)
from bot.jarmo import Game

# Each known position: (pieces, the move played, its label, the better moves one of which must
# be named: every move that the position shows to be as good).
KNOWN_MOVES = [
    # C2-A1 steps onto the point B3 takes; every other step that leaves B3 nothing to take
    # keeps the piece.
    (
        "C2:w E2:w D3:w B3:b E4:b",
        "C2-A1",
        Label.BLUNDER,
        {"C2-E1", "C2-E3", "D3-C1", "D3-D4", "D3-E1", "D3-E5", "E2-C1", "E2-D4"},
    ),
    # A win in three moves of White's (C3-A4, A4-C5, B2-C4 brings both pieces into the
    # camp first), found six plies deep: best, nothing better to name.
    ("C3:w B2:w D4:b", "C3-A4", Label.BEST, {None}),
    # The same position: C3-A2 throws the win away; C3-A4 and C3-B3 (by C5) both win it.
    ("C3:w B2:w D4:b", "C3-A2", Label.BLUNDER, {"C3-A4", "C3-B3"}),
]


@pytest.mark.parametrize(("pieces", "played", "label", "better"), KNOWN_MOVES)
def test_known_positions_get_their_label_and_better_move(
    pieces: str, played: str, label: Label, better: set[str | None]
) -> None:
    before = Game.setup(pieces)
    after = before.copy()
    after.play(played)
    judged = review([before, after], [search_verdict(before), search_verdict(after)])
    (move,) = judged.moves
    assert (move.played, move.label) == (played, label)
    assert move.better in better


@pytest.mark.parametrize(
    ("loss", "searched", "label"),
    [
        (0.0, False, Label.BEST),
        (0.009, False, Label.BEST),
        (0.01, False, Label.GOOD),
        (0.049, False, Label.GOOD),
        (0.05, False, Label.INACCURACY),
        (0.10, False, Label.MISTAKE),
        (0.199, False, Label.MISTAKE),
        (0.20, False, Label.BLUNDER),
        (0.9, False, Label.BLUNDER),
        (0.9, True, Label.BEST),  # the search's own move, whatever a later search says
    ],
)
def test_labels_follow_the_stated_bounds(loss: float, searched: bool, label: Label) -> None:
    assert label_for(loss, searched_move=searched) is label


@pytest.mark.parametrize(
    ("score", "low", "high"),
    [(0, 0.5, 0.5), (120, 0.73, 0.74), (-120, 0.26, 0.27), (1000, 0.999, 1.0)],
)
def test_expected_points_is_a_logistic_of_the_score(score: int, low: float, high: float) -> None:
    assert low <= expected_points(score) <= high


@pytest.mark.parametrize(("loss", "accuracy"), [(0.0, 100), (0.1, 80), (0.25, 50), (0.7, 0)])
def test_move_accuracy_falls_linearly_to_zero(loss: float, accuracy: int) -> None:
    assert move_accuracy(loss) == pytest.approx(accuracy)


def test_a_whole_game_review_has_turning_points_accuracy_and_a_graph() -> None:
    game = Game.new()
    for move in ("A1-C2", "A5-C4", "C2-E3", "B5-D4"):
        game.play(move)
    frames = positions(game)
    # For the side to move at each position: White's third move hands Black the game.
    scores = [0, 0, 0, 300, -200]
    best = ["A1-C2", "A5-C4", "C2-A1", "B5-D4", "X"]
    verdicts = [PositionVerdict(b, s) for b, s in zip(best, scores, strict=True)]
    judged = review(frames, verdicts)
    labels = [move.label for move in judged.moves]
    assert labels[:2] == [Label.BEST, Label.BEST]
    assert labels[2] is Label.BLUNDER and judged.moves[2].better == "C2-A1"
    assert judged.turning_points == (3,)
    assert judged.accuracy["white"] is not None and judged.accuracy["white"] < 100
    assert len(judged.graph()) == len(frames)
    assert GameReview.from_dict(judged.to_dict()) == judged


def test_a_finished_position_is_worth_its_result() -> None:
    before = Game.setup("C3:w B2:w D4:b")
    frames = [before]
    for move in ("C3-A4", "D4-D3", "A4-C5", "D3-D2", "B2-C4", "D2-B1"):
        step = frames[-1].copy()
        step.play(move)
        frames.append(step)
    assert frames[-1].over and frames[-1].winner() == "white"
    verdicts = [search_verdict(frame) for frame in frames]
    assert verdicts[-1] is None
    assert review(frames, verdicts).graph()[-1] == 1.0


def test_verdicts_that_do_not_fit_are_refused() -> None:
    game = Game.new()
    with pytest.raises(ValueError, match="verdicts"):
        review(positions(game), [])
    with pytest.raises(ValueError, match="malformed"):
        GameReview.from_dict({"format": 1})
