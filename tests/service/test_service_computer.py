"""Playing against the computer through the service: start, replies, hints, races."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import (
    Actor,
    ChallengeRequest,
    ChallengeUnavailable,
    JarmoService,
    NotAllowed,
    NotYourTurn,
    Place,
    read_action,
)
from bot.service.computer import ComputerOpponent, ProcessThinker, think_in_thread
from bot.store import SqliteStore
from tests.service.service_helpers import ANN, BOB, HERE
from tests.wording import refused

ROBOT = Actor(999, "Jarmo Bot", is_bot=True)
THERE = Place(guild_id=1, channel_id=11)


@pytest.fixture
def service(service: JarmoService) -> JarmoService:
    """The service of conftest.py, playing ROBOT as the computer opponent."""
    return service.with_computer(ROBOT)


@pytest.fixture
def computer(service: JarmoService) -> ComputerOpponent:
    return ComputerOpponent(service, think_in_thread)


async def test_computer_accepts_at_once_and_answers_each_move(
    service: JarmoService, computer: ComputerOpponent, store: SqliteStore
) -> None:
    board = await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white", level="easy"))
    assert await computer.reply(HERE) is None and board.turn_user_id == ANN.user_id
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    reply = await computer.reply(HERE)
    assert reply is not None and reply.actor_id == ROBOT.user_id
    record = await store.games.active(HERE.channel_id)
    assert record is not None
    assert record.version == 2 and record.engine.turn == "white"
    assert await computer.reply(HERE) is None  # not its turn


async def test_computer_with_white_moves_first(
    service: JarmoService, computer: ComputerOpponent
) -> None:
    board = await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="black", level="easy"))
    assert board.turn_user_id == ROBOT.user_id
    first = await computer.reply(HERE)
    assert first is not None and first.board.turn_user_id == ANN.user_id
    assert board.game.white_id == ROBOT.user_id


async def test_a_whole_game_against_the_computer(
    service: JarmoService, computer: ComputerOpponent
) -> None:
    await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white", level="easy"))
    while True:
        moves = await service.play.move_suggestions(HERE, ANN.user_id, "")
        report = await service.play.move(HERE, ANN, read_action(moves[-1]))
        if report.ended:
            break
        reply = await computer.reply(HERE)
        assert reply is not None, "the computer did not answer"
        report = reply
        if report.ended:
            break
    assert report.standings is not None
    assert report.standings.over


async def test_other_bots_and_bad_levels_are_refused(
    service: JarmoService, computer: ComputerOpponent
) -> None:
    with refused(ChallengeUnavailable, "bot"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(Actor(5, "Other", is_bot=True)))
    with refused(ChallengeUnavailable, "easy, medium or hard"):
        await computer.start(HERE, ANN, ChallengeRequest(ROBOT, level="genius"))


async def test_resigning_while_the_computer_thinks_wins(
    service: JarmoService, store: SqliteStore
) -> None:
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_think(data: dict[str, Any], level: str, seed: int) -> str:
        started.set()
        await release.wait()
        return "A5-C4"

    computer = ComputerOpponent(service, slow_think)
    await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white"))
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    thinking = asyncio.create_task(computer.reply(HERE))
    await started.wait()
    await service.play.resign(HERE, ANN)
    release.set()
    assert await thinking is None
    assert await store.games.active(HERE.channel_id) is None


async def test_hints_only_against_the_computer_and_on_your_turn(
    service: JarmoService, computer: ComputerOpponent
) -> None:
    await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white", level="easy"))
    hint = await computer.hint(HERE, ANN)
    assert hint in await service.play.move_suggestions(HERE, ANN.user_id, "", limit=None)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    with pytest.raises(NotYourTurn):
        await computer.hint(HERE, ANN)


async def test_no_hints_between_humans(service: JarmoService, computer: ComputerOpponent) -> None:
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB, side="white"))
    await service.challenges.accept(BOB, view.challenge.id)
    with refused(NotAllowed, r"computer\. To play it, use /jarmo challenge"):
        await computer.hint(HERE, ANN)


async def test_games_against_the_computer_have_no_clock(
    service: JarmoService, computer: ComputerOpponent, store: SqliteStore
) -> None:
    with refused(ChallengeUnavailable, "no time limit"):
        await computer.start(HERE, ANN, ChallengeRequest(ROBOT, time_per_move="1h"))
    board = await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white"))
    assert board.game.clock.deadline_at is None


async def test_a_pending_computer_turn_is_found_after_a_restart(
    service: JarmoService, store: SqliteStore
) -> None:
    async def never(data: dict[str, Any], level: str, seed: int) -> str:
        raise AssertionError("not asked to think here")

    first = ComputerOpponent(service, never)
    await first.start(HERE, ANN, ChallengeRequest(ROBOT, side="white"))
    await service.play.move(
        HERE, ANN, read_action("A1-C2")
    )  # the bot "stops" before the computer answers
    assert await service.computer_turns.awaiting() == [HERE]
    restarted = ComputerOpponent(service, think_in_thread)
    reply = await restarted.reply(HERE)
    assert reply is not None and reply.actor_id == ROBOT.user_id
    assert await service.computer_turns.awaiting() == []


async def test_games_against_the_computer_are_not_rated(
    service: JarmoService, computer: ComputerOpponent, store: SqliteStore
) -> None:
    await computer.start(HERE, ANN, ChallengeRequest(ROBOT, side="white", level="easy"))
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    await service.play.resign(HERE, ANN)
    assert await store.ratings.player_ratings(HERE.guild_id, ANN.user_id) == []
    assert (await store.results.player_stats(HERE.guild_id, ANN.user_id)).as_white.losses == 1


async def test_six_games_against_the_computer_at_once_are_all_answered(
    service: JarmoService, store: SqliteStore
) -> None:
    thinker = ProcessThinker.open(2)
    computer = ComputerOpponent(service, thinker)
    places = [Place(HERE.guild_id, HERE.channel_id + number) for number in range(6)]
    try:
        for place in places:
            await computer.start(place, ANN, ChallengeRequest(ROBOT, side="white", level="hard"))
            await service.play.move(place, ANN, read_action("A1-C2"))
        replies = await asyncio.wait_for(
            asyncio.gather(*(computer.reply(place) for place in places)), 30
        )
    finally:
        await thinker.close()
    assert [None if reply is None else reply.actor_id for reply in replies] == [ROBOT.user_id] * 6
    for place in places:
        record = await store.games.active(place.channel_id)
        assert record is not None
        assert record.version == 2 and record.engine.turn == "white"


async def test_each_game_seeds_the_computer_differently(service: JarmoService) -> None:
    # The same first move in two games: the computer's searches get seeds of their own, so
    # that a person who beat it once cannot win again by repeating the moves.
    seeds: list[int] = []

    async def recording_think(data: dict[str, Any], level: str, seed: int) -> str:
        seeds.append(seed)
        return "A5-C4"

    computer = ComputerOpponent(service, recording_think)
    for place in (HERE, THERE):
        await computer.start(place, ANN, ChallengeRequest(ROBOT, side="white"))
        await service.play.move(place, ANN, read_action("A1-C2"))
        assert await computer.reply(place) is not None
    assert len(seeds) == 2 and seeds[0] != seeds[1]
