"""A match in a channel of its own (a thread), rematches and per-server settings, on a real
store."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import (
    Actor,
    BoardView,
    ChallengeRequest,
    ChallengeUnavailable,
    ChannelBusy,
    JarmoService,
    NoGameHere,
    NotAllowed,
    Place,
    read_action,
)
from bot.service.errors import BadSetting
from bot.service.rematches import RematchOffered, RematchStarted
from bot.service.venues import NewMatch
from bot.store import SqliteStore
from tests.service.service_helpers import ANN, BOB, CAT, HERE, start_match
from tests.wording import refused

THREAD_IDS = iter(range(5000, 6000))


class Threads:
    """A venue that opens a new channel id per match, and counts what it opened."""

    def __init__(self) -> None:
        self.opened: list[int] = []

    async def open(self, match: NewMatch) -> int | None:
        await asyncio.sleep(0)  # a real venue waits for Discord: let other tasks run
        self.opened.append(next(THREAD_IDS))
        return self.opened[-1]


async def everyone_here(user_id: int) -> Actor | None:
    return {a.user_id: a for a in (ANN, BOB, CAT)}.get(user_id)


async def nobody_left(user_id: int) -> Actor | None:
    return None


async def accept_in_thread(
    service: JarmoService, challenger: Actor, challenged: Actor
) -> tuple[BoardView, Threads]:
    threads = Threads()
    request = ChallengeRequest(challenged, side="white")
    view = await service.challenges.post(HERE, challenger, request)
    board = await service.challenges.accept(challenged, view.challenge.id, venue=threads)
    return board, threads


async def test_an_accepted_challenge_moves_its_match_into_the_venue_and_frees_the_channel(
    service: JarmoService,
) -> None:
    first, threads = await accept_in_thread(service, ANN, BOB)
    assert first.match.channel_id == first.game.channel_id == threads.opened[0]
    with pytest.raises(NoGameHere):  # the channel itself holds no game
        await service.play.board(HERE)
    second, more = await accept_in_thread(service, CAT, ANN)  # a second match at once
    assert second.game.channel_id == more.opened[0] != first.game.channel_id
    for board in (first, second):
        place = Place(HERE.guild_id, board.game.channel_id)
        assert (await service.play.board(place)).game.id == board.game.id


async def test_a_second_accept_opens_no_second_thread(service: JarmoService) -> None:
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))
    threads = Threads()
    clicks = [service.challenges.accept(BOB, view.challenge.id, venue=threads) for _ in range(2)]
    results = await asyncio.gather(*clicks, return_exceptions=True)
    assert sum(isinstance(r, ChallengeUnavailable) for r in results) == 1
    assert len(threads.opened) == 1


async def test_only_the_challenged_player_opens_the_thread(service: JarmoService) -> None:
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))
    threads = Threads()
    with pytest.raises(NotAllowed):
        await service.challenges.accept(CAT, view.challenge.id, venue=threads)
    assert threads.opened == []


async def test_a_rematch_offers_the_same_match_with_sides_swapped(service: JarmoService) -> None:
    board = await start_match(service, games=2, ruleset="ludos", side="white")
    match = board.match
    place = Place(HERE.guild_id, match.channel_id)
    await service.play.resign(place, BOB)
    offer = await service.rematches.offer(BOB, match.id, everyone_here)
    assert isinstance(offer, RematchOffered)
    record = offer.challenge.challenge
    assert (record.challenger_id, record.challenged_id) == (BOB.user_id, ANN.user_id)
    assert record.channel_id == match.channel_id
    assert record.options.ruleset == "ludos" and record.options.game_count == 2
    assert record.options.side == "white"  # Bob had Black in game 1; now he has White
    again = await service.challenges.accept(ANN, record.id)
    assert again.game.white_id == BOB.user_id and again.match.id != match.id


async def test_rematch_refusals_leave_nothing_behind(
    service: JarmoService, store: SqliteStore
) -> None:
    board = await start_match(service)
    match = board.match
    with refused(ChallengeUnavailable, "still being played"):
        await service.rematches.offer(ANN, match.id, everyone_here)
    await service.play.resign(HERE, ANN)
    with refused(NotAllowed, "Only the two players"):
        await service.rematches.offer(CAT, match.id, everyone_here)
    with refused(ChallengeUnavailable, "Bob is no longer a member"):
        await service.rematches.offer(ANN, match.id, nobody_left)
    with refused(NoGameHere, "No match"):
        await service.rematches.offer(ANN, 999, everyone_here)
    assert await store.challenges.pending(HERE.channel_id, now=service.now()) is None
    await service.rematches.offer(ANN, match.id, everyone_here)
    with refused(ChannelBusy, "pending challenge"):  # both players clicked Rematch
        await service.rematches.offer(BOB, match.id, everyone_here)


async def test_a_rematch_against_the_computer_starts_at_once(service: JarmoService) -> None:
    robot = Actor(999, "Jarmo", is_bot=True)
    computer = service.with_computer(robot)
    view = await computer.challenges.post(HERE, ANN, ChallengeRequest(robot, level="easy"))
    board = await computer.challenges.accept(robot, view.challenge.id)
    await computer.play.resign(HERE, ANN)
    rematch = await computer.rematches.offer(ANN, board.match.id, nobody_left)
    assert isinstance(rematch, RematchStarted)
    sides = (rematch.board.game.white_id, rematch.board.game.black_id)
    assert sides == (board.game.black_id, board.game.white_id)
    assert rematch.board.match.challenge_id is not None
    challenge = await computer.kit.store.challenges.get(rematch.board.match.challenge_id)
    assert challenge.options.vs_computer_level == "easy"


async def test_a_vanished_thread_aborts_its_match_and_nothing_counts(
    service: JarmoService, store: SqliteStore
) -> None:
    board, threads = await accept_in_thread(service, ANN, BOB)
    place = Place(HERE.guild_id, threads.opened[0])
    await service.play.move(
        place, ANN, read_action((await service.play.move_suggestions(place, ANN.user_id, ""))[0])
    )
    report = await service.venues.vanished(place)
    assert report is not None and report.ended is not None
    assert report.ended.status == "aborted" and report.standings and report.standings.over
    assert (await store.games.match(board.match.id)).state == "aborted"
    assert await service.venues.vanished(place) is None  # a second event changes nothing
    assert await service.venues.vanished(HERE) is None  # a channel without a game


async def test_server_settings_are_kept_per_server_and_only_managers_change_them(
    service: JarmoService,
) -> None:
    assert (await service.servers.settings(1)).threads_or(True) is True
    with refused(NotAllowed, "manage this server"):
        await service.servers.set_threads(1, False, can_manage=False)
    assert (await service.servers.set_threads(1, False, can_manage=True)).threads is False
    assert (await service.servers.settings(1)).threads_or(True) is False
    assert (await service.servers.settings(2)).threads is None
    with refused(BadSetting, "Unknown language 'xx'"):
        await service.servers.set_language(1, "xx", can_manage=True)
    await service.servers.set_language(1, "eo", can_manage=True)
    assert (await service.servers.settings(1)).language == "eo"
    assert (await service.servers.settings(2)).language is None


async def test_the_thread_permission_notice_is_given_once_per_server(service: JarmoService) -> None:
    assert await service.servers.first_thread_notice(1) is True
    assert await service.servers.first_thread_notice(1) is False
    assert await service.servers.first_thread_notice(2) is True
