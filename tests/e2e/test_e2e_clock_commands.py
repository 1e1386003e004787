"""End to end: the correspondence clock as players meet it — ``/jarmo pause`` with the
opponent's agree button, ``/jarmo resume``, the ``time_per_move`` autocomplete and the
deadline scheduler's reminder before a timeout."""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Message, Thread

DEADLINE = re.compile(r"must move <t:(\d+):R> or loses on time")
USUAL_LIMITS = ["5m", "30m", "1h", "2h", "12h", "1d", "3d", "7d", "none"]


def deadline_of(text: str) -> int:
    """The Unix time of the deadline a board description shows."""
    found = DEADLINE.search(text)
    assert found, f"no deadline in {text!r}"
    return int(found[1])


def test_a_pause_agreed_by_the_opponent_stops_the_clock_until_resume(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    here = world.channel("arena-1")
    board = accept(fake, challenge(fake, here, ann, bob, side="white", time_per_move="1h"), bob)
    first_deadline = deadline_of(board.embeds[0]["description"])

    offered = fake.slash(bob, here, "jarmo pause").wait_answer()
    assert offered.type == 4 and not offered.ephemeral
    offer = offered.message
    assert offer is not None
    assert offer.content.startswith(f"{bob.mention} asks to pause the clock of this game.")
    assert f"{ann.mention}, do you agree?" in offer.content
    assert offer.pinged == {ann.id}  # only the one who answers
    assert [b["label"] for b in offer.buttons] == ["Agree to pause"]

    # The one who offered cannot accept for the opponent; the offer stays.
    check_private(fake.press(bob, offer, "Agree to pause").wait_answer(), "only the player")
    assert fake.message(offer.id).buttons

    pressed = fake.press(ann, offer, "Agree to pause")
    answer = pressed.wait_answer()
    assert answer.type == 7 and answer.message is not None
    assert answer.message.id == offer.id and answer.message.components == []
    [paused] = pressed.wait_followups(1)
    assert not paused.ephemeral and not paused.content and paused.pinged == frozenset()
    text = check_board_embed(paused)["description"]
    assert text.startswith("The players agreed to pause the clock.\n")
    assert f"Clock paused: {ann.mention} has 1 hour left for this move." in text
    assert "/jarmo resume" in text

    # While paused: no move, no second pause; the stored game is untouched.
    check_private(
        fake.slash(ann, here, "jarmo move", move="A1-C2").wait_answer(), "clock is paused"
    )
    check_private(fake.slash(ann, here, "jarmo pause").wait_answer(), "already paused")

    resumed = fake.slash(bob, here, "jarmo resume").wait_answer()  # either player may
    assert resumed.type == 4 and not resumed.ephemeral
    assert resumed.content == f"{ann.mention}, your move."
    assert resumed.message is not None
    assert resumed.message.pinged == {ann.id}
    text = check_board_embed(resumed.message)["description"]
    assert text.startswith(f"{bob.mention} restarted the clock.\n")
    assert "Turn 1:" in text
    # The time left was kept: the new deadline is an hour from the restart, not earlier.
    assert deadline_of(text) >= first_deadline
    check_private(fake.slash(ann, here, "jarmo resume").wait_answer(), "not paused")

    played = fake.slash(ann, here, "jarmo move", move="A1-C2").wait_answer()
    assert not played.ephemeral and "played **A1-C2**" in played.embeds[0]["description"]


def test_a_pause_offer_lapses_with_the_next_move(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, cat = world.ann, world.cat
    here = world.channel("arena-2")
    accept(fake, challenge(fake, here, ann, cat, side="white", time_per_move="1d"), cat)
    offer = fake.slash(ann, here, "jarmo pause").wait_answer().message
    assert offer is not None
    fake.slash(ann, here, "jarmo move", move="A1-C2").wait_answer()
    check_private(fake.press(cat, offer, "Agree to pause").wait_answer())
    # The clock still runs: Cat can move.
    played = fake.slash(cat, here, "jarmo move", move="A5-C4").wait_answer()
    assert not played.ephemeral


def test_pause_without_a_time_limit_is_refused_privately(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-3")
    accept(fake, challenge(fake, here, world.ann, world.eve, side="white"), world.eve)
    check_private(fake.slash(world.eve, here, "jarmo pause").wait_answer())
    check_private(fake.slash(world.eve, here, "jarmo resume").wait_answer())


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("", USUAL_LIMITS),
        ("1", ["1h", "12h", "1d"]),
        ("2H", ["2h"]),
        ("90m", ["90m", *USUAL_LIMITS]),  # a valid limit of its own comes first
        ("soon", USUAL_LIMITS),  # nothing matches: every usual limit
    ],
)
def test_time_per_move_autocomplete(
    fake: FakeDiscord, bot: BotProcess, typed: str, offered: list[str]
) -> None:
    world = fake.world
    answer = fake.autocomplete(
        world.ann, world.channel("general"), "jarmo challenge", "time_per_move",
        opponent=world.bob, time_per_move=typed,
    ).wait_answer()  # fmt: skip
    assert answer.type == 8
    assert [c["name"] for c in answer.choices] == offered
    assert [c["value"] for c in answer.choices] == offered


def bring_deadline_forward(database: Path, channel_id: int, left: timedelta) -> None:
    """Move the running game's deadline so that only ``left`` remains, as if time had passed
    (a test does not wait half an hour for a reminder)."""
    deadline = (datetime.now(UTC) + left).isoformat(timespec="microseconds")
    with closing(sqlite3.connect(database, timeout=10)) as db, db:
        changed = db.execute(
            "UPDATE games SET deadline_at = ? WHERE channel_id = ? AND status = 'active'",
            (deadline, channel_id),
        ).rowcount
    assert changed == 1, f"no running game in channel {channel_id}"


def reminders_in(fake: FakeDiscord, channel: Channel | Thread) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if "Your time runs out" in m.content]


@pytest.mark.sqlite_only("brings the deadline forward in the SQLite file")
def test_a_reminder_is_posted_once_halfway_to_the_deadline(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    here, elsewhere = world.channel("arena-5"), world.channel("arena-6")
    accept(fake, challenge(fake, here, ann, bob, side="white", time_per_move="1h"), bob)
    accept(
        fake,
        challenge(fake, elsewhere, world.cat, world.eve, side="white", time_per_move="1h"),
        world.eve,
    )
    # Twenty minutes left of an hour: the half-time reminder is due, the late one (at a tenth)
    # is not. A move in another timed game wakes the scheduler, which then reads the new
    # deadline (a move in an untimed game wakes nothing, so the scheduler could sleep on).
    bring_deadline_forward(bot.database, here.id, timedelta(minutes=20))
    fake.slash(world.cat, elsewhere, "jarmo move", move=Game.new().legal_moves()[0]).wait_answer()
    fake.wait_until(lambda: reminders_in(fake, here), 20, "a reminder in the channel")
    [reminder] = reminders_in(fake, here)
    assert reminder.content.startswith(
        f"{ann.mention}, it is your move in this channel's Jarmo game. Your time runs out <t:"
    )
    assert reminder.content.endswith(":R>; move before then or you lose the match on time.")
    assert reminder.pinged == {ann.id}
    assert not reminder.embeds and not reminder.components and reminder.interaction is None
    # Another wake-up sends no second copy of the same reminder.
    fake.slash(world.eve, elsewhere, "jarmo move", move="A5-C4").wait_answer()
    fake.wait_idle()
    assert len(reminders_in(fake, here)) == 1
    # The game goes on: the reminder changed nothing, and Bob gets a full hour again.
    played = fake.slash(ann, here, "jarmo move", move="A1-C2").wait_answer()
    assert not played.ephemeral
    assert deadline_of(played.embeds[0]["description"]) > time.time() + 50 * 60
