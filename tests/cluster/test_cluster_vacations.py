"""A vacation's automatic end happens once across processes: two nodes over one store (each
with its own shards, or both owning everything) run their deadline schedulers at once when the
days run out; one of them ends it, moving each of its player's deadlines on once and telling
each game's channel once."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

from bot.service.delivery import VacationNotice
from tests.cluster.cluster_helpers import ANN, Node, places, start_timed_match
from tests.fakes import FakeClock

GAMES = 4
DAY = 86_400


async def end_when_the_days_run_out(one: Node, two: Node, clock: FakeClock) -> None:
    games = places(GAMES)
    for place in games:
        await start_timed_match(one.service, place, "3d")  # Ann is to move in every one
    clock.advance(DAY)  # a day of each of her clocks has run
    started = await two.service.vacations.start(ANN.user_id)
    assert started.vacation is not None and started.games == GAMES
    ends_at = started.vacation.ends_at
    assert ends_at == clock.now + timedelta(days=14)
    before = {p.channel_id: (await one.service.play.board(p)).game for p in games}

    clock.set(ends_at + timedelta(minutes=5))
    await asyncio.gather(one.scheduler.run_due(clock.now), two.scheduler.run_due(clock.now))
    await asyncio.gather(one.scheduler.run_due(clock.now), two.scheduler.run_due(clock.now))

    (ledger,) = await one.service.kit.store.vacations.of_player(
        ANN.user_id, since=started.vacation.started_at
    )
    assert ledger.ended_at == ends_at
    for place in games:
        old = before[place.channel_id]
        now = (await one.service.play.board(place)).game
        assert old.clock.deadline_at is not None
        # Moved on once by the fourteen days away, not twice; the version changed once.
        assert now.clock.deadline_at == old.clock.deadline_at + timedelta(days=14)
        assert now.version == old.version + 1
    for _ in range(3):  # a pass may find nothing left: the other took it
        await asyncio.gather(one.delivery.deliver_due(), two.delivery.deliver_due())
    ends = [d for node in (one, two) for d in node.posts.posted if d.entry.kind == "vacation_end"]
    assert Counter(d.entry.channel_id for d in ends) == Counter(p.channel_id for p in games)
    assert all(isinstance(d, VacationNotice) and d.automatic for d in ends)


async def test_the_nodes_end_a_vacation_once_when_the_days_run_out(
    nodes: tuple[Node, Node], clock: FakeClock
) -> None:
    await end_when_the_days_run_out(*nodes, clock)


async def test_two_nodes_that_both_own_everything_still_end_it_once(
    rivals: tuple[Node, Node], clock: FakeClock
) -> None:
    await end_when_the_days_run_out(*rivals, clock)
