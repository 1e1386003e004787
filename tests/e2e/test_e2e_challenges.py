"""End to end: challenges answered (or not) and a two-game match, against the real bot process.

One bot process serves the module (fresh database); each test plays in its own channel.
"""

from __future__ import annotations

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import (
    Table,
    accept,
    backdate_challenge,
    challenge,
    challenge_id,
    check_private,
)
from tests.e2e.fake_discord import FakeDiscord


def test_challenges_the_bot_refuses(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-1")
    myself = fake.slash(world.ann, here, "jarmo challenge", opponent=world.ann).wait_answer()
    check_private(myself, "yourself")
    message = challenge(fake, here, world.ann, world.bob)
    busy = fake.slash(world.cat, here, "jarmo challenge", opponent=world.bob).wait_answer()
    check_private(busy, "already has a pending challenge")
    # Only the challenger may withdraw; then the channel is free.
    check_private(fake.press(world.bob, message, "Withdraw").wait_answer(), "only the challenger")
    withdrawn = fake.press(world.ann, message, "Withdraw").wait_answer()
    assert withdrawn.type == 7 and "**Withdrawn** by Ann." in withdrawn.content
    assert withdrawn.message is not None and withdrawn.message.components == []
    challenge(fake, here, world.cat, world.bob)


def test_a_declined_challenge(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-2")
    message = challenge(fake, here, world.ann, world.bob, side="black")
    assert f"{world.ann.mention} plays Black first" in message.content
    for outsider, button in ((world.cat, "Accept"), (world.cat, "Decline"), (world.ann, "Decline")):
        answer = fake.press(outsider, message, button).wait_answer()
        check_private(answer, "only the challenged player")
    declined = fake.press(world.bob, message, "Decline").wait_answer()
    assert declined.type == 7 and declined.message is not None
    assert declined.message.id == message.id
    assert declined.content.endswith("**Declined** by Bob.")
    assert declined.message.components == []
    assert declined.message.pinged == {world.bob.id}  # edits do not ping again
    # No game came of it.
    check_private(fake.slash(world.ann, here, "jarmo board").wait_answer(), "no game")
    check_private(fake.slash(world.ann, here, "jarmo standings").wait_answer(), "no match")


@pytest.mark.sqlite_only("backdates the challenge in the SQLite file")
def test_an_expired_challenge_cannot_be_accepted(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-3")
    message = challenge(fake, here, world.bob, world.cat)
    backdate_challenge(bot.database, challenge_id(message))
    answer = fake.press(world.cat, message, "Accept").wait_answer()
    check_private(answer, "expired")
    check_private(fake.slash(world.cat, here, "jarmo board").wait_answer(), "no game")
    # The channel is free for a new challenge, which can be accepted.
    fresh = challenge(fake, here, world.bob, world.cat, side="white")
    board = accept(fake, fresh, world.cat)
    assert board.content == f"{world.bob.mention}, your move."
    assert board.pinged == {world.bob.id}


def test_accepting_as_white_names_but_does_not_ping_the_acceptor(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    message = challenge(fake, world.channel("arena-7"), world.ann, world.bob, side="black")
    board = accept(fake, message, world.bob)
    assert board.content == f"{world.bob.mention}, your move."
    assert board.pinged == frozenset()  # Bob has just pressed Accept: he is here already


def test_a_match_of_two_games_swaps_sides_and_ends_with_standings(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    table = Table.start(fake, world.channel("arena-4"), ann, bob, games=2)
    first = table.game
    table.play_to_end()  # also checks the second board: Bob has White now
    assert (table.index, table.white, table.black) == (2, bob, ann)
    midway = fake.slash(world.cat, table.channel, "jarmo standings").wait_answer()
    text = midway.embeds[0]["description"]
    assert "Game 2: " + f"{bob.mention} (White) v {ann.mention} (Black) — in play" in text
    assert f"{bob.mention} to move" in text
    second = table.game
    last = table.play_to_end()
    totals = {
        ann: first.points()["white"] + second.points()["black"],
        bob: first.points()["black"] + second.points()["white"],
    }
    answer = fake.slash(world.cat, table.channel, "jarmo standings").wait_answer()
    assert answer.type == 4 and not answer.ephemeral and answer.message is not None
    assert answer.message.pinged == frozenset()
    [embed] = answer.embeds
    assert embed["title"] == "Match standings"
    text = embed["description"]
    p1, p2 = first.points(), second.points()
    assert f"Game 1: {ann.mention} (White) {p1['white']} – {p1['black']} {bob.mention}" in text
    assert f"Game 2: {bob.mention} (White) {p2['white']} – {p2['black']} {ann.mention}" in text
    assert f"Total: {ann.mention} {totals[ann]} – {totals[bob]} {bob.mention}" in text
    if totals[ann] == totals[bob]:
        assert "The match is drawn." in text
    else:
        winner = max(totals, key=totals.__getitem__)
        assert f"{winner.mention} wins the match!" in text
        assert f"{winner.mention} wins the match!" in last.embeds[0]["description"]


def test_a_player_named_everyone_pings_nobody(fake: FakeDiscord, bot: BotProcess) -> None:
    """Display names end up in message text; allowed_mentions must keep them harmless."""
    world = fake.world
    here = world.channel("arena-5")
    message = challenge(fake, here, world.ann, world.eve)
    declined = fake.press(world.eve, message, "Decline").wait_answer()
    assert declined.content.endswith("**Declined** by @everyone.")
    assert declined.message is not None and declined.message.allowed_mentions is not None
    assert "everyone" not in declined.message.allowed_mentions.get("parse", [])
    table = Table.start(fake, here, world.ann, world.eve)
    table.play()
    answer = fake.slash(world.ann, here, "jarmo move", move="A1-C2").wait_answer()
    check_private(answer, "It is @everyone's turn")
    # The fake fails the test if any message could have pinged @everyone (see conftest).


def test_an_offer_to_stop_then_a_resignation(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    table = Table.start(fake, world.channel("arena-6"), ann, bob, games=2)
    table.play()
    # Ann offers to stop; only Bob may agree, and only before the next move.
    offer = fake.slash(ann, table.channel, "jarmo stop").wait_answer()
    assert offer.message is not None and not offer.ephemeral
    assert offer.message.pinged == {bob.id}
    check_private(fake.press(ann, offer.message, "Agree to stop here").wait_answer(), "only")
    table.play()
    stale = fake.press(bob, offer.message, "Agree to stop here").wait_answer()
    check_private(stale, "moved on")
    offer = fake.slash(ann, table.channel, "jarmo stop").wait_answer()
    assert offer.message is not None
    agreed = fake.press(bob, offer.message, "Agree to stop here")
    answer = agreed.wait_answer()
    assert answer.type == 7 and answer.message is not None and answer.message.components == []
    [report] = agreed.wait_followups(1)
    assert "agreed to stop" in report.embeds[0]["description"]
    assert len(report.embeds) == 2  # game 2 starts with sides swapped: Bob has White
    assert report.content == f"{bob.mention}, your move."
    # Bob resigns game 2 (and with it the match) after confirming privately.
    prompt = fake.slash(bob, table.channel, "jarmo resign").wait_answer()
    assert prompt.message is not None and prompt.ephemeral
    with pytest.raises(AssertionError, match="cannot see"):
        fake.press(ann, prompt.message, "Yes, resign the match")
    confirmed = fake.press(bob, prompt.message, "Yes, resign the match")
    answer = confirmed.wait_answer()
    assert answer.type == 7 and answer.content == "You resigned."
    [report] = confirmed.wait_followups(1)
    assert not report.ephemeral and len(report.embeds) == 1
    text = report.embeds[0]["description"]
    assert f"{bob.mention} resigned." in text and f"{ann.mention} wins the match" in text
    check_private(fake.slash(ann, table.channel, "jarmo board").wait_answer(), "no game")
