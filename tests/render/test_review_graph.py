"""The review graph: a PNG of White's expected game points with the bad moves marked, drawn
the same every time and in the words given."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from bot.render import ENGLISH_WORDS, render_review_graph
from bot.render._review_graph import GRAPH_HEIGHT, GRAPH_WIDTH, MARKS

VALUES = [0.5, 0.55, 0.52, 0.2, 0.25, 0.9, 1.0]


def test_the_graph_is_a_png_of_its_size_and_the_same_every_time() -> None:
    graph = render_review_graph(VALUES, {3: "blunder", 5: "mistake"}, title="Ann – Bob")
    image = Image.open(io.BytesIO(graph))
    assert image.format == "PNG" and image.size == (GRAPH_WIDTH, GRAPH_HEIGHT)
    assert render_review_graph(VALUES, {3: "blunder", 5: "mistake"}, title="Ann – Bob") == graph


def test_a_blunder_is_marked_in_its_colour() -> None:
    unmarked = Image.open(io.BytesIO(render_review_graph(VALUES, {}))).convert("RGB")
    marked = Image.open(io.BytesIO(render_review_graph(VALUES, {3: "blunder"}))).convert("RGB")
    assert MARKS["blunder"] in {c for _, c in marked.getcolors(1 << 16) or []}
    assert marked.tobytes() != unmarked.tobytes()


def test_the_graph_is_worded_by_the_words_given() -> None:
    german = dataclasses.replace(ENGLISH_WORDS, review_ahead="{side} vorn", review_blunder="Patzer")
    assert render_review_graph(VALUES, {}, words=german) != render_review_graph(VALUES, {})


@pytest.mark.parametrize("values", [[0.5], [0.5, 1.2], [0.5, float("nan")]])
def test_values_a_graph_cannot_show_are_refused(values: list[float]) -> None:
    with pytest.raises(ValueError, match="graph"):
        render_review_graph(values, {})
