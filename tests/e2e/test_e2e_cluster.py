"""End to end: two bot processes, running shards 0 and 1 of 2, on one PostgreSQL database against
the fake. Games in servers on different shards progress at once; a timed game's timeout is
announced exactly once; a process killed with SIGKILL mid-game and started again loses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import (
    Table,
    accept,
    challenge,
    check_board_embed,
    check_position,
    pick_move,
)
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Message
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
            expiry_seconds=600,  # a challenge outlives a process's restart
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


@pytest.fixture(autouse=True)
def nothing_went_wrong_in_the_cluster(
    fake: FakeDiscord, cluster: dict[int, BotProcess]
) -> Iterator[None]:
    fake.take_problems()
    for process in cluster.values():
        process.new_errors()
    yield
    fake.wait_idle()
    assert fake.take_problems() == []
    for process in cluster.values():
        assert process.new_errors() == [], process.log_tail()


def process_of(fake: FakeDiscord, cluster: dict[int, BotProcess], channel: Channel) -> BotProcess:
    return cluster[fake.shard_of(channel.guild_id)]


def run_sql(url: str, statement: str, *arguments: object) -> str:
    async def run() -> str:
        connection = await asyncpg.connect(url)
        try:
            status: str = await connection.execute(statement, *arguments)
            return status
        finally:
            await connection.close()

    return asyncio.run(run())


def outbox_status(url: str, key: str) -> str | None:
    async def read() -> str | None:
        connection = await asyncpg.connect(url)
        try:
            status: str | None = await connection.fetchval(
                "SELECT status FROM outbox WHERE key = $1", key
            )
            return status
        finally:
            await connection.close()

    return asyncio.run(read())


def texts(message: Message) -> str:
    return message.content + "".join(e.get("description", "") for e in message.embeds)


def test_games_on_both_shards_progress_at_once(
    fake: FakeDiscord, cluster: dict[int, BotProcess]
) -> None:
    home, other = fake.worlds
    assert sorted(fake.identified) == [(0, 2), (1, 2)]
    tables = [Table.start(fake, w.channel("arena-1"), w.ann, w.bob) for w in (home, other)]
    for _ in range(3):
        moves = [pick_move(t.game, t.rng) for t in tables]
        sent = [
            fake.slash(t.mover, t.channel, "jarmo move", move=m, send=False)
            for t, m in zip(tables, moves, strict=True)
        ]
        fake.send(*sent)  # one move in each server, at the same instant
        for table, interaction, move in zip(tables, sent, moves, strict=True):
            answer = interaction.wait_answer()
            assert answer.message is not None, answer
            mover, played = table.mover, table.game.play(move)
            assert f"{mover.mention} played **{played}**." in texts(answer.message)
    for number, session in fake.sessions.items():
        guilds = {int(e["d"]["guild_id"]) for e in session.events if e["t"] == "INTERACTION_CREATE"}
        assert guilds == {w.guild_id for w in fake.worlds if fake.shard_of(w.guild_id) == number}


def test_a_timed_games_timeout_is_announced_exactly_once(
    fake: FakeDiscord, cluster: dict[int, BotProcess], database_url: str
) -> None:
    world = fake.world
    timed, other = world.channel("arena-5"), world.channel("arena-6")
    board = accept(
        fake, challenge(fake, timed, world.ann, world.bob, time_per_move="1h"), world.bob
    )
    to_move = int(board.content.removeprefix("<@").split(">")[0])
    # Timed too: only a timed game's move wakes the scheduler.
    elsewhere = Table.start(fake, other, world.cat, world.bob, time_per_move="1d")
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="microseconds")
    changed = run_sql(
        database_url,
        "UPDATE games SET deadline_at = $1 WHERE channel_id = $2 AND status = 'active'",
        past,
        timed.id,
    )
    assert changed == "UPDATE 1"
    # A timed game's move in the owner's servers wakes its scheduler, which finds the deadline
    # past.
    elsewhere.play(autocomplete=False)
    fake.wait_until(
        lambda: any("ran out of time" in texts(m) for m in fake.channel_messages(timed)),
        SETTLED_SECONDS,
        "the timeout's announcement",
    )
    (key,) = asyncio.run(_timeout_keys(database_url))  # the only timed game that ran out
    fake.wait_until(
        lambda: outbox_status(database_url, key) == "sent",
        SETTLED_SECONDS,
        "the announcement to be settled",
    )
    announcements = [m for m in fake.channel_messages(timed) if "ran out of time" in texts(m)]
    assert len(announcements) == 1
    assert f"<@{to_move}>" in texts(announcements[0])


async def _timeout_keys(url: str) -> list[str]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT key FROM outbox WHERE kind = 'timeout'")
        return [row["key"] for row in rows]
    finally:
        await connection.close()


def test_a_process_killed_mid_game_and_started_again_loses_nothing(
    fake: FakeDiscord, cluster: dict[int, BotProcess]
) -> None:
    home, other = fake.worlds
    here = other.channel("arena-2")
    victim = process_of(fake, cluster, here)
    survivor = process_of(fake, cluster, home.channel("arena-2"))
    assert victim is not survivor
    table = Table.start(fake, here, other.ann, other.cat)
    for _ in range(4):
        table.play(autocomplete=False)
    pending = challenge(fake, other.channel("arena-3"), other.bob, other.eve)
    victim.kill()
    # The other shard's servers are served meanwhile.
    Table.start(fake, home.channel("arena-2"), home.ann, home.cat).play(autocomplete=False)
    victim.start()
    # The game goes on from where it was, and the challenge made before the crash still stands.
    board = fake.slash(table.mover, here, "jarmo board").wait_answer()
    assert board.message is not None
    check_position(check_board_embed(board.message)["description"], table.game, *table.players)
    table.play(autocomplete=False)
    accept(fake, pending, other.eve)
