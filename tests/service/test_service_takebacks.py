"""Takebacks through the service: asked for, accepted or declined by the opponent, refused
where they are not allowed, and against the computer taken back at once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.service import (
    Actor,
    ChallengeRequest,
    GameChanged,
    JarmoService,
    NotAllowed,
    TimeUp,
    read_action,
)
from bot.service.computer import ComputerOpponent, think_in_thread
from bot.service.takebacks import TakebackRequest, TakenBack
from bot.store import SqliteStore
from bot.words import move_list_text
from tests.fakes import FakeClock
from tests.service.service_helpers import ANN, BOB, CAT, GUILD, HERE, start_match
from tests.wording import english, refused

ROBOT = Actor(999, "Jarmo Bot", is_bot=True)


async def asked(service: JarmoService, actor: Actor) -> TakebackRequest:
    request = await service.takebacks.ask(HERE, actor)
    assert isinstance(request, TakebackRequest)
    return request


async def test_an_accepted_takeback_gives_back_the_position_clock_and_deadline(
    service: JarmoService, store: SqliteStore, clock: FakeClock
) -> None:
    await service.challenges.post(
        HERE, ANN, ChallengeRequest(BOB, side="white", time_per_move="1h")
    )
    challenge = await store.challenges.pending(HERE.channel_id, now=service.now())
    assert challenge is not None
    await service.challenges.accept(BOB, challenge.id)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    before = await store.games.active(HERE.channel_id)
    assert before is not None
    clock.advance(600)
    await service.play.move(HERE, BOB, read_action("A5-C4"))
    clock.advance(60)
    request = await asked(service, BOB)
    assert (request.offered_by, request.answer_by) == (BOB.user_id, ANN.user_id)
    taken = await service.takebacks.accept(HERE, ANN, request)
    assert isinstance(taken, TakenBack)
    assert (taken.asked_by, taken.moves) == (BOB.user_id, ("A5-C4",))
    after = await store.games.active(HERE.channel_id)
    assert after is not None
    assert after.engine == before.engine and after.version == before.version + 2
    assert after.clock.deadline_at == before.clock.deadline_at
    assert await (await service.play.board(HERE)).image.png() == await taken.board.image.png()
    # The board of the takeback is the board before the move.
    assert taken.board.game.engine == before.engine
    # Bob plays again from there.
    await service.play.move(HERE, BOB, read_action("A5-C4"))


async def test_only_the_opponent_answers_and_a_stale_request_is_refused(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    request = await asked(service, ANN)
    for outsider in (ANN, CAT):
        with refused(NotAllowed, "Only the player who was asked"):
            await service.takebacks.accept(HERE, outsider, request)
        with refused(NotAllowed, "Only the player who was asked"):
            await service.takebacks.decline(HERE, outsider, request)
    await service.play.move(HERE, BOB, read_action("A5-C4"))  # the move the request did not stop
    with refused(GameChanged, "moved on"):
        await service.takebacks.accept(HERE, BOB, request)
    record = await store.games.active(HERE.channel_id)
    assert record is not None and record.engine.history == ["A1-C2", "A5-C4"]


async def test_a_declined_takeback_changes_nothing_and_may_be_asked_again(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    before = await store.games.active(HERE.channel_id)
    request = await asked(service, ANN)
    with refused(NotAllowed, "already asked"):
        await service.takebacks.ask(HERE, ANN)
    await service.takebacks.decline(HERE, BOB, request)
    assert await store.games.active(HERE.channel_id) == before
    with refused(GameChanged, "moved on"):  # a declined request cannot be accepted after all
        await service.takebacks.accept(HERE, BOB, request)
    again = await asked(service, ANN)
    await service.takebacks.accept(HERE, BOB, again)
    record = await store.games.active(HERE.channel_id)
    assert record is not None and record.engine.history == []


async def test_refused_without_a_move_of_ones_own_or_after_the_answer(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    with refused(NotAllowed, "no move of yours"):
        await service.takebacks.ask(HERE, ANN)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    with refused(NotAllowed, "no move of yours"):
        await service.takebacks.ask(HERE, BOB)
    await service.play.move(HERE, BOB, read_action("A5-C4"))
    with refused(NotAllowed, "already answered"):
        await service.takebacks.ask(HERE, ANN)
    record = await store.games.active(HERE.channel_id)
    assert record is not None and record.version == 2


async def test_a_server_may_turn_takebacks_off_in_rated_games(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    with refused(NotAllowed, "Only members who can manage"):
        await service.servers.set_takebacks(GUILD, False, can_manage=False)
    settings = await service.servers.set_takebacks(GUILD, False, can_manage=True)
    assert not settings.takebacks
    with refused(NotAllowed, "turned takebacks off"):
        await service.takebacks.ask(HERE, ANN)
    await service.servers.set_takebacks(GUILD, True, can_manage=True)
    await asked(service, ANN)


@pytest.fixture
def robot_service(service: JarmoService) -> JarmoService:
    return service.with_computer(ROBOT)


async def test_against_the_computer_its_answer_and_your_move_go_at_once(
    robot_service: JarmoService, store: SqliteStore
) -> None:
    service = robot_service
    computer = ComputerOpponent(service, think_in_thread)
    await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white", level="easy"))
    # Even with takebacks off: a game against the computer is casual.
    await service.servers.set_takebacks(GUILD, False, can_manage=True)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    assert await computer.reply(HERE) is not None
    before = await store.games.active(HERE.channel_id)
    assert before is not None and len(before.engine.history) == 2
    taken = await service.takebacks.ask(HERE, ANN)
    assert isinstance(taken, TakenBack)
    assert taken.moves == tuple(before.engine.history)
    record = await store.games.active(HERE.channel_id)
    assert record is not None
    assert record.engine.history == [] and record.engine.turn == "white"
    assert record.version == before.version + 1
    assert (await store.results.player_stats(HERE.guild_id, ANN.user_id)).overall.games == 0


async def test_the_clock_of_a_takeback_left_too_late_runs_out(
    service: JarmoService, store: SqliteStore, clock: FakeClock
) -> None:
    await service.challenges.post(
        HERE, ANN, ChallengeRequest(BOB, side="white", time_per_move="1h")
    )
    challenge = await store.challenges.pending(HERE.channel_id, now=service.now())
    assert challenge is not None
    await service.challenges.accept(BOB, challenge.id)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    request = await asked(service, ANN)
    clock.advance(timedelta(hours=2).total_seconds())  # Bob's hour is over
    with pytest.raises(TimeUp):
        await service.takebacks.accept(HERE, BOB, request)
    record = await store.games.active(HERE.channel_id)
    assert record is not None and record.engine.history == ["A1-C2"]


async def test_the_history_lists_the_moves_taken_back(service: JarmoService) -> None:
    board = await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    await service.takebacks.accept(HERE, BOB, await asked(service, ANN))
    await service.play.move(HERE, ANN, read_action("B1-D2"))
    await service.play.resign(HERE, BOB)
    export = await service.stats.export_game(HERE.guild_id, board.game.id)
    assert [a.move for a in export.actions] == ["B1-D2"]
    assert [(t.ply, t.player_id, t.move) for t in export.taken_back] == [(1, ANN.user_id, "A1-C2")]
    text = move_list_text(
        export.game, export.actions, english(), white_name="Ann", black_name="Bob",
        taken_back=export.taken_back,
    )  # fmt: skip
    assert "  1. White (Ann): B1-D2" in text
    assert "1. White (Ann): A1-C2, taken back (" in text
