"""End to end: a move is acknowledged within Discord's 3 s even when its write waits for a
lock and Discord answers the acknowledgement with 429s: the bot defers while the time is
still enough for the retries, and the board follows once it is ready."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager

import asyncpg

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_board_embed
from tests.e2e.fake_discord import ANSWER_DEADLINE, FakeDiscord
from tests.e2e.fake_models import Channel

WRITE_SECONDS = 1.8  # how long the move's write waits (the bot gives up on a lock at 2 s)
RATE_LIMITS = 3  # 429s on the acknowledgement,
RETRY_AFTER = 0.45  # each asking for this wait: answering after the write would take 3.15 s
DEFERRED = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE


@contextmanager
def write_lock(bot: BotProcess, channel: Channel) -> Iterator[None]:
    """Another connection holds a lock the move's write needs (SQLite: the database's write
    lock; PostgreSQL: the game's row) for as long as the block runs."""
    if bot.database_url is None:
        with closing(sqlite3.connect(bot.database, timeout=10, isolation_level=None)) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                db.execute("ROLLBACK")
        return
    url, locked, done = bot.database_url, threading.Event(), threading.Event()

    async def hold() -> None:
        db = await asyncpg.connect(url)
        try:
            async with db.transaction():
                await db.execute(
                    "SELECT id FROM games WHERE channel_id = $1 FOR UPDATE", channel.id
                )
                locked.set()
                await asyncio.get_running_loop().run_in_executor(None, done.wait)
        finally:
            await db.close()

    holder = threading.Thread(target=asyncio.run, args=(hold(),))
    holder.start()
    try:
        assert locked.wait(20), "the game's row was never locked"
        yield
    finally:
        done.set()
        holder.join(20)


def test_a_slow_move_is_acknowledged_in_time_despite_429s(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-7")
    bot.wait_ready()
    accept(fake, challenge(fake, here, world.ann, world.bob, side="white"), world.bob)
    fake.rate_limit_callbacks(RATE_LIMITS, RETRY_AFTER)
    with write_lock(bot, here):
        played = fake.slash(world.ann, here, "jarmo move", move="A1-C2")
        assert played.sent_at is not None
        # The scenario, not a synchronisation: the write waits this long for its lock.
        time.sleep(max(played.sent_at + WRITE_SECONDS - time.monotonic(), 0.0))
    answer = played.wait_answer()
    assert len(fake.rate_limited) == RATE_LIMITS
    assert answer.elapsed < ANSWER_DEADLINE
    assert answer.type == DEFERRED and not answer.ephemeral
    [board] = played.wait_followups(1)
    assert answer.message is not None and fake.message(answer.message.id).deleted
    assert not board.ephemeral and "played **A1-C2**" in board.embeds[0]["description"]
    check_board_embed(board)
    assert board.pinged == {world.bob.id}  # a new message: Bob is told it is his move


def test_a_refusal_after_the_deferral_stays_private(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-8")
    accept(fake, challenge(fake, here, world.cat, world.eve, side="white"), world.eve)
    with write_lock(bot, here):  # past the 2 s the bot waits for it: the move is refused
        played = fake.slash(world.cat, here, "jarmo move", move="A1-C2")
        [refusal] = played.wait_followups(1)
    answer = played.wait_answer()
    assert answer.type == DEFERRED and answer.elapsed < ANSWER_DEADLINE
    assert answer.message is not None
    assert fake.message(answer.message.id).deleted  # the public "thinking" is gone
    assert refusal.ephemeral and refusal.id != answer.message.id
    assert refusal.content.startswith("The bot's database is busy right now")
    assert not any(m.interaction is played for m in fake.channel_messages(here))
    board = fake.slash(world.cat, here, "jarmo board").wait_answer()
    assert "Turn 1:" in board.embeds[0]["description"]  # nothing was played
