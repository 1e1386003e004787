"""End to end: the computer's move shows once, even when the bot dies after Discord created
it as the player's follow-up but before the bot heard back and settled it in the outbox. The
outbox delivers it again after the restart; the follow-up took no nonce, so the bot has to
find it in the channel itself."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from typing import Any

import asyncpg

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_board_embed
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Message, Thread, User

PENDING_MOVES = "SELECT count(*) FROM outbox WHERE kind = 'computer_move' AND status = 'pending'"
ENDED_LEASES = (
    "UPDATE outbox SET lease_until = NULL, lease_token = NULL"
    " WHERE status = 'pending' AND lease_until IS NOT NULL"
)


def on_database(bot: BotProcess, statement: str) -> int:
    """Run ``statement`` on the bot's database (either backend); a count it reads, or the
    number of rows it changed."""
    if bot.database_url is None:
        with closing(sqlite3.connect(bot.database, timeout=10)) as db, db:
            cursor = db.execute(statement)
            row = cursor.fetchone() if cursor.description else None
            return int(row[0]) if row else cursor.rowcount
    url = bot.database_url

    async def run() -> int:
        db = await asyncpg.connect(url)
        try:
            if statement.startswith("SELECT"):
                return int(await db.fetchval(statement))
            return int((await db.execute(statement)).split()[-1])
        finally:
            await db.close()

    return asyncio.run(run())


def computer_moves(fake: FakeDiscord, channel: Channel | Thread) -> list[Message]:
    found = fake.channel_messages(channel)
    return [m for m in found if by_the_computer({"embeds": m.embeds}, fake.world.bot)]


def by_the_computer(payload: Any, bot: User) -> bool:
    """Whether a message (its JSON as sent) shows a move of the computer's."""
    if not isinstance(payload, dict) or not payload.get("embeds"):
        return False
    description: str = payload["embeds"][0].get("description", "")
    return description.startswith(f"{bot.mention} played")


def test_the_computers_move_shows_once_after_a_crash_before_it_was_settled(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-5")
    bot.wait_ready()
    fake.slash(
        world.ann, here, "jarmo challenge", opponent=world.bot, side="white", level="easy"
    ).wait_answer()
    # Discord creates the computer's follow-up, but its answer never reaches the bot: the bot
    # dies first, with the move stored and its announcement not settled.
    fake.hold_answers = lambda made: (
        made.path.startswith("/webhooks/") and by_the_computer(made.json, world.bot)
    )
    try:
        fake.slash(world.ann, here, "jarmo move", move="A1-C2").wait_answer()
        fake.wait_until(lambda: fake.held, 20, "the computer's follow-up to be held")
        bot.kill()
    finally:
        fake.release_held()
    [reply] = computer_moves(fake, here)
    assert reply.interaction is not None  # the follow-up
    check_board_embed(reply)
    assert on_database(bot, PENDING_MOVES) == 1
    # A dead process's hold ends at once on SQLite (one process per file releases it when it
    # opens) and after a minute on PostgreSQL, which the test lets pass while the bot is down.
    if bot.database_url:
        assert on_database(bot, ENDED_LEASES) == 1
    bot.start()

    fake.wait_until(lambda: on_database(bot, PENDING_MOVES) == 0, 30, "the outbox to settle")
    fake.wait_idle()
    assert [m.id for m in computer_moves(fake, here)] == [reply.id]
    assert not any(m.interaction is None for m in fake.channel_messages(here))
    # The game goes on from the computer's move.
    board = fake.slash(world.ann, here, "jarmo board").wait_answer()
    assert "Turn 3:" in board.embeds[0]["description"]
