"""End to end: Rematch after a match against the computer starts the next one at once, sides
swapped and at the same level, the computer opening it in a follow-up."""

from __future__ import annotations

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_board_embed, check_position, check_private
from tests.e2e.fake_discord import FakeDiscord


def test_a_rematch_against_the_computer_starts_at_once_with_sides_swapped(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, computer = world.ann, world.bot
    here = world.channel("arena-1")
    fake.slash(
        ann, here, "jarmo challenge", opponent=computer, side="white", level="easy"
    ).wait_answer()
    prompt = fake.slash(ann, here, "jarmo resign").wait_answer()
    assert prompt.message is not None
    [ending] = fake.press(ann, prompt.message, "Yes, resign the match").wait_followups(1)
    assert f"{computer.mention} wins the match" in ending.embeds[0]["description"]
    assert {"Rematch", "Review"} <= {button["label"] for button in ending.buttons}

    # Someone who did not play is refused, privately; nothing starts.
    check_private(fake.press(world.bob, ending, "Rematch").wait_answer(), "Only the two players")
    check_private(fake.slash(world.bob, here, "jarmo board").wait_answer(), "no game")

    pressed = fake.press(ann, ending, "Rematch")
    started = pressed.wait_answer()
    assert started.type == 4 and not started.ephemeral  # no challenge to accept
    assert started.message is not None
    embed = check_board_embed(started.message)
    assert embed["title"] == "Game 1 of 1 · classic / published board"
    game = Game.new()
    check_position(embed["description"], game, computer, ann)  # the computer has White now
    assert not started.content and started.message.pinged == frozenset()

    [opening] = pressed.wait_followups(1)  # the computer's first move
    description = check_board_embed(opening)["description"]
    assert description.startswith(f"{computer.mention} played **")
    game.play(description.split("**")[1])
    check_position(description, game, computer, ann)
    assert opening.content == f"{ann.mention}, your move."
    assert opening.pinged == frozenset()  # a game against the computer pings nobody

    # The rematch is a running game: a second click is refused, and Ann plays on.
    check_private(fake.press(ann, ending, "Rematch").wait_answer(), "already has a game")
    move = game.legal_moves()[0]
    played = fake.slash(ann, here, "jarmo move", move=move)
    assert f"played **{move}**" in played.wait_answer().embeds[0]["description"]
    [reply] = played.wait_followups(1)
    assert reply.embeds[0]["description"].startswith(f"{computer.mention} played **")
