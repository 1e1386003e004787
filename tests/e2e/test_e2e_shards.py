"""End to end: the bot on a sharded gateway. Without shard settings it runs every shard the fake
recommends (GET /gateway/bot), and games in servers on different shards progress side by side;
with ``shard_ids`` it runs only those, and serves only their servers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, pick_move
from tests.e2e.fake_discord import FakeDiscord


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(shards=2).start()
    server.add_guild(shard=1 - server.shard_of(server.world.guild_id))
    yield server
    server.close()


@pytest.fixture(scope="module")
def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    """One process, no shard settings, global commands (the servers are not a dev guild)."""
    process = BotProcess(fake, tmp_path_factory.mktemp("bot"), dev_guild=False)
    process.start()
    fake.wait_commands(None)
    yield process
    fake.wait_idle()
    status, _ = process.stop()
    assert status == 0, process.log_tail()


def interactions_by_shard(fake: FakeDiscord) -> dict[int, set[int]]:
    """The servers whose interactions each shard's session carried."""
    return {
        number: {
            int(event["d"]["guild_id"])
            for event in session.events
            if event["t"] == "INTERACTION_CREATE"
        }
        for number, session in fake.sessions.items()
    }


def test_one_process_runs_every_recommended_shard_and_plays_in_both(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    assert sorted(fake.identified) == [(0, 2), (1, 2)]
    home, other = fake.worlds
    tables = [Table.start(fake, w.channel("arena-1"), w.ann, w.bob) for w in (home, other)]
    for _ in range(3):
        for table in tables:
            table.play(autocomplete=False)
    # A move in each server at the same instant: each is answered on its own.
    moves = [pick_move(t.game, t.rng) for t in tables]
    sent = [
        fake.slash(t.mover, t.channel, "jarmo move", move=m, send=False)
        for t, m in zip(tables, moves, strict=True)
    ]
    fake.send(*sent)
    for table, interaction, move in zip(tables, sent, moves, strict=True):
        answer = interaction.wait_answer()
        assert answer.message is not None
        mover = table.mover
        played = table.game.play(move)
        assert f"{mover.mention} played **{played}**." in answer.message.embeds[0]["description"]
    assert interactions_by_shard(fake) == {
        fake.shard_of(home.guild_id): {home.guild_id},
        fake.shard_of(other.guild_id): {other.guild_id},
    }


def test_a_process_with_shard_ids_serves_only_their_servers(tmp_path: Path) -> None:
    fake = FakeDiscord(shards=2).start()
    try:
        home = fake.world
        served = fake.add_guild(shard=1 - fake.shard_of(home.guild_id))
        shard = fake.shard_of(served.guild_id)
        process = BotProcess(fake, tmp_path, dev_guild=False, shard_count=2, shard_ids=[shard])
        process.start()
        try:
            fake.wait_commands(None)
            assert fake.identified == [(shard, 2)]
            Table.start(fake, served.channel("general"), served.cat, served.ann).play()
            # Nobody runs the other shard: its server's events have no connection to go to.
            unserved = fake.slash(home.ann, home.channel("general"), "jarmo rules", send=False)
            with pytest.raises(AssertionError, match="never connected that shard"):
                fake.send(unserved)
            fake.wait_idle()
            assert fake.take_problems() == []
        finally:
            status, _ = process.stop()
        assert status == 0, process.log_tail()
        assert process.new_errors() == []
    finally:
        fake.close()
