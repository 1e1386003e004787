"""A tournament's posts with two processes over one database: two delivery
loops racing post each round, welcome and final table once, and a loop whose lease ran out
while it was posting cannot settle over the claim that took the entry from it. On both
backends; on PostgreSQL each node has connections of its own."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

import pytest

from bot.service import Actor
from bot.service.delivery import LEASE_SECONDS, AnnouncementDelivery, Delivery
from bot.service.tournaments.views import TournamentRequest
from bot.service.venues import NewMatch
from tests.cluster.cluster_helpers import Node, places
from tests.fakes import FakeClock

MODERATOR = Actor(99, "Mod")
PLAYERS = [Actor(number, f"P{number}") for number in range(1, 7)]


class Threads:
    """The front end's part: each match gets the next channel id."""

    def __init__(self) -> None:
        self.opened = 0

    async def open(self, match: NewMatch) -> int:
        self.opened += 1
        return 5_000 + self.opened


async def start_tournament(node: Node) -> None:
    """Six players in a round robin on ``node``, round 1 paired: three matches."""
    lobby = places(1)[0]
    node.service.tournaments.attach(Threads())
    cases = node.service.tournaments
    view = await cases.create(
        lobby, MODERATOR, TournamentRequest("Cup", "round-robin"), moderator=True
    )
    for player in PLAYERS:
        await cases.join(view.tournament.id, player)

    async def member(user_id: int) -> bool:
        return True

    await cases.start(lobby, MODERATOR, moderator=True, is_member=member)


async def test_two_racing_deliveries_post_each_tournament_post_once(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    one, two = rivals
    await start_tournament(one)

    for _ in range(3):  # a pass may find nothing left: the other took it
        await asyncio.gather(one.delivery.deliver_due(), two.delivery.deliver_due())

    posted = Counter(d.entry.key for node in rivals for d in node.posts.posted)
    assert sorted(posted) == [
        "match_welcome:1:1:1",
        "match_welcome:1:1:2",
        "match_welcome:1:1:3",
        "round_paired:1:1",
    ]
    assert set(posted.values()) == {1}
    assert await one.service.kit.store.outbox.next_due() is None  # all settled


async def test_a_delivery_whose_lease_ran_out_cannot_settle_over_the_new_claim(
    rivals: tuple[Node, Node], clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    one, two = rivals
    await start_tournament(one)
    late_entered, late_answer = asyncio.Event(), asyncio.Event()
    new_entered, new_answer = asyncio.Event(), asyncio.Event()

    async def late(delivery: Delivery) -> None:
        late_entered.set()
        await late_answer.wait()  # Discord answers long after the lease ran out ...
        raise ConnectionError("... and with an error")

    async def new(delivery: Delivery) -> None:
        new_entered.set()
        await new_answer.wait()
        two.posts.posted.append(delivery)

    frozen = AnnouncementDelivery(one.service, late)
    taking = AnnouncementDelivery(two.service, new)
    with caplog.at_level(logging.WARNING, logger="bot.service.delivery"):
        frozen_pass = asyncio.create_task(frozen.deliver_due())
        await asyncio.wait_for(late_entered.wait(), 10)
        clock.advance(LEASE_SECONDS + 1)
        taking_pass = asyncio.create_task(taking.deliver_due())  # claims all four again
        await asyncio.wait_for(new_entered.wait(), 10)
        late_answer.set()
        assert await asyncio.wait_for(frozen_pass, 10) == []
        # The late "retry" of each was refused: they are still the new claim's, so a third
        # delivery finds nothing to take while the new claim is posting.
        clock.advance(LEASE_SECONDS / 2)  # past any retry the late one asked for
        assert await one.delivery.deliver_due() == []
        new_answer.set()
        assert len(await asyncio.wait_for(taking_pass, 10)) == 4

    refused = [r for r in caplog.records if "claimed again" in r.getMessage()]
    assert len(refused) == 4
    assert await one.service.kit.store.outbox.next_due() is None  # all settled as sent
    assert one.posts.posted == [] and len(two.posts.posted) == 4
