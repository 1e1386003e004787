"""End to end: a game against the computer — the bot itself is the opponent and answers each
move with a follow-up, its search running in a separate process."""

from __future__ import annotations

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord


def test_playing_the_computer(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-9")
    start = fake.slash(
        world.ann, here, "jarmo challenge", opponent=world.bot, side="white", level="easy"
    )
    opening = start.wait_answer()
    assert opening.type == 4 and not opening.ephemeral
    assert opening.message is not None
    check_board_embed(opening.message)
    assert opening.message.content.startswith(f"{world.ann.mention}, your move.")
    assert opening.message.pinged == frozenset()  # Ann moves first, but she just asked
    game = Game.new()
    for _ in range(3):
        move = game.legal_moves()[0]
        played = fake.slash(world.ann, here, "jarmo move", move=move)
        answer = played.wait_answer()
        assert f"played **{move}**" in answer.embeds[0]["description"]
        assert answer.message is not None
        assert not answer.message.content  # the computer is to move: no "your move" to it
        game.play(move)
        reply = played.wait_followups(1)[0]
        check_board_embed(reply)
        description = reply.embeds[0]["description"]
        assert description.startswith(f"{world.bot.mention} played **")
        game.play(description.split("**")[1])
        assert reply.pinged == frozenset()  # the computer answers while Ann is looking
    asked = fake.slash(world.ann, here, "jarmo hint")
    deferred = asked.wait_answer()  # the search may queue: the bot defers, privately
    assert deferred.type == 5 and deferred.ephemeral
    hint = asked.wait_followups(1)[0]
    assert hint.ephemeral and hint.content.split("**")[1] in game.legal_moves()
    check_private(fake.slash(world.ann, here, "jarmo stop").wait_answer(), "resign")


def test_other_channels_are_answered_while_the_computer_thinks(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here, elsewhere = world.channel("arena-10"), world.channel("arena-11")
    fake.slash(
        world.bob, here, "jarmo challenge", opponent=world.bot, side="white", level="hard"
    ).wait_answer()
    played = fake.slash(world.bob, here, "jarmo move", move="A1-C2")
    played.wait_answer()
    # The hard level thinks for about two seconds, in another process.
    meanwhile = fake.slash(world.cat, elsewhere, "jarmo rules").wait_answer()
    assert not played.followups, "the computer answered before the other channel was served"
    assert meanwhile.elapsed < 1.0
    played.wait_followups(1)


def test_a_reply_in_progress_is_still_sent_when_the_bot_stops(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-12")
    fake.slash(
        world.eve, here, "jarmo challenge", opponent=world.bot, side="white", level="hard"
    ).wait_answer()
    played = fake.slash(world.eve, here, "jarmo move", move="B1-D2")
    played.wait_answer()
    status, _ = bot.stop()  # SIGTERM while the computer is still thinking (about 2 s)
    assert status == 0
    assert len(played.followups) == 1, "the computer's reply was cut off by the shutdown"
    bot.start()


def test_the_start_is_answered_at_once_when_the_computer_opens(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-1")
    start = fake.slash(
        world.cat, here, "jarmo challenge", opponent=world.bot, side="black", level="hard"
    )
    answer = start.wait_answer()  # the fake fails the test if this took 3 s or more
    assert answer.message is not None
    check_board_embed(answer.message)
    assert not answer.message.content  # the bot never writes "your move" to itself
    opening = start.wait_followups(1)[0]  # hard thinks about 2 s for its first move
    assert opening.embeds[0]["description"].startswith(f"{world.bot.mention} played **")
    assert opening.pinged == frozenset()  # a game against the computer pings nobody
