"""The final board of an ended game shows how it ended, not whose move it would be."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.jarmo import Side, Termination
from bot.render import ResultBanner, render_position, render_replay
from bot.service import BoardView, ChallengeRequest, JarmoService, Report, read_action
from bot.service._views import StoredEnd, result_banner
from bot.service.models import DamagedGameAborted
from bot.store import SqliteStore
from tests.fakes import FakeClock
from tests.service.service_helpers import ANN, BOB, CAT, HERE, start_match


def drawn(view: BoardView, result: ResultBanner | None = None) -> bytes:
    """What the renderer makes of ``view``'s position with ``result`` (white's perspective)."""
    players = (view.white_name, view.black_name)
    return render_position(view.game.engine.position(), players=players, result=result)


async def test_a_resigned_game_shows_who_resigned(service: JarmoService) -> None:
    await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    report = await service.play.resign(HERE, BOB)
    points = report.board.game.engine.points()
    image = await report.board.image.png()
    assert image == drawn(report.board, ResultBanner("resigned", "white", points))
    assert image != drawn(report.board)  # not "Black to move"


@pytest.mark.parametrize(
    ("end", "banner"),
    [
        ("stop", ResultBanner("stopped", None, {"white": 5, "black": 5})),
        ("abort", ResultBanner("aborted", None, {"white": 5, "black": 5})),
    ],
)
async def test_stopped_and_aborted_games_say_so(
    service: JarmoService, end: str, banner: ResultBanner
) -> None:
    await start_match(service, games=2)
    report: Report | DamagedGameAborted
    if end == "stop":
        report = await service.play.accept_stop(HERE, BOB, await service.play.offer_stop(HERE, ANN))
    else:
        report = await service.play.abort(HERE, CAT, can_manage=True)
    assert isinstance(report, Report)  # not a damaged game
    assert await report.board.image.png() == drawn(report.board, banner)
    following = report.next_board
    assert following is None or await following.image.png() == drawn(following)


async def test_a_game_lost_on_time_shows_it(service: JarmoService, clock: FakeClock) -> None:
    request = ChallengeRequest(BOB, side="white", time_per_move="1h")
    challenge = await service.challenges.post(HERE, ANN, request)
    await service.challenges.accept(BOB, challenge.challenge.id)
    (running,) = await service.clocks.running()
    event = await service.clocks.time_out(running, now=running.deadline_at)
    assert event is not None
    assert event.report is not None
    assert event is not None
    board = event.report.board
    points = board.game.engine.points()
    assert await board.image.png() == drawn(board, ResultBanner("timeout", "black", points))


async def test_an_exported_replay_ends_on_the_result(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    report = await service.play.resign(HERE, BOB)
    record = await store.games.get(report.board.game.id)
    export = await service.stats.export_game(HERE.guild_id, record.id)
    banner = ResultBanner("resigned", "white", record.engine.points())
    assert export.gif == render_replay(record.engine, players=("Ann", "Bob"), result=banner)


@dataclass(frozen=True)
class Ending:
    """The fields a stored game keeps about its end, and nothing else."""

    status: str
    winner: Side | None
    termination: str | None
    points: dict[Side, int] | None


def stored(
    status: str,
    winner: Side | None = None,
    termination: str | None = None,
    points: dict[Side, int] | None = None,
) -> Ending:
    return Ending(status=status, winner=winner, termination=termination, points=points)


POINTS: dict[Side, int] = {"white": 7, "black": 4}


@pytest.mark.parametrize(
    ("record", "banner"),
    [
        (stored("active"), None),
        (
            stored("finished", "white", "camp", POINTS),
            ResultBanner(Termination.CAMP, "white", POINTS),
        ),
        (
            stored("resigned", "black", "resigned", POINTS),
            ResultBanner("resigned", "black", POINTS),
        ),
        (stored("timeout", "white", "timeout", POINTS), ResultBanner("timeout", "white", POINTS)),
        (stored("stopped", None, "stopped", POINTS), ResultBanner("stopped", None, POINTS)),
        (stored("aborted", None, "aborted", POINTS), ResultBanner("aborted", None, POINTS)),
        (stored("finished", "white", None, POINTS), None),  # no reason kept: the board's own shows
    ],
)
def test_result_banner_from_stored_fields(record: StoredEnd, banner: ResultBanner | None) -> None:
    assert result_banner(record) == banner
