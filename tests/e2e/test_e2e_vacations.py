"""End to end: a vacation as players meet it. ``/jarmo vacation start`` stops the player's
clock (a timed game whose deadline passes meanwhile is not lost on time, while another player's
is), the opponent is told in the game's channel, the refusals are private, and ``/jarmo
vacation end`` gives the clock back with the deadline moved on by the time away."""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, accept, challenge, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Message

SETTLED_SECONDS = 30.0
TIMESTAMP = re.compile(r"<t:(\d+):R>")


def posts_with(fake: FakeDiscord, channel: Channel, text: str) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if text in m.content]


def timed_out(fake: FakeDiscord, channel: Channel) -> bool:
    texts = (m.content + "".join(e.get("description", "") for e in m.embeds) for m in
             fake.channel_messages(channel))  # fmt: skip
    return any("ran out of time" in text for text in texts)


def as_if_hours_passed(database: Path, channel: Channel, user_id: int) -> None:
    """As if the player had gone away 2 h 10 min ago, 50 minutes into their hour for a move,
    and their deadline had passed 2 hours ago (a test does not wait for hours)."""
    now = datetime.now(UTC)

    def at(before: timedelta) -> str:
        return (now - before).isoformat(timespec="microseconds")

    with closing(sqlite3.connect(database, timeout=10)) as db, db:
        games = db.execute(
            "UPDATE games SET last_activity = ?, deadline_at = ?"
            " WHERE channel_id = ? AND status = 'active'",
            (at(timedelta(hours=3)), at(timedelta(hours=2)), channel.id),
        ).rowcount
        away = db.execute(
            "UPDATE vacations SET started_at = ? WHERE user_id = ? AND ended_at IS NULL",
            (at(timedelta(hours=2, minutes=10)), user_id),
        ).rowcount
    assert (games, away) == (1, 1)


def deadline_passed(database: Path, channel: Channel) -> None:
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="microseconds")
    with closing(sqlite3.connect(database, timeout=10)) as db, db:
        changed = db.execute(
            "UPDATE games SET deadline_at = ? WHERE channel_id = ? AND status = 'active'",
            (past, channel.id),
        ).rowcount
    assert changed == 1


@pytest.mark.sqlite_only("moves the vacation and the deadlines back in the SQLite file")
def test_a_vacation_saves_a_timed_game_from_timing_out_and_ends(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob, cat, eve = world.ann, world.bob, world.cat, world.eve
    here, control, waker = (world.channel(f"arena-{n}") for n in (1, 2, 3))
    accept(fake, challenge(fake, here, ann, bob, side="white", time_per_move="1h"), bob)
    accept(fake, challenge(fake, control, cat, eve, side="white", time_per_move="1h"), eve)
    wake = Table.start(fake, waker, bob, eve, time_per_move="1d")

    check_private(fake.slash(ann, here, "jarmo vacation end").wait_answer(), "not on vacation")
    started = fake.slash(ann, waker, "jarmo vacation start").wait_answer()  # any channel
    check_private(started, "Your vacation has begun", "The opponent of your 1 game is told.")
    told = f"{bob.mention}: {ann.mention} is on vacation, until <t:"
    fake.wait_until(lambda: posts_with(fake, here, told), SETTLED_SECONDS, "Bob to be told")
    [notice] = posts_with(fake, here, told)
    assert notice.pinged == {bob.id} and notice.interaction is None
    again = fake.slash(ann, here, "jarmo vacation start").wait_answer()
    check_private(again, "You are on vacation already", "/jarmo vacation end")
    status = fake.slash(ann, here, "jarmo vacation status").wait_answer()
    check_private(status, "You are on vacation", "Vacation left in")

    # Both deadlines have passed; Ann is away, Cat is not. A timed move wakes the scheduler,
    # and once Cat's timeout is announced the pass that left Ann's game alone is over.
    as_if_hours_passed(bot.database, here, ann.id)
    deadline_passed(bot.database, control)
    wake.play(autocomplete=False)
    fake.wait_until(lambda: timed_out(fake, control), SETTLED_SECONDS, "Cat's timeout")
    fake.wait_idle()
    assert not timed_out(fake, here)
    stats = fake.slash(ann, control, "jarmo stats", player=cat).wait_answer().message
    assert stats is not None  # Cat has a result now, and the days of her year to show
    assert "Vacation left in " in stats.embeds[0]["description"]
    assert ": 14 days of 14 days." in stats.embeds[0]["description"]

    back = fake.slash(ann, here, "jarmo vacation end").wait_answer()
    check_private(back, "Welcome back", "13 days and 21 hours of 14 days")  # 3 started hours
    returned = f"{bob.mention}: {ann.mention} is back from vacation; their clock runs again."
    fake.wait_until(lambda: posts_with(fake, here, returned), SETTLED_SECONDS, "Bob told")
    [notice] = posts_with(fake, here, returned)
    assert notice.pinged == {bob.id}
    # She had 10 minutes of her hour left when she went: they are hers again.
    found = TIMESTAMP.search(notice.content.split("Their time for this move runs out ")[1])
    assert found is not None
    assert time.time() + 8 * 60 < int(found[1]) <= time.time() + 10 * 60
    status = fake.slash(ann, here, "jarmo vacation status").wait_answer()
    check_private(status, "You are not on vacation", "/jarmo vacation start")
    played = fake.slash(ann, here, "jarmo move", move="A1-C2").wait_answer()
    assert not played.ephemeral and "played **A1-C2**" in played.embeds[0]["description"]
    assert not timed_out(fake, here)
