"""The click grid's plan: the board laid out from the player's side, and the points each click
lights, from the engine's legal actions only (steps, redeploys, ludos places)."""

from __future__ import annotations

import pytest

from bot.cogs.grid_plan import (
    BACK,
    LATER,
    OffGrid,
    Picked,
    Stage,
    click,
    layout,
    plan,
    point_name,
)
from bot.jarmo import Action, Game


def names(rows: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[point_name(p) for p in row] for row in rows]


NOTHING = Picked()


def lit(game: Game, picked: Picked = NOTHING) -> set[str]:
    grid = plan(game, game.turn, picked)
    return {cell.name for row in grid.rows for cell in row if cell.enabled}


def test_each_player_sees_their_own_camp_at_the_bottom() -> None:
    white, black = names(layout("white")), names(layout("black"))
    assert white[0] == ["A5", "B5", "C5", "D5", "E5"] and white[-1][0] == "A1"
    # Black's board is turned half round, as its image is: E1 top left, A5 bottom right.
    assert black[0] == ["E1", "D1", "C1", "B1", "A1"] and black[-1][-1] == "A5"


def test_at_the_start_the_pieces_that_can_move_are_lit_then_their_targets() -> None:
    game = Game.new()
    movable = {m.split("-")[0] for m in game.legal_moves()}
    assert lit(game) == movable
    assert click(game, Picked(), "B1") == Picked.parse("B1")
    targets = {m.split("-")[1] for m in game.legal_moves() if m.startswith("B1-")}
    assert lit(game, Picked.parse("B1")) == targets
    assert click(game, Picked.parse("B1"), "D2") == Action.parse("B1-D2")
    grid = plan(game, "white", Picked.parse("B1"))
    assert grid.stage is Stage.TARGET and not grid.can_place_later
    chosen = [cell.name for row in grid.rows for cell in row if cell.chosen]
    assert chosen == ["B1"]


def test_a_capture_is_a_target_and_marks_an_enemy_piece() -> None:
    game = Game.setup("B1:w D2:b E5:b", turn="white")
    grid = plan(game, "white", Picked.parse("B1"))
    [target] = [c for row in grid.rows for c in row if c.name == "D2"]
    assert target.enabled and target.owner == "black"
    assert click(game, Picked.parse("B1"), "D2") == Action.parse("B1xD2")


def test_a_redeploy_lights_the_empty_camp_points_and_plays_at_once() -> None:
    # A marked White piece in Black's camp and captured White pieces: White may redeploy.
    game = Game.setup("C5:wm A1:w E4:b", turn="white")
    places = {m[1:] for m in game.legal_moves() if m.startswith("@")}
    assert places == {"B1", "C1", "D1", "E1"}
    grid = plan(game, "white")
    assert grid.brings_pieces_in
    assert places <= lit(game)
    assert click(game, Picked(), "D1") == Action.parse("@D1")


def test_a_ludos_step_that_wins_a_piece_back_asks_where_to_place_it() -> None:
    game = Game.setup("B3:wg A1:w E3:b", ruleset="ludos", turn="white")
    assert "B3-A5@B1" in game.legal_moves() and "B3-A5" in game.legal_moves()
    placing = click(game, Picked.parse("B3"), "A5")
    assert placing == Picked.parse("B3-A5")
    grid = plan(game, "white", Picked.parse("B3-A5"))
    assert grid.stage is Stage.PLACE and grid.can_place_later
    assert lit(game, Picked.parse("B3-A5")) == {"B1", "C1", "D1", "E1"}
    assert click(game, Picked.parse("B3-A5"), "C1") == Action.parse("B3-A5@C1")
    assert click(game, Picked.parse("B3-A5"), LATER) == Action.parse("B3-A5")
    assert click(game, Picked.parse("B3-A5"), BACK) == Picked()


@pytest.mark.parametrize(
    ("picked", "clicked"),
    [
        ("", "C3"),  # an empty point that is no redeploy
        ("", "A5"),  # the opponent's piece
        ("B1", "B2"),  # not a target of B1
        ("B1-D2", "C1"),  # nothing to place after a plain step
        ("B1-D2", LATER),
    ],
)
def test_a_click_the_position_does_not_offer_is_off_the_grid(picked: str, clicked: str) -> None:
    with pytest.raises(OffGrid):
        click(Game.new(), Picked.parse(picked), clicked)


@pytest.mark.parametrize("text", ["Z9", "A1-A1", "A1-B2-C3", "B1-"])
def test_a_choice_no_grid_would_carry_is_refused(text: str) -> None:
    with pytest.raises(OffGrid):
        Picked.parse(text)


def test_a_choice_the_game_has_moved_past_is_off_the_grid() -> None:
    game = Game.new()
    game.play("B1-D2")
    with pytest.raises(OffGrid):
        plan(game, "black", Picked.parse("B1"))  # White's piece, chosen before White moved
    assert str(Picked.parse("B3-A5")) == "B3-A5" and str(Picked()) == ""
