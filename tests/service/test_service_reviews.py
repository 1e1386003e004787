"""Reviewing finished games through the service: stored once, refused for games in play,
another server's games and damaged games, one computation for two requests at once."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.ai.review import Label, PositionVerdict
from bot.jarmo import Game
from bot.service import JarmoService, Place, ServiceConfig, read_action
from bot.service.errors import Code, NoGameHere, ReviewRefused, as_refusal
from bot.store import CorruptGame, SqliteStore, open_store
from tests.fakes import FakeClock
from tests.service.service_helpers import ANN, BOB, GUILD, HERE, start_match

LIMIT = 10.0  # seconds any condition may take to come true
# Steps on lines both boards share: White's third move is the one the fake search dislikes.
MOVES = [(ANN, "A1-C2"), (BOB, "A5-C4"), (ANN, "C2-E3"), (BOB, "B5-D4")]


class FakeSearch:
    """An analyser that counts its searches: it prefers the first legal move, and scores each
    position by the plies played (so White's C2-E3 loses ground), optionally held by a gate."""

    def __init__(self) -> None:
        self.searched: list[int] = []
        self.gate: asyncio.Event | None = None

    async def __call__(self, data: dict[str, Any]) -> PositionVerdict:
        if self.gate is not None:
            await asyncio.wait_for(self.gate.wait(), LIMIT)
        game = Game.from_dict(data)
        self.searched.append(game.ply)
        score = {3: 300, 4: -300}.get(game.ply, 0)  # Black keeps what White gave away
        return PositionVerdict(game.legal_moves()[0], score)


async def until(check: Callable[[], bool]) -> None:
    """Wait, up to ``LIMIT`` seconds, until ``check()`` holds."""
    async with asyncio.timeout(LIMIT):
        while not check():  # noqa: ASYNC110 - a request joining a review sets no event
            await asyncio.sleep(0.01)


@pytest.fixture
def search(service: JarmoService) -> FakeSearch:
    found = FakeSearch()
    service.reviews.use(found)
    return found


async def finished_game(service: JarmoService, place: Place = HERE) -> int:
    await start_match(service, place=place)
    for actor, move in MOVES:
        await service.play.move(place, actor, read_action(move))
    await service.play.resign(place, BOB)
    return await service.reviews.last_game(place)


async def test_a_finished_game_is_reviewed_move_by_move(
    service: JarmoService, search: FakeSearch
) -> None:
    game_id = await finished_game(service)
    heard: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        heard.append((done, total))

    view = await service.reviews.review(HERE, game_id, progress=progress)
    moves = view.review.moves
    assert [m.played for m in moves] == [move for _, move in MOVES]
    assert moves[2].label is Label.BLUNDER and moves[2].better is not None
    assert view.review.turning_points == (3,)
    assert [t.ply for t in view.turning_points] == [3]
    assert view.players == ("Ann", "Bob")
    assert heard[-1] == (5, 5)  # every position: the game ended by resignation, not on board
    assert len(view.review.graph()) == 5


async def test_a_second_review_is_read_back_without_searching(
    service: JarmoService, search: FakeSearch
) -> None:
    game_id = await finished_game(service)
    first = await service.reviews.review(HERE, game_id)
    searched = len(search.searched)
    again = await service.reviews.review(HERE, game_id)
    assert again.review == first.review
    assert len(search.searched) == searched


async def test_two_reviews_at_once_share_one_computation(
    service: JarmoService, search: FakeSearch
) -> None:
    game_id = await finished_game(service)
    search.gate = asyncio.Event()
    heard: dict[str, list[int]] = {"first": [], "second": []}

    def listener(name: str) -> Callable[[int, int], Awaitable[None]]:
        async def progress(done: int, total: int) -> None:
            heard[name].append(done)

        return progress

    both = asyncio.gather(
        service.reviews.review(HERE, game_id, progress=listener("first")),
        service.reviews.review(HERE, game_id, progress=listener("second")),
    )
    await until(lambda: service.reviews.waiting(game_id) == 2)
    search.gate.set()
    first, second = await asyncio.wait_for(both, LIMIT)
    assert first.review == second.review
    assert sorted(search.searched) == [0, 1, 2, 3, 4]  # each position once
    assert heard["first"][-1] == heard["second"][-1] == 5


async def test_a_game_in_play_is_refused_and_nothing_is_stored(
    service: JarmoService, search: FakeSearch, store: SqliteStore
) -> None:
    await start_match(service)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    with pytest.raises(ReviewRefused) as refused:
        await service.reviews.last_game(HERE)
    assert refused.value.code is Code.REVIEW_GAME_RUNNING
    active = await store.games.active(HERE.channel_id)
    assert active is not None
    game_id = active.id
    with pytest.raises(ReviewRefused) as refused:
        await service.reviews.review(HERE, game_id)
    assert refused.value.code is Code.REVIEW_GAME_RUNNING
    assert await store.reviews.get(game_id) is None
    assert search.searched == []


async def test_another_server_s_game_is_refused(
    service: JarmoService, search: FakeSearch, store: SqliteStore
) -> None:
    game_id = await finished_game(service)
    with pytest.raises(ReviewRefused) as refused:
        await service.reviews.review(Place(GUILD + 1, HERE.channel_id), game_id)
    assert refused.value.code is Code.REVIEW_OTHER_SERVER
    assert await store.reviews.get(game_id) is None


async def test_outside_servers_only_a_game_of_the_same_chat_is_reviewed(
    service: JarmoService, search: FakeSearch, store: SqliteStore
) -> None:
    game_id = await finished_game(service)
    for elsewhere in (Place(None, HERE.channel_id), Place(None, HERE.channel_id + 1)):
        with pytest.raises(ReviewRefused) as refused:
            await service.reviews.review(elsewhere, game_id)
        assert refused.value.code is Code.REVIEW_OTHER_SERVER
    assert await store.reviews.get(game_id) is None


async def test_a_channel_without_games_has_nothing_to_review(
    service: JarmoService, search: FakeSearch
) -> None:
    with pytest.raises(NoGameHere) as refused:
        await service.reviews.last_game(Place(1, 99))
    assert refused.value.code is Code.NO_GAME_TO_REVIEW
    with pytest.raises(NoGameHere):
        await service.reviews.review(Place(1, 99), 12345)


async def test_a_damaged_game_is_refused_as_damaged_and_nothing_is_stored(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "damaged.sqlite3"
    async with open_store(path) as first:
        service = JarmoService(first, config=ServiceConfig(), clock=clock, rng=random.Random(0))
        game_id = await finished_game(service)
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE actions SET move = (SELECT move FROM actions WHERE game_id = ? AND ply = 1)"
            " WHERE game_id = ? AND ply = 3",
            (game_id, game_id),
        )
    async with open_store(path) as reopened:
        service = JarmoService(reopened, config=ServiceConfig(), clock=clock)
        search = FakeSearch()
        service.reviews.use(search)
        with pytest.raises(CorruptGame) as damaged:
            await service.reviews.review(HERE, game_id)
        refusal = as_refusal(damaged.value)
        assert refusal is not None and refusal.code is Code.GAME_DAMAGED
        assert await reopened.reviews.get(game_id) is None
        assert search.searched == []


async def test_a_request_that_gives_up_leaves_the_review_to_finish(
    service: JarmoService, search: FakeSearch
) -> None:
    game_id = await finished_game(service)
    search.gate = asyncio.Event()
    first = asyncio.ensure_future(service.reviews.review(HERE, game_id))
    await until(lambda: service.reviews.waiting(game_id) == 1)
    first.cancel()
    # Once the first request has given up, the count is the second's alone: else the second
    # might still be reading the store when the gate opens, and start a computation of its own.
    await until(first.done)
    assert service.reviews.waiting(game_id) == 0
    second = asyncio.ensure_future(service.reviews.review(HERE, game_id))
    await until(lambda: service.reviews.waiting(game_id) == 1)
    search.gate.set()
    view = await asyncio.wait_for(second, LIMIT)
    assert len(view.review.moves) == len(MOVES)
    assert sorted(search.searched) == [0, 1, 2, 3, 4]  # one computation, not two
    assert first.cancelled()
