"""A game that ends because one side has no piece left on the board says so, in the result line,
in the history and on the board image; a camp ending with pieces left keeps its words."""

from __future__ import annotations

import pytest

from bot.jarmo import Game, Side, Termination
from bot.render import ResultBanner
from bot.render._result import reason_text
from bot.words import ending_line, ending_reason, image_words, shared_catalogue
from bot.words.voice import Voice
from tests.words.test_words_results import NAMES, _summary

THEME_NAMES: dict[Side, str] = {"white": "White", "black": "Black"}


def test_the_last_piece_captured_ends_the_game_with_that_side_emptied() -> None:
    game = Game.setup("A1:w B1:w D1:w C2:b")
    game.play("A1-C2")  # takes Black's last piece
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.CAMP
    assert outcome.points["black"] == 0
    voice = Voice(shared_catalogue(), NAMES.__getitem__)
    why = ending_reason("camp", voice, points=outcome.points, ruleset=game.ruleset)
    assert why == "Black has no pieces left on the board"
    banner = ResultBanner.from_outcome(outcome)
    assert reason_text(banner, THEME_NAMES) == "Black has no pieces left"


@pytest.mark.parametrize("language", ["en", "de", "eo", "pl"])
def test_the_result_line_and_the_image_say_that_a_side_has_no_pieces_left(language: str) -> None:
    catalogue = shared_catalogue(language)
    line = ending_line(_summary("white", 4, 0), Voice(catalogue, NAMES.__getitem__))
    camp = catalogue.gettext("every remaining piece of one side stands in the enemy camp")
    emptied = catalogue.gettext("{side} has no pieces left on the board")
    assert camp not in line
    assert emptied.format(side=catalogue.gettext("Black")) in line
    words = image_words(catalogue)
    banner = ResultBanner(Termination.CAMP, "white", {"white": 4, "black": 0})
    assert reason_text(banner, THEME_NAMES, words) == words.no_pieces_left.format(
        side=words.colour("Black")
    )
    assert words.board_ends[Termination.CAMP] not in reason_text(banner, THEME_NAMES, words)


def test_a_camp_ending_with_pieces_on_both_sides_keeps_its_words() -> None:
    line = ending_line(_summary("white", 7, 4), Voice(shared_catalogue(), NAMES.__getitem__))
    assert "(every remaining piece of one side stands in the enemy camp)" in line
    banner = ResultBanner(Termination.CAMP, "white", {"white": 7, "black": 4})
    assert reason_text(banner, THEME_NAMES) == "all pieces in camp"
    history = ending_reason("camp", Voice(shared_catalogue(), str), points={"white": 7, "black": 4})
    assert history == "every remaining piece of one side stands in the enemy camp"
