"""Games stored on the old ``bow`` board, by the bot of before the published board, keep that
board: they load, go on, end, and replay on it, while every new game is on the published board.

``tests/data/before_the_published_board.sqlite`` was written by that older bot (see
``tests/data/make_before_the_published_board.py`` for what it holds and how it was made).
"""

from __future__ import annotations

import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.jarmo import Game
from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.service.errors import BadMove
from bot.service.tournaments.views import TournamentRequest
from bot.store import open_store
from tests.fakes import FakeClock

MADE_BEFORE = Path(__file__).parents[1] / "data" / "before_the_published_board.sqlite"
GUILD = 900_000_000_000_000_001
PLAYING, FINISHED, SIGNUP = (GUILD + 1, GUILD + 2, GUILD + 3)
ANN = Actor(900_000_000_000_000_011, "Ann")
BOB = Actor(900_000_000_000_000_012, "Bob")
CAT = Actor(900_000_000_000_000_013, "Cat")


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[JarmoService]:
    database = tmp_path / "jarmo.sqlite3"
    shutil.copyfile(MADE_BEFORE, database)
    async with open_store(database) as store:
        yield JarmoService(store, clock=clock, rng=random.Random(0))


async def test_a_stored_bow_game_goes_on_and_ends_on_its_own_board(service: JarmoService) -> None:
    place = Place(GUILD, PLAYING)
    view = await service.play.board(place)
    game = view.game.engine
    assert game.layout.name == "bow" and game.ply == 8
    assert "B1-C3" in game.history  # a line the published board does not have
    assert view.image.position.layout == "bow"  # its picture draws its own lines
    assert set(view.image.position.lines) == set(game.layout.lines)
    rng = random.Random(3)
    report = None
    while True:
        view = await service.play.board(place)
        game = view.game.engine
        mover = ANN if view.turn_user_id == ANN.user_id else BOB
        report = await service.play.move(place, mover, read_action(rng.choice(game.legal_moves())))
        if report.ended is not None:
            break
    assert report.board.game.engine.layout.name == "bow"
    assert report.next_board is not None  # game 2 of the match: the match keeps its board
    assert report.next_board.game.engine.layout.name == "bow"
    png = await report.board.image.png()
    assert png.startswith(b"\x89PNG")


async def test_a_bow_game_refuses_the_published_boards_own_lines(service: JarmoService) -> None:
    place = Place(GUILD, PLAYING)
    with pytest.raises(BadMove):
        await service.play.move(place, ANN, read_action("C1-A2"))  # a published line, not a bow one


async def test_a_finished_bow_game_replays_on_its_board(service: JarmoService) -> None:
    page = await service.stats.history(GUILD, ANN.user_id)
    [line] = [line for line in page.lines if line.game.channel_id == FINISHED]
    assert line.game.layout == "bow"
    export = await service.stats.export_game(GUILD, line.game.id)
    assert export.gif.startswith(b"GIF8") and len(export.actions) == 28


async def test_a_tournament_opened_on_the_bow_board_plays_its_matches_on_it(
    service: JarmoService,
) -> None:
    class Threads:
        async def open(self, match: object) -> int:
            return GUILD + 100

    async def everyone_is_here(user_id: int) -> bool:
        return True

    service.tournaments.attach(Threads())
    place = Place(GUILD, SIGNUP)
    started = await service.tournaments.start(
        place, ANN, moderator=True, is_member=everyone_is_here
    )
    assert started.tournament.layout == "bow"
    await service.tournaments.rounds.advance(started.tournament.id)
    pairings = await service.kit.store.tournaments.pairings(started.tournament.id)
    matches = [p.match_id for p in pairings if p.match_id is not None]
    assert matches
    for match_id in matches:
        match = await service.kit.store.games.match(match_id)
        assert match.layout == "bow"


async def test_new_games_beside_old_ones_are_on_the_published_board(
    service: JarmoService,
) -> None:
    place = Place(GUILD, FINISHED)
    offer = await service.challenges.post(place, BOB, ChallengeRequest(CAT))
    assert offer.challenge.options.layout == "traditional"
    board = await service.challenges.accept(CAT, offer.challenge.id)
    assert board.game.engine.layout.name == "traditional"
    assert board.game.engine.legal_moves() == Game.new().legal_moves()
    request = TournamentRequest("Spring Cup", "swiss")
    lobby = Place(GUILD, GUILD + 9)
    created = await service.tournaments.create(lobby, ANN, request, moderator=True)
    assert created.tournament.layout == "traditional"


async def test_a_rematch_of_a_bow_match_is_on_the_published_board(service: JarmoService) -> None:
    async def members(user_id: int) -> Actor | None:
        return {ANN.user_id: ANN, CAT.user_id: CAT}.get(user_id)

    finished = await service.kit.store.games.latest_match(FINISHED)
    assert finished is not None and finished.layout == "bow"
    offered = await service.rematches.offer(CAT, finished.id, members)
    assert offered.challenge.challenge.options.layout == "traditional"  # type: ignore[union-attr]  # offered, so not None
