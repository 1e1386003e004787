"""End to end: open challenges, which anyone in the channel may accept, against the real bot
process: two players racing for one, one limited by its rating range, and the challenger's own
click.

One bot process serves the module (fresh database); each test plays in its own channel.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Channel, Message, User


def open_challenge(
    fake: FakeDiscord, channel: Channel, challenger: User, **options: Any
) -> Message:
    """``/jarmo challenge`` with no opponent; checks the public announcement and returns it."""
    answer = fake.slash(challenger, channel, "jarmo challenge", **options).wait_answer()
    assert answer.type == 4 and answer.message is not None, answer
    message = answer.message
    assert not message.ephemeral
    assert message.content.startswith(f"{challenger.mention} challenges anyone")
    assert message.pinged == frozenset()  # nobody in particular is asked
    assert [b["label"] for b in message.buttons] == ["Accept", "Withdraw"]
    return message


def test_two_players_race_for_an_open_challenge_and_one_gets_the_game(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-1")
    message = open_challenge(fake, here, world.ann)
    # Both click before either is answered.
    presses = {user: fake.press(user, message, "Accept") for user in (world.bob, world.cat)}
    answers = {user: press.wait_answer() for user, press in presses.items()}
    [winner] = [user for user, answer in answers.items() if answer.type == 7]
    [loser] = [user for user in answers if user is not winner]
    won = answers[winner]
    assert won.message is not None and won.message.id == message.id
    assert "**Accepted.**" in won.message.content and won.message.components == []
    assert won.message.content.startswith(f"{world.ann.mention} challenges {winner.mention}")
    check_private(answers[loser], "already accepted")
    [board] = presses[winner].wait_followups(1)
    assert board.channel_id == here.id
    # The game is the winner's and the challenger's: the loser plays no part in it.
    check_private(fake.slash(loser, here, "jarmo resign").wait_answer(), "not playing")
    shown = fake.slash(winner, here, "jarmo board").wait_answer()
    assert shown.type == 4 and shown.message is not None and shown.message.attachments


def test_an_open_challenge_refuses_a_player_outside_its_rating_range(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-2")
    for typed in ("abc", "1300-1000", "-5-20"):
        refused = fake.slash(world.ann, here, "jarmo challenge", rating_range=typed).wait_answer()
        check_private(refused, f"'{typed}' is not a rating range", "1000-1300")
    message = open_challenge(fake, here, world.ann, rating_range="1100-1300")
    assert "challenges anyone rated 1100-1300" in message.content
    # Bob has played no rated game: he counts at the starting rating, 1000.
    answer = fake.press(world.bob, message, "Accept").wait_answer()
    check_private(answer, "rated 1100-1300", "your rating here is 1000")
    # Nothing changed: the challenge still stands and still holds the channel.
    current = fake.messages[message.id]
    assert [b["label"] for b in current.buttons] == ["Accept", "Withdraw"]
    busy = fake.slash(world.cat, here, "jarmo challenge").wait_answer()
    check_private(busy, "already has a pending challenge")
    withdrawn = fake.press(world.ann, message, "Withdraw").wait_answer()
    assert withdrawn.type == 7 and "**Withdrawn** by Ann." in withdrawn.content


def test_the_challenger_cannot_accept_their_own_open_challenge(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-3")
    message = open_challenge(fake, here, world.ann, rating_range="900-1100")
    own = fake.press(world.ann, message, "Accept").wait_answer()
    check_private(own, "your own challenge")
    check_private(fake.slash(world.ann, here, "jarmo board").wait_answer(), "no game")
    # Anyone else in range may still take it.
    press = fake.press(world.cat, message, "Accept")
    answer = press.wait_answer()
    assert answer.type == 7 and answer.message is not None
    assert "**Accepted.**" in answer.message.content
    [board] = press.wait_followups(1)
    assert board.channel_id == here.id
