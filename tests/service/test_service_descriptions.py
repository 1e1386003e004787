"""The alternative text of a board image says the position in words: the game, the score, the
last move and whose move it is (or how the game ended), with names a screen reader can read."""

from __future__ import annotations

from bot.service import JarmoService, read_action
from bot.words import shared_catalogue
from bot.words.descriptions import DESCRIPTION_LIMIT, board_description, start_description
from bot.words.voice import Voice
from tests.service.service_helpers import ANN, BOB, HERE, start_match
from tests.wording import voice


def mentions(user_id: int) -> str:
    return f"<@{user_id}>"


async def test_a_fresh_board_says_no_move_yet_and_who_starts(service: JarmoService) -> None:
    view = await start_match(service)
    assert board_description(view, voice(mentions)) == (
        "Jarmo board, game 1 of 1. Score: White Ann 5, Black Bob 5. No move played yet. "
        "Ann to move (White)."
    )


async def test_after_a_move_the_last_move_and_the_next_player(service: JarmoService) -> None:
    await start_match(service, games=2)
    report = await service.play.move(HERE, ANN, read_action("A1-C2"))
    text = board_description(report.board, voice(mentions))
    assert "game 1 of 2" in text
    assert "Last move: A1-C2." in text and "Bob to move (Black)." in text
    assert "<@" not in text  # names, never mentions' markup


async def test_an_ended_game_says_who_won(service: JarmoService) -> None:
    await start_match(service)
    report = await service.play.resign(HERE, BOB)
    text = board_description(report.board, voice(mentions))
    assert text.endswith("The game is over: Ann (White) won.")


async def test_the_description_is_translated_and_within_discords_limit(
    service: JarmoService,
) -> None:
    view = await start_match(service)
    for language in ("de", "eo", "pl"):
        local = Voice(shared_catalogue(language), mentions)
        text = board_description(view, local)
        assert "Ann" in text and "Bob" in text
        assert "Jarmo board" not in text and len(text) <= DESCRIPTION_LIMIT
        assert start_description(local) != start_description(voice())
