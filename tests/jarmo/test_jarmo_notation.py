"""Notation (rules §7): every accepted input form, the canonical output, and clear refusals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.jarmo import Action, Game, NotationError, parse_point, point_index

A1, B1, C2, C5, D4 = (point_index(name) for name in ("A1", "B1", "C2", "C5", "D4"))


@pytest.mark.parametrize(
    "text", ["A1-C2", "a1-c2", "A1 C2", "A1C2", "a1–c2", "A1:C2", "A1xC2", " a1 - c2 ", "a1XC2"]
)
def test_step_forms(text: str) -> None:
    assert Action.parse(text) == Action(A1, C2)


@pytest.mark.parametrize("text", ["@B1", "@b1", " @ b1"])
def test_place_forms(text: str) -> None:
    assert Action.parse(text) == Action(place=B1)


@pytest.mark.parametrize("text", ["D4-C5@B1", "D4xC5@B1", "d4 c5 @b1", "D4:C5@ B1", "d4c5@b1"])
def test_step_with_place_forms(text: str) -> None:
    assert Action.parse(text) == Action(D4, C5, B1)


@pytest.mark.parametrize(
    ("action", "capture", "text"),
    [
        (Action(A1, C2), False, "A1-C2"),
        (Action(A1, C2), True, "A1xC2"),
        (Action(place=B1), False, "@B1"),
        (Action(D4, C5, B1), True, "D4xC5@B1"),
    ],
)
def test_canonical_format(action: Action, capture: bool, text: str) -> None:
    assert action.format(capture=capture) == text


@pytest.mark.parametrize(
    ("text", "mentions"),
    [
        ("", "A1-C2"),
        ("A1", "A1-C2"),
        ("F1-C2", "F1"),
        ("A6-C2", "A6"),
        ("A1-A1", "another point"),
        ("hello", "A1-C2"),
        ("@Z9", "Z9"),
        ("A1-C2-E3", "A1-C2"),
        ("A1-C2@", "A1-C2"),
        ("1A-2C", "A1-C2"),
    ],
)
def test_unreadable_text_says_what_was_expected(text: str, mentions: str) -> None:
    with pytest.raises(NotationError) as err:
        Action.parse(text)
    assert mentions in str(err.value)
    assert isinstance(err.value, ValueError)


def test_parse_point() -> None:
    assert parse_point("b1") == "B1"
    assert parse_point(" @B1 ") == "B1"
    for bad in ["", "B", "B6", "Z1", "B1 C2"]:
        with pytest.raises(NotationError, match="B1"):
            parse_point(bad)


@pytest.mark.parametrize("text", ["a1 c2", "A1C2", "a1–c2", "A1:C2", "A1xC2"])
def test_game_plays_any_form_and_records_the_canonical_one(text: str) -> None:
    game = Game.new()
    assert game.play(text) == "A1-C2"
    assert game.history == ["A1-C2"]


def test_capture_is_written_with_x_whatever_was_typed() -> None:
    game = Game.setup("A1:w C2:b E5:b", turn="white")
    assert game.play("a1-c2") == "A1xC2"


steps = st.tuples(
    st.integers(0, 24), st.integers(0, 24), st.one_of(st.none(), st.integers(0, 24))
).filter(lambda parts: parts[0] != parts[1])
actions = st.one_of(
    steps.map(lambda parts: Action(*parts)), st.integers(0, 24).map(lambda r: Action(place=r))
)


@given(actions)
def test_an_action_round_trips_through_its_text_its_code_and_its_repr(action: Action) -> None:
    assert Action.parse(str(action)) == action
    assert Action.parse(action.format(capture=True)) == action
    assert Action.from_code(action.code) == action
    assert eval(repr(action)) == action  # the repr is meant to be pasted back


@given(actions, st.sampled_from(["{}", " {} ", "\t{} "]))
def test_any_accepted_spelling_parses_to_the_same_action(action: Action, frame: str) -> None:
    text = frame.format(str(action))
    assert Action.parse(text.lower()) == action
    assert Action.parse(text.replace("-", " ")) == action


@pytest.mark.parametrize(
    "parts", [(0, 0, None), (0, None, None), (None, None, None), (25, 1, None), (None, None, -1)]
)
def test_an_impossible_action_is_refused(parts: tuple[int | None, int | None, int | None]) -> None:
    with pytest.raises(ValueError):
        Action(*parts)


def test_an_action_of_the_game_is_played_like_its_text() -> None:
    game = Game.setup("A1:w C2:b E5:b", turn="white")
    action = Action.parse("A1-C2")
    assert game.notation(action) == "A1xC2"
    assert game.play(action) == "A1xC2"
    assert Action.parse("A1-C2") in Game.new().legal_actions()
