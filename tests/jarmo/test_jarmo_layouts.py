"""Layouts: the bow board that stored games keep, the knight board, layouts as plain data."""

from collections.abc import Iterable

import pytest

from bot.jarmo import LAYOUTS, Game, Layout, get_layout, register_layout
from bot.jarmo.board import POINT_INDEX, column_of, row_of

SPEC_BOW = [
    "A1-B3",
    "A1-C2",
    "A2-B4",
    "A2-C3",
    "A3-B1",
    "A3-B5",
    "A4-B2",
    "A4-C3",
    "A5-B3",
    "A5-C4",
    "B1-C3",
    "B1-D2",
    "B2-C4",
    "B2-D3",
    "B3-C1",
    "B3-C5",
    "B4-C2",
    "B4-D3",
    "B5-C3",
    "B5-D4",
    "C1-D3",
    "C1-E2",
    "C2-D4",
    "C2-E3",
    "C3-D1",
    "C3-D5",
    "C4-D2",
    "C4-E3",
    "C5-D3",
    "C5-E4",
    "D1-E3",
    "D2-E4",
    "D3-E1",
    "D3-E5",
    "D4-E2",
    "D5-E3",
]
SPEC_WIDE = [
    "A1-C2",
    "B1-D2",
    "C1-E2",
    "A2-C3",
    "B2-D3",
    "C2-E3",
    "C3-A4",
    "D3-B4",
    "E3-C4",
    "C4-A5",
    "D4-B5",
    "E4-C5",
]


def deltas(a: str, b: str) -> tuple[int, int]:
    ia, ib = POINT_INDEX[a], POINT_INDEX[b]
    return abs(column_of(ia) - column_of(ib)), abs(row_of(ia) - row_of(ib))


def as_set(lines: Iterable[str | tuple[str, str]]) -> set[frozenset[str]]:
    return {
        frozenset(line.split("-")) if isinstance(line, str) else frozenset(line) for line in lines
    }


def test_bow_is_exactly_the_specified_36_lines() -> None:
    bow = get_layout("bow")
    assert len(bow.lines) == 36
    assert as_set(bow.lines) == as_set(SPEC_BOW)


def test_bow_has_all_tall_lines_and_the_twelve_wide_ones() -> None:
    bow = get_layout("bow")
    tall = [ln for ln in bow.lines if deltas(*ln) == (1, 2)]
    wide = [ln for ln in bow.lines if deltas(*ln) == (2, 1)]
    assert len(tall) == 24
    assert as_set(wide) == as_set(SPEC_WIDE)


def test_bow_is_mirrored_between_the_camps_not_rotated() -> None:
    lines = as_set(get_layout("bow").lines)

    def flip_rows(point: str) -> str:
        return point[0] + str(6 - int(point[1]))

    def rotate(point: str) -> str:
        return "ABCDE"[4 - "ABCDE".index(point[0])] + str(6 - int(point[1]))

    assert {frozenset(map(flip_rows, ln)) for ln in lines} == lines
    assert {frozenset(map(rotate, ln)) for ln in lines} != lines


def test_knight_layout_has_all_48_knight_lines() -> None:
    knight = LAYOUTS["knight"]
    assert len(knight.lines) == 48
    assert all(sorted(deltas(*ln)) == [1, 2] for ln in knight.lines)
    assert as_set(get_layout("bow").lines) < as_set(knight.lines)


def test_neighbours_are_symmetric() -> None:
    for layout in LAYOUTS.values():
        for a, targets in enumerate(layout.neighbours):
            assert all(a in layout.neighbours[b] for b in targets)


def test_a_new_layout_is_only_data() -> None:
    register_layout(Layout.from_text("test-ring", "A1-B3 B3-C1 C1-D3 D3-E1 A5-B3 E5-D3"))
    game = Game.new(layout="test-ring")
    assert game.legal_moves() == ["A1-B3", "C1-B3", "C1-D3", "E1-D3"]


@pytest.mark.parametrize("text", ["A1-A1", "A1-F2", "A1C2", "A1-C2 C2-A1"])
def test_bad_layout_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Layout.from_text("bad", text)


def test_unknown_layout_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="bow"):
        Game.new(layout="hexagon")
