"""End to end: a tournament. Sign-up with Join / Leave, a start that only a
moderator may make, a round of matches each in its own thread, results flowing back when the
matches end, a crash between storing a round and posting it (Discord down meanwhile) after which
the round and its welcomes are posted once, and the final table posted in the channel."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from functools import partial

import asyncpg
import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_png, check_private, manager
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import (
    MEMBER_PERMISSIONS,
    THREAD_PERMISSIONS,
    Channel,
    Message,
    Thread,
    User,
)

KINDS = ("round_paired", "match_welcome")  # of round 2's outbox entries
MATCH = re.compile(r"<@(?P<first>\d+)> vs <@(?P<second>\d+)> in <#(?P<thread>\d+)>")


@pytest.fixture(autouse=True)
def threads_allowed(fake: FakeDiscord) -> Iterator[None]:
    fake.world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    yield


def let_leases_run_out(url: str) -> None:
    """Lets ``LEASE_SECONDS`` pass for the outbox of the database at ``url``, as if the bot had
    been down that long: every claim and retry time ends now. On PostgreSQL a dead process's
    claims stay its own until their leases run out (another process might be posting them), and
    the test need not wait that out."""

    async def expire() -> None:
        db = await asyncpg.connect(url)
        try:
            await db.execute(
                "UPDATE outbox SET lease_until = NULL, lease_token = NULL"
                " WHERE status = 'pending' AND lease_until IS NOT NULL"
            )
        finally:
            await db.close()

    asyncio.run(expire())


def posts_containing(fake: FakeDiscord, channel: Channel | Thread, text: str) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if text in m.content]


def wait_round(
    fake: FakeDiscord, channel: Channel | Thread, number: int, timeout: float = 20
) -> Message:
    """The post of round ``number`` in the tournament's channel."""
    heading = f"**Round {number} of Club cup**"
    fake.wait_until(lambda: posts_containing(fake, channel, heading), timeout, f"round {number}")
    return posts_containing(fake, channel, heading)[-1]


def resign_in(fake: FakeDiscord, thread: Thread, loser: User) -> None:
    """``loser`` resigns the match in its thread (confirming privately)."""
    prompt = fake.slash(loser, thread, "jarmo resign").wait_answer()
    assert prompt.message is not None and prompt.ephemeral
    fake.press(loser, prompt.message, "Yes, resign the match").wait_followups(1)


def round_matches(
    fake: FakeDiscord, post: Message, timeout: float = 20
) -> list[tuple[int, int, int]]:
    """(first, second, thread id) of each match of the round's post, once each thread shows
    its first board."""
    matches = [
        (int(m["first"]), int(m["second"]), int(m["thread"])) for m in MATCH.finditer(post.content)
    ]
    assert len(matches) == 2, post.content
    for *_, thread_id in matches:
        thread = fake.world.threads[thread_id]
        fake.wait_until(partial(fake.channel_messages, thread), timeout, "the first board")
    return matches


def play_round(fake: FakeDiscord, post: Message) -> list[tuple[int, int, int]]:
    """Each match of the round's post is ended in its thread: the first named resigns.
    Returns (first, second, thread id) of each match."""
    world = fake.world
    matches = round_matches(fake, post)
    for first, second, thread_id in matches:
        thread = world.threads[thread_id]
        welcome = fake.channel_messages(thread)[0]
        assert welcome.pinged == {first, second}  # both players mentioned once, here
        assert "your match of Club cup is played in this thread" in welcome.content
        loser = world.user(first)
        assert loser is not None
        resign_in(fake, thread, loser)
    return matches


def test_sign_up_two_rounds_in_threads_a_restart_and_the_final_table(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-11")
    players = [world.ann, world.bob, world.cat, world.eve]

    refused = fake.slash(
        world.ann, here, "jarmo tournament create", name="Club cup", format="swiss"
    )
    check_private(refused.wait_answer(), "Only members who can manage this server")
    with manager(fake, world.ann):
        created = fake.slash(
            world.ann, here, "jarmo tournament create", name="Club cup", format="swiss", rounds=2
        ).wait_answer()
    signup = created.message
    assert signup is not None and not created.ephemeral
    assert "0 players signed up" in signup.content
    for player in players:
        answer = fake.press(player, signup, "Join").wait_answer()
        assert answer.type == 7
    fake.press(world.eve, signup, "Leave").wait_answer()
    fake.press(world.eve, signup, "Join").wait_answer()
    signup = fake.message(signup.id)
    assert "4 players signed up" in signup.content and signup.pinged == set()

    with manager(fake, world.ann):
        started = fake.slash(world.ann, here, "jarmo tournament start")
        started.wait_answer()
        [done] = started.wait_followups(1)
        assert done.ephemeral and "round 1 is paired" in done.content
        again = fake.slash(world.ann, here, "jarmo tournament start")
        again.wait_answer()
        [second] = again.wait_followups(1)
        assert second.ephemeral and "it has started" in second.content
    # The sign-up message loses its buttons (a late press is refused: the service tests).
    fake.wait_until(lambda: not fake.message(signup.id).components, 20, "sign-up closed")
    assert "Sign-up is closed" in fake.message(signup.id).content

    round_one = wait_round(fake, here, 1)
    assert round_one.pinged == set()  # the round post names; the threads ping
    round_matches(fake, round_one)  # its welcomes are up before Discord goes down
    # Discord refuses round 2's post and welcomes while round 1 ends: round 2 is stored, its
    # threads opened, and the bot dies (SIGKILL) before anything of it could be posted.
    welcome = "your match of Club cup is played in this thread"
    fake.unavailable_for = lambda text: "Round 2 of Club cup" in text or welcome in text
    first_round = play_round(fake, round_one)
    fake.wait_until(
        lambda: all(f"deliver announcement {kind}:1:2" in bot.log_text() for kind in KINDS),
        20,
        "round 2's post and a welcome to be refused",
    )
    bot.kill()
    assert len(fake.threads_of(here)) == 4 and not posts_containing(fake, here, "Round 2 of")
    fake.unavailable_for = None
    # What the dead bot had in flight is its own until its lease runs out: at once on SQLite
    # (one process per file, which releases them when it opens), after LEASE_SECONDS on
    # PostgreSQL, which the test lets pass while the bot is down.
    if bot.database_url:
        let_leases_run_out(bot.database_url)
    bot.start()

    round_two = wait_round(fake, here, 2)
    round_matches(fake, round_two)  # posted after the restart, and its boards are up
    fake.wait_idle()
    assert len(posts_containing(fake, here, "**Round 2 of Club cup**")) == 1
    for thread in fake.threads_of(here):
        assert len([m for m in fake.channel_messages(thread) if welcome in m.content]) == 1
    second_round = play_round(fake, round_two)
    met = [frozenset(m[:2]) for m in first_round + second_round]
    assert len(set(met)) == 4  # no rematch
    fake.wait_until(lambda: posts_containing(fake, here, "Club cup is over"), 20, "the final table")
    [final] = posts_containing(fake, here, "Club cup is over")
    check_png(final.attachment("standings.png").data)
    assert "Round robin" not in final.content and "Swiss" in final.content
    assert final.pinged == set()
    standings = fake.slash(world.bob, here, "jarmo tournament standings")
    standings.wait_answer()
    [table] = standings.wait_followups(1)
    assert not table.ephemeral and "final table" in table.content
    check_png(table.attachment("standings.png").data)
    # The text version for screen readers: every player, with their results by round.
    for player in players:
        assert f"{player.mention}: " in final.content
    assert final.content.count("Round 1: ") == 4 and final.content.count("Round 2: ") == 4
