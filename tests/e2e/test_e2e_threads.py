"""End to end: a thread per match. Matches run at once in one channel's threads,
a match's thread is renamed with its result and still answers once archived, a rematch, a
deleted thread aborts its match, and without thread permissions the match stays in the channel
with one private notice.

One bot process serves the module; the bot may open threads unless a test says otherwise.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, challenge, check_board_embed, check_private, manager
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS, Message, Thread, User

pytestmark = pytest.mark.sqlite_only("reads the stored thread ids from the SQLite file")


@pytest.fixture(autouse=True)
def threads_allowed(fake: FakeDiscord) -> Iterator[None]:
    fake.world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    yield
    fake.world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS


def accept_into_thread(
    fake: FakeDiscord, message: Message, challenger: User, opponent: User
) -> tuple[Thread, Message]:
    """The opponent accepts: the challenge says where the match went, a thread opened from the
    challenge's message holds the first board, naming both players. Returns both."""
    channel = fake.world.channel_by_id(message.channel_id)
    assert channel is not None
    before = len(fake.threads_of(channel))
    answer = fake.press(opponent, message, "Accept").wait_answer()
    assert answer.type == 7 and answer.message is not None, answer
    thread = fake.wait_threads(channel, before + 1)[-1]
    assert thread.starter_message_id == message.id and thread.owner_id == fake.world.bot.id
    assert thread.name == f"{challenger.display_name} vs {opponent.display_name} · classic"
    assert thread.auto_archive_duration == 1440
    assert f"**Accepted.** The match is played in <#{thread.id}>." in answer.content
    assert answer.message.components == []
    fake.wait_until(lambda: fake.channel_messages(thread), 20, "the first board in the thread")
    [board] = fake.channel_messages(thread)
    assert board.content.startswith(
        f"{challenger.mention} and {opponent.mention}: your match is played in this thread."
    )
    assert board.pinged == {challenger.id, opponent.id}
    check_board_embed(board)
    return thread, board


def database_row(fake_bot: BotProcess, sql: str, *args: object) -> tuple[Any, ...]:
    with closing(sqlite3.connect(f"file:{fake_bot.database}?mode=ro", uri=True)) as db:
        row: tuple[Any, ...] = db.execute(sql, args).fetchone()
        return row


def test_two_matches_at_once_in_one_channels_threads(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-1")
    first, _ = accept_into_thread(
        fake, challenge(fake, here, world.ann, world.bob, side="white"), world.ann, world.bob
    )
    # The channel is free again at once: a second match starts while the first runs.
    second, _ = accept_into_thread(
        fake, challenge(fake, here, world.cat, world.ann, side="white"), world.cat, world.ann
    )
    check_private(fake.slash(world.ann, here, "jarmo board").wait_answer(), "no game")
    one = Table(fake, first, world.ann, world.bob)
    two = Table(fake, second, world.cat, world.ann)
    for _ in range(3):  # moves alternate between the two threads
        one.play()
        two.play()
    last = one.play_to_end()
    assert last.message is not None
    assert [b["label"] for b in last.message.buttons] == ["Rematch", "Review"]
    fake.wait_until(lambda: "—" in first.name, 20, "the finished match's thread renamed")
    points = one.game.points()
    winner = one.game.winner()
    result = (
        "drawn"
        if winner is None
        else f"{(one.white if winner == 'white' else one.black).display_name} won"
    )
    assert first.name == f"Ann vs Bob · classic — {result}", (first.name, points)
    assert "—" not in second.name  # the other match plays on
    two.play()
    # Discord archives the thread a day later; standings and history still answer there.
    fake.archive_thread(first)
    standings = fake.slash(world.bob, first, "jarmo standings").wait_answer()
    assert standings.type == 4 and not standings.ephemeral
    assert standings.embeds[0]["title"] == "Match standings"
    history = fake.slash(world.bob, first, "jarmo history").wait_answer()
    assert history.type == 4 and history.message is not None
    assert not first.archived  # a message in an archived thread brings it back


def test_a_rematch_swaps_sides_and_is_refused_to_others(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-2")
    message = challenge(fake, here, world.ann, world.bob, side="white")
    thread, _ = accept_into_thread(fake, message, world.ann, world.bob)
    table = Table(fake, thread, world.ann, world.bob)
    last = table.play_to_end().message
    assert last is not None
    outsider = fake.press(world.cat, last, "Rematch").wait_answer()
    check_private(outsider, "Only the two players of that match")
    world.departed.add(world.ann.id)
    try:
        gone = fake.press(world.bob, last, "Rematch").wait_answer()
    finally:
        world.departed.discard(world.ann.id)
    check_private(gone, "Ann is no longer a member of this server")
    offer = fake.press(world.bob, last, "Rematch").wait_answer()
    assert offer.type == 4 and offer.message is not None and not offer.ephemeral
    rematch = offer.message
    assert rematch.channel_id == thread.id
    assert rematch.content.startswith(f"{world.bob.mention} challenges {world.ann.mention}")
    assert f"{world.bob.mention} plays White first" in rematch.content  # Ann had White
    assert rematch.pinged == {world.ann.id}
    press = fake.press(world.ann, rematch, "Accept")
    assert "**Accepted.**" in press.wait_answer().content
    [board] = press.wait_followups(1)
    assert board.channel_id == thread.id  # played on in the same thread
    assert board.content == f"{world.bob.mention}, your move."
    assert fake.threads_of(here) == [thread]
    fake.wait_until(lambda: "—" not in thread.name, 20, "the thread's name without the result")
    assert thread.name == "Bob vs Ann · classic"
    again = Table(fake, thread, world.bob, world.ann)
    again.play()


def test_a_deleted_thread_aborts_its_match(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-3")
    message = challenge(fake, here, world.bob, world.cat, side="white")
    thread, _ = accept_into_thread(fake, message, world.bob, world.cat)
    Table(fake, thread, world.bob, world.cat).play()
    before = len(fake.channel_messages(here))
    fake.delete_thread(thread)
    fake.wait_until(lambda: len(fake.channel_messages(here)) > before, 20, "the abort notice")
    notice = fake.channel_messages(here)[-1]
    assert "was deleted, so the match was aborted; nothing counts." in notice.content
    assert notice.pinged == {world.bob.id, world.cat.id}
    state = database_row(bot, "SELECT state FROM matches WHERE channel_id = ?", thread.id)
    assert state == ("aborted",)
    status = database_row(bot, "SELECT status FROM games WHERE channel_id = ?", thread.id)
    assert status == ("aborted",)
    # A player whose client still shows the thread is told privately; nothing is played.
    late = fake.slash(world.bob, thread, "jarmo move", move="A1-C2").wait_answer()
    check_private(late, "There is no game in this channel")


def test_server_settings_need_a_manager_and_threads_can_be_turned_off(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-4")
    refused = fake.slash(world.ann, here, "jarmo server threads", on=False).wait_answer()
    check_private(refused, "Only members who can manage this server")
    with manager(fake, world.cat):
        saved = fake.slash(world.cat, here, "jarmo server threads", on=False).wait_answer()
        check_private(saved, "Saved.", "Threads: off.")
        spoken = fake.slash(world.cat, here, "jarmo server language", language="eo").wait_answer()
        check_private(spoken, "Language of public posts: Esperanto.")
        # Back to English for what follows here (test_e2e_esperanto plays in Esperanto).
        english = fake.slash(world.cat, here, "jarmo server language", language="en")
        check_private(english.wait_answer(), "Language of public posts: English.")
    message = challenge(fake, here, world.ann, world.bob, side="white")
    press = fake.press(world.bob, message, "Accept")
    assert "**Accepted.** Game on!" in press.wait_answer().content
    [board] = press.wait_followups(1)
    assert board.channel_id == here.id and fake.threads_of(here) == []
    with manager(fake, world.cat):
        fake.slash(world.cat, here, "jarmo server threads", on=True).wait_answer()


def test_without_thread_permissions_the_match_stays_in_the_channel(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    fake.world.bot_permissions = MEMBER_PERMISSIONS
    pressed = []
    for name, challenger, opponent in (("arena-5", world.ann, world.bob),
                                       ("arena-6", world.cat, world.bob)):  # fmt: skip
        here = world.channel(name)
        message = challenge(fake, here, challenger, opponent, side="white")
        press = fake.press(opponent, message, "Accept")
        assert "**Accepted.** Game on!" in press.wait_answer().content
        board = press.wait_followups(1)[0]
        assert board.channel_id == here.id and not board.ephemeral
        assert fake.threads_of(here) == []
        pressed.append(press)
    # Said once, privately, after the first board: which permissions would give threads.
    first, second = pressed
    notice = first.wait_followups(2)[1]
    assert notice.ephemeral and notice.interaction is first
    assert "**Create Public Threads**, **Send Messages in Threads**" in notice.content
    fake.slash(world.cat, world.channel("arena-6"), "jarmo board").wait_answer()  # time passes
    fake.wait_idle()
    assert len(second.followups) == 1  # the board only
    started = fake.requests_to("POST", r"/channels/\d+/messages/\d+/threads")
    assert not {r.path.split("/")[2] for r in started} & {
        str(world.channel(name).id) for name in ("arena-5", "arena-6")
    }
