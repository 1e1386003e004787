"""A review in words: the move list with marks and better moves (cut to fit), the players'
lines with their counts, the turning points and the graph's alternative text, in English and
Polish (three plural forms)."""

from __future__ import annotations

from bot.ai.review import GameReview, Label, MoveReview
from bot.service.reviews import ReviewView
from bot.words import Voice, shared_catalogue
from bot.words.review import (
    graph_description,
    review_moves_text,
    review_summary,
    turning_point_caption,
)
from tests.wording import voice

NAMES = {5: "Ann", 6: "Bob"}


def a_view(moves: list[MoveReview], accuracy: int = 80) -> ReviewView:
    judged = GameReview(tuple(moves), 0.5, {"white": accuracy, "black": 100}, (3,))
    return ReviewView(1, 1, "classic", 5, 6, ("Ann", "Bob"), judged, ())


MOVES = [
    MoveReview(1, "white", "A1-C2", Label.BEST, 0.0, None, 0.5),
    MoveReview(2, "black", "A5-C4", Label.GOOD, 0.02, "B5-D4", 0.52),
    MoveReview(3, "white", "C2-E3", Label.BLUNDER, 0.4, "C2-A1", 0.1),
    MoveReview(4, "black", "C4xE3", Label.BEST, 0.0, None, 0.1),
]


def test_the_move_list_marks_every_move_that_was_not_the_best() -> None:
    text = review_moves_text(a_view(MOVES), voice(NAMES.get))
    assert text.splitlines() == [
        "1. A1-C2 · A5-C4 (good; better B5-D4)",
        "2. C2-E3?? (blunder; better C2-A1) · C4xE3",
        "_A move without a note was the best move._",
    ]


def test_a_long_move_list_is_cut_to_its_limit() -> None:
    long = [
        MoveReview(n, "white", "A1-C2", Label.BLUNDER, 0.4, "C2-A1", 0.1) for n in range(1, 201)
    ]
    text = review_moves_text(a_view(long), voice(NAMES.get), limit=500)
    assert len(text) <= 500 and "…" in text and text.endswith("best move._")


def test_each_player_s_line_has_their_accuracy_and_counts() -> None:
    lines = review_summary(a_view(MOVES), voice(NAMES.get)).splitlines()
    assert lines == [
        "White (Ann): **accuracy 80%** · 0 inaccuracies · 0 mistakes · 1 blunder",
        "Black (Bob): **accuracy 100%** · 0 inaccuracies · 0 mistakes · 0 blunders",
    ]


def test_polish_counts_take_their_three_forms() -> None:
    polish = Voice(shared_catalogue("pl"), name=lambda user: NAMES[user])
    many = [MoveReview(n, "white", "A1-C2", Label.MISTAKE, 0.15, "C2-A1", 0.3) for n in (1, 3)]
    line = review_summary(a_view(many), polish).splitlines()[0]
    assert line.startswith("Białe (Ann): **celność 80%**")
    assert "2 błędy" in line and "0 poważnych błędów" in line


def test_a_turning_point_and_the_graph_say_which_move_it_was() -> None:
    view = a_view(MOVES)
    english = voice(NAMES.get)
    assert turning_point_caption(view, 3, english) == (
        "Move 2, White (Ann): C2-E3, blunder; better C2-A1."
    )
    described = graph_description(view, english)
    assert described.startswith("Graph of White's expected share of the game after each move")
    assert described.endswith("Marked as blunder: 2. C2-E3.")
