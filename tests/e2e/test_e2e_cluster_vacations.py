"""End to end: two bot processes, running shards 0 and 1 of 2 on one PostgreSQL database, and a
player away with timed games in a server of each shard. When the player's days run out, the
vacation ends once: each game's channel reads it once, and each deadline moves on once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import asyncpg

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Place, Thread
from tests.e2e.test_e2e_cluster import (  # the cluster's fixtures, for this module's own
    SETTLED_SECONDS,
    cluster,
    database_url,
    fake,
    nothing_went_wrong_in_the_cluster,
    run_sql,
)

__all__ = ["cluster", "database_url", "fake", "nothing_went_wrong_in_the_cluster"]
RAN_OUT = "your vacation days have run out"


def fetch(url: str, query: str, *arguments: object) -> list[asyncpg.Record]:
    async def read() -> list[asyncpg.Record]:
        connection = await asyncpg.connect(url)
        try:
            return list(await connection.fetch(query, *arguments))
        finally:
            await connection.close()

    return asyncio.run(read())


def ran_out_in(fake: FakeDiscord, channel: Channel | Thread | Place) -> int:
    return sum(RAN_OUT in m.content for m in fake.channel_messages(channel))


def wait_for(fake: FakeDiscord, channel: Channel | Thread | Place, text: str) -> None:
    fake.wait_until(
        lambda: any(text in m.content for m in fake.channel_messages(channel)),
        SETTLED_SECONDS,
        f"{text!r} in #{channel.name}",
    )


def test_a_vacation_ends_once_when_the_days_run_out(
    fake: FakeDiscord, cluster: dict[int, BotProcess], database_url: str
) -> None:
    home, other = fake.worlds
    ann = home.ann  # the same people in both servers
    timed = [
        Table.start(fake, w.channel("arena-7"), ann, w.bob, time_per_move="3d")
        for w in (home, other)
    ]
    wakers = [
        Table.start(fake, w.channel("arena-8"), w.cat, w.eve, time_per_move="1d")
        for w in (home, other)
    ]
    started = fake.slash(ann, home.channel("arena-7"), "jarmo vacation start").wait_answer()
    check_private(started, "Your vacation has begun", "The opponents of your 2 games are told.")
    told = f"{home.bob.mention}: {ann.mention} is on vacation"
    for table in timed:
        wait_for(fake, table.channel, told)

    # As if she had gone away two days ago, a day into her three days a move, and her days
    # had run out a minute ago.
    now = datetime.now(UTC)

    def ago(delta: timedelta) -> str:
        return (now - delta).isoformat(timespec="microseconds")

    deadline = ago(timedelta(0))  # her three days from three days ago
    ids = [table.channel.id for table in timed]
    changed = run_sql(
        database_url,
        "UPDATE games SET last_activity = $1, deadline_at = $2"
        " WHERE channel_id = ANY($3::bigint[]) AND status = 'active'",
        ago(timedelta(days=3)), deadline, ids,
    )  # fmt: skip
    assert changed == "UPDATE 2"
    changed = run_sql(
        database_url,
        "UPDATE vacations SET started_at = $1, ends_at = $2 WHERE ended_at IS NULL",
        ago(timedelta(days=2)), ago(timedelta(minutes=1)),
    )  # fmt: skip
    assert changed == "UPDATE 1"
    for waker in wakers:  # a timed move wakes each process's scheduler
        waker.play(autocomplete=False)
    for table in timed:
        wait_for(fake, table.channel, RAN_OUT)
    fake.wait_until(
        lambda: all(
            row["status"] == "sent"
            for row in fetch(database_url, "SELECT status FROM outbox WHERE kind = 'vacation_end'")
        ),
        SETTLED_SECONDS,
        "the ends' announcements to be settled",
    )
    fake.wait_idle()
    assert [ran_out_in(fake, table.channel) for table in timed] == [1, 1]
    for table in timed:
        [message] = [m for m in fake.channel_messages(table.channel) if RAN_OUT in m.content]
        assert message.content.startswith(f"{ann.mention}, {RAN_OUT}")
        assert message.pinged == {ann.id}
    ends = fetch(database_url, "SELECT key FROM outbox WHERE kind = 'vacation_end'")
    assert len(ends) == 2
    # Moved on once by the time her clock stood: she has the two days she had left.
    rows = fetch(
        database_url,
        "SELECT deadline_at FROM games WHERE channel_id = ANY($1::bigint[])", ids,
    )  # fmt: skip
    expected = datetime.fromisoformat(deadline) + timedelta(days=2) - timedelta(minutes=1)
    assert [datetime.fromisoformat(row["deadline_at"]) for row in rows] == [expected] * 2
