"""End to end: what players see when something fails behind the scenes — Discord refusing a
request mid-interaction (the generic private apology, logged with who and where), a thread
Discord will not open (the match stays in the channel), the computer's move refused as a
follow-up (it reaches the channel later, from the outbox) and a computer's move that cannot be
stored (the player is told privately, and the computer moves after a restart)."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_board_embed, check_private
from tests.e2e.fake_discord import DiscordError, FakeDiscord
from tests.e2e.fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS, Channel, Message, Thread

SORRY = (
    "Sorry, something went wrong on our side. Your game is safe and nothing was changed; "
    "please try again in a moment."
)


def challenges_in(fake: FakeDiscord, channel: Channel | Thread) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if " challenges " in m.content]


def test_an_unexpected_failure_is_a_private_apology_logged_with_context(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    here = world.channel("arena-1")
    accept(fake, challenge(fake, here, ann, bob, side="white"), bob)
    prompt = fake.slash(bob, here, "jarmo resign").wait_answer()
    assert prompt.message is not None
    [ending] = fake.press(bob, prompt.message, "Yes, resign the match").wait_followups(1)

    # A rematch looks the opponent up; Discord is down for that one call.
    def member_lookup_down(method: str, path: str) -> DiscordError | None:
        down = method == "GET" and f"/members/{bob.id}" in path
        return DiscordError(503, "Service Unavailable") if down else None

    fake.refuse = member_lookup_down
    try:
        apology = fake.press(ann, ending, "Rematch").wait_answer()
    finally:
        fake.refuse = None
    check_private(apology)
    assert apology.content == SORRY  # no details, no traceback
    [logged] = bot.new_errors()  # taken here, so the fixture does not fail the test
    assert f"rematch failed (user {ann.id}, guild {world.guild_id}, channel {here.id})" in logged
    assert "DiscordServerError: 503" in logged
    assert len(challenges_in(fake, here)) == 1  # the first match's only

    # Nothing was changed: once Discord is back, the same button works.
    again = fake.press(ann, ending, "Rematch").wait_answer()
    assert again.type == 4 and not again.ephemeral
    assert len(challenges_in(fake, here)) == 2
    assert again.content.startswith(f"{ann.mention} challenges {bob.mention}")
    assert "plays Black first" in again.content  # sides swapped


def test_a_thread_discord_refuses_leaves_the_match_in_the_channel(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    here = world.channel("arena-2")
    refused: list[str] = []

    def threads_full(method: str, path: str) -> DiscordError | None:
        if method == "POST" and path.endswith("/threads"):
            refused.append(path)
            return DiscordError(400, "Maximum number of active threads reached", 160006)
        return None

    fake.refuse = threads_full
    try:
        offer = challenge(fake, here, world.ann, world.bob, side="white")
        pressed = fake.press(world.bob, offer, "Accept")
        answer = pressed.wait_answer()
        [board] = pressed.wait_followups(1)
    finally:
        fake.refuse = None
        world.bot_permissions = MEMBER_PERMISSIONS
    assert len(refused) == 1  # it was tried
    assert answer.type == 7 and "**Accepted.** Game on!" in answer.content
    assert fake.threads_of(here) == []
    assert board.channel_id == here.id and not board.ephemeral
    assert board.content == f"{world.ann.mention}, your move."
    check_board_embed(board)
    assert "could not open a thread for challenge" in bot.log_text()  # a warning, not an error
    played = fake.slash(world.ann, here, "jarmo move", move="A1-C2").wait_answer()
    assert not played.ephemeral and "played **A1-C2**" in played.embeds[0]["description"]


def test_the_computers_move_refused_as_a_follow_up_reaches_the_channel_later(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-3")
    fake.slash(
        world.cat, here, "jarmo challenge", opponent=world.bot, side="white", level="easy"
    ).wait_answer()
    refused: list[str] = []

    def token_expired(method: str, path: str) -> DiscordError | None:
        # As when the computer thought past the interaction token's 15 minutes.
        if method == "POST" and path.startswith("/webhooks/"):
            refused.append(path)
            return DiscordError(404, "Unknown Webhook", 10015)
        return None

    fake.refuse = token_expired
    try:
        played = fake.slash(world.cat, here, "jarmo move", move="A1-C2")
        answer = played.wait_answer()
        fake.wait_until(lambda: refused, 20, "the computer's follow-up")
        fake.wait_idle()
    finally:
        fake.refuse = None
    assert not answer.ephemeral and "played **A1-C2**" in answer.embeds[0]["description"]
    assert played.followups == []

    def posted_by_the_bot() -> list[Message]:
        return [m for m in fake.channel_messages(here) if m.interaction is None and m.embeds]

    fake.wait_until(posted_by_the_bot, 20, "the computer's move posted in the channel")
    [reply] = posted_by_the_bot()
    assert reply.embeds[0]["description"].startswith(f"{world.bot.mention} played **")
    # Named, but not pinged: the computer answers while its player is looking.
    assert reply.content == f"{world.cat.mention}, your move." and reply.pinged == frozenset()
    check_board_embed(reply)
    [logged] = bot.new_errors()
    assert f"could not be posted as a follow-up in channel {here.id}" in logged
    assert "Unknown Webhook" in logged
    # The game goes on from the computer's move.
    board = fake.slash(world.cat, here, "jarmo board").wait_answer()
    assert "Turn 3:" in board.embeds[0]["description"]


@pytest.mark.sqlite_only("holds a write lock on the SQLite file")
def test_a_computer_move_that_cannot_be_stored_is_explained_privately(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-4")
    fake.slash(
        world.eve, here, "jarmo challenge", opponent=world.bot, side="white", level="hard"
    ).wait_answer()
    played = fake.slash(world.eve, here, "jarmo move", move="A1-C2")
    answer = played.wait_answer()
    assert not answer.ephemeral and "played **A1-C2**" in answer.embeds[0]["description"]
    # While the computer thinks (about two seconds at this level), another process holds the
    # database's write lock past the bot's busy timeout: the computer's move cannot be stored.
    with closing(sqlite3.connect(bot.database, timeout=10, isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")
        try:
            [told] = played.wait_followups(1)
        finally:
            db.execute("ROLLBACK")
    assert told.ephemeral and told.pinged == frozenset()
    assert told.content == (
        "Your move was played, but the computer could not answer just now. It will move when "
        "the bot restarts; you can also /jarmo resign."
    )
    logged = bot.new_errors()
    assert any(f"the computer could not answer in channel {here.id}" in e for e in logged)
    board = fake.slash(world.eve, here, "jarmo board").wait_answer()
    assert "Turn 2:" in board.embeds[0]["description"]  # Eve's move stands; the computer's turn

    # As promised: after a restart the computer makes its move.
    status, _ = bot.stop()
    assert status == 0, bot.log_tail()
    bot.start()

    def posted_by_the_bot() -> list[Message]:
        return [m for m in fake.channel_messages(here) if m.interaction is None and m.embeds]

    fake.wait_until(posted_by_the_bot, 30, "the computer's move after the restart")
    [reply] = posted_by_the_bot()
    assert reply.embeds[0]["description"].startswith(f"{world.bot.mention} played **")
    assert reply.pinged == frozenset()  # the computer's answer pings nobody
