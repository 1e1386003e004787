"""A board image speaks the language of the message it is shown in: the service hands out a
snapshot of the position, and each front end draws it in its reader's words."""

from __future__ import annotations

from pathlib import Path

from bot.cogs.replies import report_message
from bot.console._boards import BoardFolder
from bot.render import ENGLISH_WORDS, ImageWords, render_position
from bot.service import BoardView, JarmoService, read_action
from bot.words import image_words, shared_catalogue
from tests.service.service_helpers import ANN, BOB, HERE, start_match

POLISH = image_words(shared_catalogue("pl"))


def drawn(view: BoardView, words: ImageWords = ENGLISH_WORDS) -> bytes:
    players = (view.white_name, view.black_name)
    return render_position(view.game.engine.position(), players=players, words=words)


async def test_a_public_post_draws_the_board_in_its_language(service: JarmoService) -> None:
    await start_match(service)
    report = await service.play.move(HERE, ANN, read_action("A1-C2"))
    [picture] = (await report_message(report, "pl"))["files"]
    polish = drawn(report.board, POLISH)
    assert picture.fp.read() == polish
    assert polish != drawn(report.board)  # the words differ, not only the language's name
    [english] = (await report_message(report, "en"))["files"]
    assert english.fp.read() == drawn(report.board)


async def test_a_picture_shows_the_position_it_was_taken_at(service: JarmoService) -> None:
    await start_match(service)
    first = await service.play.move(HERE, ANN, read_action("A1-C2"))
    expected = drawn(first.board)
    await service.play.move(HERE, BOB, read_action("A5-C4"))  # the game moves on before it is drawn
    assert await first.board.image.png() == expected


async def test_the_consoles_pictures_are_drawn_in_the_players_language(
    service: JarmoService, tmp_path: Path
) -> None:
    view = await start_match(service)
    folder = BoardFolder(tmp_path)
    written = await folder.save(view, POLISH)
    assert written.read_bytes() == drawn(view, POLISH)
