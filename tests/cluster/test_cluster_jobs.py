"""Each background job happens once across processes: challenge expiry, reminders and
timeouts, the computer's pending replies and the announcement outbox, with two nodes over one
store. Each node works for the servers of its own shards; when both try anyway, the database's
version checks and leases let exactly one succeed."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

from bot.service import ChallengeRequest
from bot.service.delivery import AnnouncementDelivery, Delivery, idempotency_token
from bot.service.shards import shard_of
from tests.cluster.cluster_helpers import (
    ANN,
    BOB,
    Node,
    places,
    start_computer_game,
    start_timed_match,
)
from tests.fakes import FakeClock

GAMES = 6


async def both(one: Node, two: Node, job: str) -> tuple[list[object], list[object]]:
    """Run the same job on both nodes at once."""
    first, second = await asyncio.gather(getattr(one, job)(), getattr(two, job)())
    return first, second


async def test_each_node_applies_the_deadlines_of_its_own_shards_once(
    nodes: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = nodes
    games = places(GAMES)
    for place in games:
        await start_timed_match(one.service, place, "1h")
    for moment, kind in ((1_800, "reminder"), (3_600, "timeout")):
        at = clock.now + timedelta(seconds=moment)
        applied = await asyncio.gather(one.scheduler.run_due(at), two.scheduler.run_due(at))
        for node, events in zip(nodes, applied, strict=True):
            assert {e.kind for e in events} == {kind}
            assert all(node.shards.owns(e.guild_id) for e in events)
        assert sorted(e.channel_id for events in applied for e in events) == [
            p.channel_id for p in games
        ]


async def test_two_nodes_that_both_own_everything_still_apply_each_deadline_once(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = rivals
    games = places(GAMES)
    for place in games:
        await start_timed_match(one.service, place, "1h")
    for moment in (1_800, 3_600):
        at = clock.now + timedelta(seconds=moment)
        applied = await asyncio.gather(one.scheduler.run_due(at), two.scheduler.run_due(at))
        channels = Counter(e.channel_id for events in applied for e in events)
        assert channels == Counter(p.channel_id for p in games)  # each game once, by either


async def test_every_announcement_is_posted_once_by_one_of_two_deliveries(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = rivals
    games = places(GAMES)
    for place in games:
        await start_timed_match(one.service, place, "1h")
    clock.advance(1_800)
    await one.scheduler.run_due(clock.now)  # reminders
    clock.advance(1_800)
    await two.scheduler.run_due(clock.now)  # timeouts
    for _ in range(3):  # a pass may find nothing left: the other took it
        await asyncio.gather(one.delivery.deliver_due(), two.delivery.deliver_due())
    posted = [d.entry.key for node in rivals for d in node.posts.posted]
    assert sorted(Counter(posted).values()) == [1] * 2 * GAMES
    assert await one.service.kit.store.outbox.next_due() is None  # all settled


async def test_a_post_that_hangs_is_abandoned_within_the_lease_and_retried_with_its_token(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = rivals
    await start_timed_match(one.service, places(1)[0], "1h")
    clock.advance(3_600)
    await one.scheduler.run_due(clock.now)
    handed: list[Delivery] = []
    never = asyncio.Event()

    async def hangs(delivery: Delivery) -> None:
        handed.append(delivery)
        await never.wait()  # Discord never answers

    stuck = AnnouncementDelivery(one.service, hangs, post_limit=0.05)
    assert await asyncio.wait_for(stuck.deliver_due(), 10) == []
    assert await two.delivery.deliver_due() == []  # waiting before the retry, not leased away
    clock.advance(3_600)
    (delivered,) = await two.delivery.deliver_due()
    # Both attempts carry one token: Discord keeps one message if the first got through.
    (abandoned,) = handed
    assert abandoned.entry.key == delivered.entry.key
    assert idempotency_token(abandoned.entry.key) == idempotency_token(delivered.entry.key)
    assert len(idempotency_token(delivered.entry.key)) <= 25


async def test_the_computer_answers_each_pending_game_once(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = rivals
    games = places(4)
    for place in games:
        await start_computer_game(one, place)
    waiting = await one.service.computer_turns.awaiting()
    assert set(waiting) == set(games)
    replies = await asyncio.gather(
        *(node.computer.reply(place) for place in waiting for node in rivals)
    )
    assert sum(reply is not None for reply in replies) == len(games)
    for place in games:
        view = await one.service.play.board(place)
        assert view.game.engine.ply == 2  # Ann's move and exactly one reply
        assert view.turn_user_id == ANN.user_id
    assert await two.service.computer_turns.awaiting() == []


async def test_each_node_catches_up_only_the_computer_games_of_its_shards(
    nodes: tuple[Node, Node],
) -> None:
    one, _ = nodes
    games = places(4)
    for place in games:
        await start_computer_game(one, place)
    for node in nodes:
        mine = await node.service.computer_turns.awaiting(owns=node.shards.owns)
        assert mine and all(node.shards.owns(p.guild_id) for p in mine)
    owned = [await node.service.computer_turns.awaiting(owns=node.shards.owns) for node in nodes]
    assert sorted(owned[0] + owned[1], key=str) == sorted(games, key=str)
    assert all(p.guild_id is not None and shard_of(p.guild_id, 2) == 0 for p in owned[0])


async def test_an_overdue_challenge_is_expired_by_one_node_only(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = rivals
    for place in places(GAMES):
        await one.service.challenges.post(place, ANN, ChallengeRequest(BOB))
    clock.advance(601)
    first, second = await asyncio.gather(
        one.service.challenges.expire_overdue(), two.service.challenges.expire_overdue()
    )
    expired = Counter(view.challenge.id for view in (*first, *second))
    assert len(expired) == GAMES and set(expired.values()) == {1}
