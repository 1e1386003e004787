"""Every rule and decision of ../shared/jarmo-rules.md §2–§5, one behaviour per test."""

import pytest

from bot.jarmo import Game, IllegalMove, LastAction, Outcome, Piece, Termination
from bot.jarmo.errors import Problem


def refused(game: Game, move: str) -> IllegalMove:
    """Play ``move`` expecting a refusal that leaves the game untouched; return the error."""
    before = game.to_dict()
    with pytest.raises(IllegalMove) as err:
        game.play(move)
    assert game.to_dict() == before
    return err.value


def occupant(game: Game, point: str) -> Piece:
    """The piece on ``point``; the test fails if the point is empty."""
    piece = game.piece_at(point)
    assert piece is not None, f"no piece on {point}"
    return piece


def last_action(game: Game) -> LastAction:
    """The action that led to the current position; the test fails if there was none."""
    last = game.position().last
    assert last is not None, "no action played yet"
    return last


def outcome(game: Game) -> Outcome:
    """How the game ended; the test fails if it has not."""
    result = game.outcome()
    assert result is not None, "the game is not over"
    return result


# --- set-up and steps ---------------------------------------------------------------------------


def test_start_position() -> None:
    game = Game.new()
    pos = game.position()
    assert {p.point for p in pos.pieces if p.side == "white"} == {"A1", "B1", "C1", "D1", "E1"}
    assert {p.point for p in pos.pieces if p.side == "black"} == {"A5", "B5", "C5", "D5", "E5"}
    assert all(p.kind == "archer" for p in pos.pieces)
    assert pos.captured == pos.reserve == {"white": 0, "black": 0}
    assert game.turn == "white" and game.ply == 0 and not game.over
    assert game.points() == {"white": 5, "black": 5}


def test_white_opening_moves_on_the_published_board() -> None:
    assert Game.new().legal_moves() == [
        "A1-B3",
        "A1-C2",
        "B1-A3",
        "B1-D2",
        "C1-A2",
        "C1-D3",
        "C1-E2",
        "D1-B2",
        "D1-C3",
        "E1-C2",
        "E1-D3",
    ]


def test_black_first_moves_on_the_published_board() -> None:
    game = Game.new()
    game.play("A1-C2")
    # The board is not symmetric: Black's steps are not White's turned round.
    assert game.legal_moves() == [
        "A5-B3",
        "A5-C4",
        "B5-A3",
        "B5-D4",
        "C5-A4",
        "C5-B3",
        "C5-E4",
        "D5-B4",
        "D5-E3",
        "E5-C4",
        "E5-D3",
    ]


def test_a_game_on_the_old_bow_board_keeps_its_lines() -> None:
    game = Game.new(layout="bow")
    assert game.legal_moves() == [
        "A1-B3",
        "A1-C2",
        "B1-A3",
        "B1-C3",
        "B1-D2",
        "C1-B3",
        "C1-D3",
        "C1-E2",
        "D1-C3",
        "D1-E3",
        "E1-D3",
    ]
    assert Game.from_dict(game.to_dict()).layout.name == "bow"


def test_a_step_along_an_old_line_is_refused_with_the_reachable_points() -> None:
    err = refused(Game.new(), "B1-C3")
    assert err.problem is Problem.NO_LINE
    assert "B1" in str(err) and "A3, D2" in str(err)


def test_pieces_step_sideways_along_the_centre_ring() -> None:
    game = Game.setup("C2:w A5:b")
    assert {"C2-B2", "C2-D2"} <= set(game.legal_moves())
    game.play("C2-D2")
    assert occupant(game, "D2").side == "white"


def test_turns_alternate_and_a_step_moves_the_piece() -> None:
    game = Game.new()
    game.play("C1-D3")
    assert game.turn == "black"
    assert game.piece_at("C1") is None and occupant(game, "D3").side == "white"


@pytest.mark.parametrize(
    ("setup", "move", "problem"),
    [
        ("A1:w C2:w E5:b", "B1-C3", Problem.NO_PIECE),
        ("A1:w E5:b", "E5-D3", Problem.NOT_YOUR_PIECE),
        ("A1:w E5:b", "A1-A2", Problem.NO_LINE),
        ("A1:w C2:w E5:b", "A1-C2", Problem.OWN_PIECE_THERE),
        ("B5:w A1:w E5:b", "B5-C3", Problem.IN_ENEMY_CAMP),
        ("A1:w E5:b", "@A2", Problem.NO_MARKED_PIECE),
    ],
)
def test_refusals_give_the_reason_and_change_nothing(
    setup: str, move: str, problem: Problem
) -> None:
    game = Game.setup(setup)
    assert refused(game, move).problem is problem


def test_no_line_message_lists_where_the_piece_can_go() -> None:
    message = str(refused(Game.new(), "A1-A3"))
    assert "No line joins A1 and A3" in message and "B3, C2" in message


def test_capture_takes_the_piece_and_counts_it() -> None:
    game = Game.setup("A1:w D5:b C2:b")
    assert game.play("A1-C2") == "A1xC2"
    assert occupant(game, "C2").side == "white"
    assert game.captured("black") == 4  # three missing from the set-up, one just taken
    assert last_action(game).capture


def test_captures_are_not_compulsory() -> None:
    game = Game.setup("A1:w D5:b C2:b")
    assert "A1-B3" in game.legal_moves()


def test_piece_in_enemy_camp_can_still_be_captured() -> None:
    game = Game.setup("A5:w E1:w B3:b E5:b", turn="black")
    assert "B3xA5" in game.legal_moves()
    game.play("B3-A5")
    assert occupant(game, "A5").side == "black" and game.captured("white") == 4


# --- classic: marking, redeploy, no shuffling ---------------------------------------------------


def test_classic_capture_marks_the_piece_and_marking_stays() -> None:
    game = Game.setup("A1:w C2:b C4:b A5:b")
    game.play("A1xC2")
    assert occupant(game, "C2").kind == "marked"
    game.play("A5-B3")
    game.play("C2-B2")
    assert occupant(game, "B2").kind == "marked"
    game.play("B3-D2")
    game.play("B2xC4")
    assert occupant(game, "C4").kind == "marked"


def test_redeploy_needs_a_captured_piece() -> None:
    game = Game.setup("A5:wm B1:w C1:w D1:w E1:w E4:b")  # white has all five: nothing captured
    err = refused(game, "@A1")
    assert err.problem is Problem.NO_CAPTURED and "no captured piece" in str(err)


def test_redeploy_needs_a_marked_piece_in_the_enemy_camp() -> None:
    game = Game.setup("A5:w C3:wm B1:w E4:b")
    assert not any(m.startswith("@") for m in game.legal_moves())
    err = refused(game, "@A1")
    assert "marked piece" in str(err)


def test_redeploy_puts_an_unmarked_piece_in_the_own_camp_and_unmarks_the_leftmost() -> None:
    game = Game.setup("D5:wm B5:wm C3:w E4:b C4:b")
    assert [m for m in game.legal_moves() if m.startswith("@")] == [
        "@A1",
        "@B1",
        "@C1",
        "@D1",
        "@E1",
    ]
    assert game.play("@b1") == "@B1"
    assert occupant(game, "B1").kind == "archer" and occupant(game, "B1").side == "white"
    assert occupant(game, "B5").kind == "archer"  # leftmost marked piece in the enemy camp
    assert occupant(game, "D5").kind == "marked"
    assert game.captured("white") == 1 and game.points()["white"] == 2 + 2 + 1 + 1


def test_no_redeploy_with_a_full_camp() -> None:
    game = Game.setup("A1:b B1:b C1:b C3:b D1:w E1:w B5:wm", turn="white")
    # white has 3 pieces on the board, 2 captured, a marked piece in the enemy camp,
    # but its own camp has no empty point
    assert not any(m.startswith("@") for m in game.legal_moves())
    err = refused(game, "@A1")
    assert "no empty point" in str(err)


def test_redeploy_onto_an_occupied_or_foreign_point_is_refused() -> None:
    game = Game.setup("B5:wm A1:w E4:b")
    assert refused(game, "@A1").problem is Problem.POINT_TAKEN
    assert "not in your camp" in str(refused(game, "@A2"))


def test_no_shuffling_forbids_the_fifth_repetition_only() -> None:
    game = Game.setup("A1:w E1:w E5:b A5:b")
    for move in ["A1-C2", "E5-D3", "C2-A1", "D3-E5", "A1-C2", "E5-D3", "C2-A1", "D3-E5"]:
        game.play(move)
    assert "A1-C2" not in game.legal_moves()
    err = refused(game, "A1-C2")
    assert err.problem is Problem.SHUFFLING and "different move" in str(err)
    assert "A1-B3" in game.legal_moves()
    game.play("A1-B3")  # another action resets it
    assert "E5-D3" not in game.legal_moves()  # black's own shuffling still counts
    game.play("A5-C4")
    game.play("B3-A1")
    game.play("C4-A5")
    assert "A1-C2" in game.legal_moves()


def test_shuffling_compares_points_only_so_a_capture_counts() -> None:
    game = Game.setup("A1:w E1:w C2:b E5:b")
    for move in ["A1xC2", "E5-D3", "C2-A1", "D3-E5", "A1-C2", "E5-D3", "C2-A1", "D3-E5"]:
        game.play(move)
    assert "A1-C2" not in game.legal_moves()


def test_shuffling_is_allowed_in_ludos() -> None:
    game = Game.setup("A1:w E1:w E5:b A5:b B4:b", ruleset="ludos")
    for move in ["A1-C2", "E5-D3", "C2-A1", "D3-E5", "A1-C2", "E5-D3", "C2-A1", "A5-C4"]:
        game.play(move)
    assert "A1-C2" in game.legal_moves()


# --- jasir --------------------------------------------------------------------------------------


def test_jasir_never_steps_back() -> None:
    game = Game.setup("C3:w A1:w E5:b", ruleset="jasir")
    # C3 is joined to A2 and D1 (behind), B3 (beside) and A4 and E4 (ahead)
    assert [m for m in game.legal_moves() if m.startswith("C3")] == ["C3-A4", "C3-B3", "C3-E4"]
    err = refused(game, "C3-D1")
    assert err.problem is Problem.BACKWARDS


def test_jasir_allows_sideways_steps() -> None:
    game = Game.setup("C2:w A1:w E5:b", ruleset="jasir")
    # C2 is joined to A1 and E1 (behind), B2 and D2 (beside) and E3 (ahead)
    assert [m for m in game.legal_moves() if m.startswith("C2")] == ["C2-B2", "C2-D2", "C2-E3"]
    assert refused(game, "C2-E1").problem is Problem.BACKWARDS
    game.play("C2-D2")
    assert occupant(game, "D2").side == "white"


def test_jasir_black_moves_down() -> None:
    game = Game.setup("A1:w C3:b E5:b", ruleset="jasir", turn="black")
    assert [m for m in game.legal_moves() if m.startswith("C3")] == ["C3-A2", "C3-B3", "C3-D1"]


# --- ludos ----------------------------------------------------------------------------------------


def test_ludos_capture_outside_the_enemy_camp_makes_a_guard() -> None:
    game = Game.setup("A1:w C2:b E5:b", ruleset="ludos")
    game.play("A1xC2")
    assert occupant(game, "C2").kind == "guard"


def test_ludos_no_promotion_when_capturing_in_the_enemy_camp() -> None:
    game = Game.setup("B3:w C5:b E5:b", ruleset="ludos")
    game.play("B3xC5")
    assert occupant(game, "C5").kind == "archer"
    assert game.reserve("white") == 0


def test_ludos_guard_that_captures_stays_a_guard() -> None:
    game = Game.setup("A1:wg C2:b E5:b", ruleset="ludos")
    game.play("A1xC2")
    assert occupant(game, "C2").kind == "guard"


def test_ludos_guard_entering_the_camp_recovers_a_piece() -> None:
    game = Game.setup("B3:wg A1:w E5:b A3:b", ruleset="ludos")  # white has 3 captured
    assert "B3-C5" in game.legal_moves() and "B3-C5@B1" in game.legal_moves()
    game.play("B3-C5")
    assert occupant(game, "C5").kind == "archer"
    assert game.captured("white") == 2 and game.reserve("white") == 1
    game.play("A3-B1")
    assert "@C1" in game.legal_moves() and "@B1" not in game.legal_moves()
    assert game.play("@c1") == "@C1"
    assert game.reserve("white") == 0 and occupant(game, "C1").kind == "archer"


def test_ludos_recovery_with_nothing_captured() -> None:
    game = Game.setup("B3:wg A1:w B1:w C1:w D1:w E5:b", ruleset="ludos")
    assert not any("@" in m for m in game.legal_moves())
    game.play("B3-C5")
    assert occupant(game, "C5").kind == "archer"
    assert game.reserve("white") == 0 and game.captured("white") == 0


def test_ludos_immediate_place() -> None:
    game = Game.setup("B3:wg A1:w E5:b A3:b", ruleset="ludos")
    assert game.play("b3 c5 @ b1") == "B3-C5@B1"
    assert occupant(game, "B1").side == "white" and game.reserve("white") == 0
    assert game.captured("white") == 2
    assert last_action(game).placed == "B1"


def test_ludos_immediate_place_refusals() -> None:
    game = Game.setup("B3:wg A1:w E1:w E5:b A3:b", ruleset="ludos")
    assert "not empty" in str(refused(game, "B3-C5@A1"))
    assert "not in your camp" in str(refused(game, "B3-C5@A2"))
    assert "recovers no piece" in str(refused(game, "E1-D3@B1"))
    classic = Game.setup("B3:wm A1:w E5:b A3:b")
    assert "Only ludos" in str(refused(classic, "B3-C5@B1"))


def test_ludos_place_needs_a_reserve_piece() -> None:
    game = Game.setup("A1:w E5:b", ruleset="ludos")
    assert "no piece in reserve" in str(refused(game, "@B1"))


# --- end of the game ------------------------------------------------------------------------------


def test_game_ends_when_all_remaining_pieces_reach_the_enemy_camp() -> None:
    game = Game.setup("A5:w B3:w E1:b D2:b")
    game.play("B3-C5")
    outcome = game.outcome()
    assert outcome is not None
    assert game.over and outcome.termination is Termination.CAMP
    assert outcome.points == {"white": 4, "black": 3} and game.winner() == "white"  # E1 counts 2
    assert refused(game, "E1-D3").problem is Problem.GAME_OVER


def test_game_ends_when_a_side_has_no_piece_left() -> None:
    game = Game.setup("A1:w E1:w C2:b")
    game.play("A1xC2")
    assert game.over and outcome(game).termination is Termination.CAMP
    assert game.points() == {"white": 2, "black": 0} and game.winner() == "white"
    assert game.legal_moves() == []


def test_ply_guard_ends_the_game() -> None:
    game = Game.new(max_plies=3)
    for move in ["A1-C2", "A5-C4", "B1-D2"]:
        game.play(move)
    assert game.over and outcome(game).termination is Termination.PLY_LIMIT
    assert game.winner() is None  # 5 v 5


def test_no_legal_action_ends_the_game() -> None:
    game = Game.setup("E3:w D5:w C3:b", ruleset="jasir")  # E3's one step ahead is D5's point
    assert game.legal_moves() == []
    assert game.over and outcome(game).termination is Termination.NO_MOVES
    assert game.winner() == "white"


def test_ludos_double_shuffle_ends_the_game() -> None:
    game = Game.setup("A1:w E1:w E5:b A5:b", ruleset="ludos")
    moves = ["A1-C2", "E5-D3", "C2-A1", "D3-E5", "A1-C2", "E5-D3", "C2-A1"]
    for move in moves:
        game.play(move)
    assert not game.over
    game.play("D3-E5")
    assert game.over and outcome(game).termination is Termination.REPETITION


def test_classic_double_shuffle_does_not_end_the_game() -> None:
    game = Game.setup("A1:w E1:w E5:b A5:b")
    for move in ["A1-C2", "E5-D3", "C2-A1", "D3-E5", "A1-C2", "E5-D3", "C2-A1", "D3-E5"]:
        game.play(move)
    assert not game.over


# --- score and result ---------------------------------------------------------------------------


def test_points_count_two_in_the_enemy_camp_and_one_elsewhere() -> None:
    game = Game.setup("A5:w B5:wm C3:w A1:b E3:b", reserve={"white": 1})
    assert game.points() == {"white": 5, "black": 3}


def test_more_points_wins_and_equal_points_is_a_draw_in_classic() -> None:
    game = Game.setup("A5:w B3:w C2:b E3:b D4:b")
    game.play("B3-C5")
    assert game.over and game.points() == {"white": 4, "black": 3} and game.winner() == "white"
    drawn = Game.setup("A5:w B3:w C2:b E3:b D4:b B2:b")
    drawn.play("B3-C5")
    assert drawn.over and drawn.points() == {"white": 4, "black": 4} and drawn.winner() is None


def test_ludos_tie_break_by_pieces_in_the_enemy_camp() -> None:
    game = Game.setup("A5:w B3:w C2:b E3:b D4:b B2:b", ruleset="ludos")
    game.play("B3-C5")  # 4 v 4; white has two pieces in the enemy camp, black none
    assert game.over and game.points() == {"white": 4, "black": 4} and game.winner() == "white"
    other = Game.setup("A5:w B5:w A1:b C3:b D4:b", ruleset="ludos")  # 4 v 4; camps 2 v 1
    assert other.over and other.winner() == "white"


def test_ludos_tie_with_equal_camp_counts_is_a_draw() -> None:
    game = Game.setup("A5:w B5:w A1:b B1:b", ruleset="ludos")
    assert game.over and game.points() == {"white": 4, "black": 4} and game.winner() is None


def test_jasir_keeps_classic_redeploy() -> None:
    game = Game.setup("B5:wm C3:w E4:b C4:b", ruleset="jasir")
    assert "@A1" in game.legal_moves()
    game.play("@A1")
    assert occupant(game, "A1").side == "white" and occupant(game, "B5").kind == "archer"


def test_ludos_place_needs_an_empty_camp_point() -> None:
    game = Game.setup("A1:b B1:b C1:b C3:b D1:w E1:w B5:w", ruleset="ludos", reserve={"white": 1})
    assert not any("@" in m for m in game.legal_moves())
    assert "not in your camp" in str(refused(game, "@A2"))
    assert "not empty" in str(refused(game, "@A1"))
