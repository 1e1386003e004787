"""At shutdown the bot lets the interactions it admitted finish, for a bounded time."""

from __future__ import annotations

import asyncio

from bot.cogs.inflight import InFlight


async def test_finish_waits_for_admitted_interactions_within_the_grace() -> None:
    in_flight = InFlight()
    admitted, release = asyncio.Event(), asyncio.Event()

    async def answer() -> None:
        in_flight.add_current()
        in_flight.add_current()  # a second check in the same task counts it once
        admitted.set()
        await release.wait()

    handler = asyncio.create_task(answer())
    await admitted.wait()
    await in_flight.finish(0.01)  # stuck past the grace: given up on, not awaited forever
    assert not handler.done()
    release.set()
    await in_flight.finish(10)
    assert handler.done()
    await in_flight.finish(10)  # nothing left in flight: returns at once
