"""End to end: two bot processes, running shards 0 and 1 of 2, on one PostgreSQL database against
the fake. A player who asked for direct messages gets exactly one for each move, from games in
servers of both shards played at the same instant, whichever process delivers it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import asyncpg
import pytest

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, pick_move
from tests.e2e.fake_discord import FakeDiscord
from tests.postgres import PostgresServer

SETTLED_SECONDS = 30.0


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(shards=2).start()
    server.add_guild(shard=1 - server.shard_of(server.world.guild_id))
    yield server
    server.close()


@pytest.fixture(scope="module")
def database_url(postgres: PostgresServer) -> str:
    return postgres.fresh_database()


@pytest.fixture(scope="module")
def cluster(
    fake: FakeDiscord, database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[int, BotProcess]]:
    """Shard number -> the process that runs it (and only it)."""
    processes = {
        shard: BotProcess(
            fake,
            tmp_path_factory.mktemp(f"shard-{shard}"),
            dev_guild=False,
            shard_count=2,
            shard_ids=[shard],
            database_url=database_url,
        )
        for shard in (0, 1)
    }
    for process in processes.values():
        process.start()
    fake.wait_commands(None)
    yield processes
    fake.wait_idle()
    for process in processes.values():
        if process.running():
            status, _ = process.stop()
            assert status == 0, process.log_tail()


def ping_statuses(url: str) -> list[str]:
    async def read() -> list[str]:
        connection = await asyncpg.connect(url)
        try:
            rows = await connection.fetch("SELECT status FROM outbox WHERE kind = 'turn_ping'")
            return [row["status"] for row in rows]
        finally:
            await connection.close()

    return asyncio.run(read())


def test_direct_message_pings_are_sent_once_across_two_shard_processes(
    fake: FakeDiscord, cluster: dict[int, BotProcess], database_url: str
) -> None:
    home, other = fake.worlds
    assert fake.shard_of(home.guild_id) != fake.shard_of(other.guild_id)
    bob = home.bob  # the same person in both servers
    answer = fake.slash(bob, home.channel("general"), "jarmo notify", mode="dm").wait_answer()
    assert answer.message is not None and answer.message.ephemeral
    tables = [Table.start(fake, w.channel("arena-1"), w.ann, w.bob) for w in (home, other)]
    move = pick_move(Game.new(), random.Random(3))
    sent = [fake.slash(t.mover, t.channel, "jarmo move", move=move, send=False) for t in tables]

    fake.send(*sent)  # a move in each server, at the same instant: each pings Bob by DM

    for interaction in sent:
        reply = interaction.wait_answer().message
        assert reply is not None and reply.pinged == frozenset()
    fake.wait_until(
        lambda: ping_statuses(database_url) == ["sent", "sent"],
        SETTLED_SECONDS,
        "both DM pings to be settled",
    )
    fake.wait_idle()
    direct = fake.direct_messages(bob)
    assert len(direct) == 2
    links = sorted(f"/{w.guild_id}/{w.channel('arena-1').id}" for w in (home, other))
    assert (
        sorted(link for link in links if any(link in m.embeds[0]["description"] for m in direct))
        == links
    )
    dm_channel = fake.direct_channels[bob.id]
    posts = [
        r
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{dm_channel}/messages"
    ]
    assert len(posts) - len(fake.repeated_nonces) == 2  # a repeat shows nothing twice
    for process in cluster.values():
        assert process.new_errors() == [], process.log_tail()
    assert fake.take_problems() == []
