"""End to end: ``/jarmo tournament pairings`` and ``/jarmo tournament leave`` — who meets whom
and where, a player leaving during sign-up and after the start (their match forfeited), and a
moderator withdrawing someone else."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_private, manager
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS, Channel, Message, User

PAIRING = re.compile(r"^<@(\d+)> vs <@(\d+)> in <#(\d+)>(.*)$", re.M)


@pytest.fixture(autouse=True)
def threads_allowed(fake: FakeDiscord) -> Iterator[None]:
    fake.world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    yield


def create(fake: FakeDiscord, here: Channel, players: list[User]) -> Message:
    """Ann opens a round robin in ``here`` and ``players`` join; returns the sign-up message."""
    world = fake.world
    with manager(fake, world.ann):
        signup = fake.slash(
            world.ann, here, "jarmo tournament create", name="Club cup", format="round-robin"
        ).wait_answer()
    assert signup.message is not None
    for player in players:
        assert fake.press(player, signup.message, "Join").wait_answer().type == 7
    return signup.message


def start(fake: FakeDiscord, here: Channel) -> None:
    """Ann starts it; returns once round 1 is posted and every match's thread is up."""
    world = fake.world
    with manager(fake, world.ann):
        started = fake.slash(world.ann, here, "jarmo tournament start")
        started.wait_answer()
        [done] = started.wait_followups(1)
    assert done.ephemeral and "round 1 is paired" in done.content
    fake.wait_until(
        lambda: any("**Round 1 of Club cup**" in m.content for m in fake.channel_messages(here)),
        20,
        "round 1's post",
    )
    fake.wait_idle()


def leave(fake: FakeDiscord, here: Channel, user: User, **options: Any) -> Message:
    """``/jarmo tournament leave``: a private, deferred answer; returns its follow-up."""
    asked = fake.slash(user, here, "jarmo tournament leave", **options)
    answer = asked.wait_answer()
    assert answer.type == 5 and answer.ephemeral
    [said] = asked.wait_followups(1)
    assert said.ephemeral and said.pinged == frozenset()
    return said


def pairings(fake: FakeDiscord, here: Channel, user: User, **options: Any) -> Message:
    answer = fake.slash(user, here, "jarmo tournament pairings", **options).wait_answer()
    assert answer.type == 4 and answer.message is not None
    return answer.message


def test_pairings_name_each_match_and_its_thread(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-1")
    players = [world.ann, world.bob, world.cat, world.eve]
    create(fake, here, players)
    check_private(
        fake.slash(world.bob, here, "jarmo tournament pairings").wait_answer(), "not under way"
    )
    start(fake, here)

    shown = pairings(fake, here, world.cat)
    assert not shown.ephemeral and shown.pinged == frozenset()  # names, pings nobody
    assert shown.content.startswith("**Round 1 of Club cup**\n")
    found = PAIRING.findall(shown.content)
    assert len(found) == 2
    assert {int(user) for first, second, _, _ in found for user in (first, second)} == {
        p.id for p in players
    }
    threads = {thread.id for thread in fake.threads_of(here)}
    assert {int(thread) for _, _, thread, _ in found} == threads
    assert all(result == "" for *_, result in found)  # nothing decided yet
    assert pairings(fake, here, world.bob, round=1).content == shown.content
    check_private(
        fake.slash(world.bob, here, "jarmo tournament pairings", round=3).wait_answer(),
        "Round 3 has not been paired; the tournament is in round 1.",
    )


def test_leaving_during_sign_up_and_after_the_start(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-2")
    signup = create(fake, here, [world.ann, world.bob, world.cat, world.eve])
    said = leave(fake, here, world.eve)
    assert said.content == f"{world.eve.mention} has left Club cup."
    fake.wait_until(
        lambda: "3 players signed up" in fake.message(signup.id).content, 20, "sign-up refreshed"
    )
    assert world.eve.mention not in fake.message(signup.id).content
    fake.press(world.eve, signup, "Join").wait_answer()
    start(fake, here)

    # Only a moderator withdraws someone else; Bob may not, Eve is still in.
    refused = leave(fake, here, world.bob, player=world.eve)
    assert "Only members who can manage this server" in refused.content
    [(first, second, thread_id, _)] = [
        row for row in PAIRING.findall(pairings(fake, here, world.ann).content)
        if str(world.eve.id) in row[:2]
    ]  # fmt: skip
    opponent = world.user(int(first if int(second) == world.eve.id else second))
    assert opponent is not None

    said = leave(fake, here, world.eve)
    assert said.content == f"{world.eve.mention} has left Club cup."
    # Her match is forfeited to her opponent; the other match goes on.
    after = PAIRING.findall(pairings(fake, here, world.cat).content)
    results = {int(thread): result for _, _, thread, result in after}
    assert results[int(thread_id)] == f" — {opponent.mention} wins by forfeit"
    assert sorted(results.values()) == ["", f" — {opponent.mention} wins by forfeit"]
    thread = world.threads[int(thread_id)]
    fake.wait_until(lambda: thread.name.endswith(f"{opponent.display_name} won"), 20, "renamed")
    check_private(fake.slash(opponent, thread, "jarmo board").wait_answer(), "no game")
    # Leaving twice is refused, privately.
    again = leave(fake, here, world.eve)
    assert "not (or no longer) in this channel's tournament" in again.content


def test_a_moderator_withdraws_another_player(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-3")
    create(fake, here, [world.ann, world.bob, world.cat, world.eve])
    start(fake, here)
    with manager(fake, world.ann):
        said = leave(fake, here, world.ann, player=world.cat)
    assert said.content == f"{world.cat.mention} has left Club cup."
    shown = pairings(fake, here, world.bob).content
    assert shown.count("wins by forfeit") == 1
    [(first, second, _, result)] = [
        row for row in PAIRING.findall(shown) if str(world.cat.id) in row[:2]
    ]
    winner = first if int(second) == world.cat.id else second
    assert result == f" — <@{winner}> wins by forfeit"
