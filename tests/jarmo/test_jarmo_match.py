"""Match scoring (rules §6): alternating sides, totals, winner, draw, forfeit."""

import pytest

from bot.jarmo import Match


def test_sides_swap_after_every_game() -> None:
    match = Match("ann", "bob", games=4)
    assert [match.white_for(i) for i in range(4)] == ["ann", "bob", "ann", "bob"]
    assert [match.black_for(i) for i in range(4)] == ["bob", "ann", "bob", "ann"]


def test_totals_follow_the_players_not_the_sides() -> None:
    match = Match("ann", "bob", games=2)
    match.record({"white": 6, "black": 3})  # ann white
    assert not match.over and match.games_left == 1 and match.leader() == "ann"
    match.record({"white": 7, "black": 2})  # bob white
    assert match.over and match.totals() == {"ann": 8, "bob": 10}
    assert match.winner() == "bob"


def test_equal_totals_draw_the_match() -> None:
    match = Match("ann", "bob", games=2)
    match.record({"white": 5, "black": 4})
    match.record({"white": 5, "black": 4})
    assert match.over and match.winner() is None and match.leader() is None


def test_forfeit_ends_the_match_for_the_other_player() -> None:
    match = Match("ann", "bob", games=6)
    match.record({"white": 8, "black": 1})
    match.forfeit("bob", {"white": 2, "black": 9})  # bob (white in game 2) resigns while ahead
    assert match.over and match.games_left == 0 and match.winner() == "ann"
    assert match.totals() == {"ann": 17, "bob": 3}
    with pytest.raises(ValueError):
        match.record({"white": 1, "black": 1})


def test_match_lengths_and_players_are_checked() -> None:
    with pytest.raises(ValueError):
        Match("ann", "bob", games=3)
    with pytest.raises(ValueError):
        Match("ann", "ann", games=2)
    with pytest.raises(ValueError):
        Match("ann", "bob").forfeit("cat", {"white": 0, "black": 0})


def test_match_round_trips() -> None:
    match = Match(1, 2, games=4)
    match.record({"white": 3, "black": 4})
    match.forfeit(1, {"white": 1, "black": 1})
    assert Match.from_dict(match.to_dict()) == match
