"""End to end: turn pings through the fake. A move pings the player to move once, by mention
in the game's channel (the default) or by a direct message (Discord's Create DM, then a
message with the board there); a player whose DMs are closed is mentioned instead and told
so privately, once, with their next command."""

from __future__ import annotations

import random

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, check_board_embed, pick_move
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Message, User

DELIVERED_S = 20.0
DM_REFUSED = "could not be sent: your direct messages are closed"


def choose(fake: FakeDiscord, user: User, mode: str) -> str:
    """``/jarmo notify``; returns its private answer."""
    answer = fake.slash(user, fake.world.channel("general"), "jarmo notify", mode=mode)
    reply = answer.wait_answer()
    assert reply.message is not None and reply.message.ephemeral
    return reply.message.content


def first_move(fake: FakeDiscord, channel: Channel, white: User, black: User) -> Message:
    """White (who challenged) plays the first move of a fresh game; returns its board."""
    Table.start(fake, channel, white, black)
    move = pick_move(Game.new(), random.Random(3))
    answer = fake.slash(white, channel, "jarmo move", move=move).wait_answer()
    assert answer.message is not None
    check_board_embed(answer.message)
    return answer.message


def created_dms(fake: FakeDiscord) -> int:
    return sum(r.method == "POST" and r.path == "/users/@me/channels" for r in fake.requests)


def test_a_move_pings_its_player_by_mention_once(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    board = first_move(fake, world.channel("arena-1"), world.ann, world.bob)

    assert board.content == f"{world.bob.mention}, your move."
    assert board.pinged == {world.bob.id}
    fake.wait_idle()
    assert fake.direct_messages(world.bob) == []


def test_a_player_who_chose_dm_is_sent_one_direct_message_and_no_mention(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    assert "Direct message" in choose(fake, world.cat, "dm")
    before = created_dms(fake)

    board = first_move(fake, world.channel("arena-2"), world.eve, world.cat)

    assert board.pinged == frozenset()  # named on the board, not notified there
    fake.wait_until(lambda: fake.direct_messages(world.cat), DELIVERED_S, "the DM ping")
    fake.wait_idle()
    [direct] = fake.direct_messages(world.cat)
    [embed] = direct.embeds
    link = f"https://discord.com/channels/{world.guild_id}/{world.channel('arena-2').id}"
    assert "It is your move in **Jarmo Club** against **@everyone**" in embed["description"]
    assert link in embed["description"]
    assert embed["image"]["url"] == "attachment://board.png"
    assert direct.attachment("board.png").data.startswith(b"\x89PNG")
    assert direct.pinged == frozenset()
    assert created_dms(fake) == before + 1
    since = [m for m in fake.channel_messages(world.channel("arena-2")) if m.id >= board.id]
    assert all(world.cat.id not in message.pinged for message in since)
    choose(fake, world.cat, "mention")


def test_a_switch_to_direct_messages_mid_game_holds_from_the_next_move(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    # The next move reads the setting with its game. It is the game's second move in this bot,
    # which on PostgreSQL writes the direct message in the move's one statement.
    world = fake.world
    channel = world.channel("arena-5")
    table = Table.start(fake, channel, world.ann, world.bob)
    table.play(autocomplete=False)  # Ann's move mentions Bob
    assert "Direct message" in choose(fake, world.ann, "dm")
    try:
        before = len(fake.direct_messages(world.ann))
        move = pick_move(table.game, table.rng)
        answer = fake.slash(world.bob, channel, "jarmo move", move=move).wait_answer()
        assert answer.message is not None and answer.message.pinged == frozenset()

        fake.wait_until(
            lambda: len(fake.direct_messages(world.ann)) > before, DELIVERED_S, "the DM ping"
        )
        fake.wait_idle()
        [direct] = fake.direct_messages(world.ann)[before:]
        assert (
            "It is your move in **Jarmo Club** against **Bob**" in direct.embeds[0]["description"]
        )
    finally:
        choose(fake, world.ann, "mention")


def test_closed_dms_fall_back_to_a_mention_and_the_player_is_told_once(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    choose(fake, world.bob, "dm")
    fake.close_dms(world.bob)
    channel = world.channel("arena-3")

    board = first_move(fake, channel, world.ann, world.bob)

    assert board.pinged == frozenset()

    def mentioned() -> list[Message]:
        later = [m for m in fake.channel_messages(channel) if m.id > board.id]
        return [m for m in later if m.pinged == {world.bob.id}]

    fake.wait_until(mentioned, DELIVERED_S, "the mention instead of the DM")
    fake.wait_idle()
    [instead] = mentioned()
    assert instead.content == f"{world.bob.mention}, your move."
    assert fake.direct_messages(world.bob) == []

    told = fake.slash(world.bob, channel, "jarmo board", private=True)
    [notice] = told.wait_followups(1)
    assert notice.ephemeral and DM_REFUSED in notice.content
    again = fake.slash(world.bob, channel, "jarmo board", private=True)
    again.wait_answer()
    fake.wait_idle()
    assert again.followups == []  # once
    fake.closed_dms.discard(world.bob.id)
    choose(fake, world.bob, "mention")


def test_a_dm_ping_to_a_player_who_left_is_dropped_and_never_retried(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    choose(fake, world.eve, "dm")
    channel = world.channel("arena-4")
    Table.start(fake, channel, world.cat, world.eve)
    world.departed.add(world.eve.id)
    try:
        move = pick_move(Game.new(), random.Random(3))
        answer = fake.slash(world.cat, channel, "jarmo move", move=move).wait_answer()
        assert answer.message is not None and answer.message.pinged == frozenset()
        fake.wait_until(
            lambda: "dropped announcement turn_ping:" in bot.log_text(),
            DELIVERED_S,
            "the DM ping to be dropped",
        )
        fake.wait_idle()
        dm_channel = fake.direct_channels[world.eve.id]
        tries = [
            r
            for r in fake.requests
            if r.method == "POST" and r.path == f"/channels/{dm_channel}/messages"
        ]
        assert len(tries) == 1  # settled as undeliverable: never tried again
        assert fake.direct_messages(world.eve) == []
        later = [m for m in fake.channel_messages(channel) if m.id > answer.message.id]
        assert all(world.eve.id not in m.pinged for m in later)  # nobody to mention either
    finally:
        world.departed.discard(world.eve.id)
    choose(fake, world.eve, "mention")
