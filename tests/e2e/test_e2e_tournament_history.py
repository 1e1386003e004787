"""End to end: a finished tournament stays on show. After a one-round event ends,
``/jarmo history`` lists it with the player's place, picking it in the history's picker sends
its final table (image and text) privately, and ``/jarmo tournament standings`` keeps showing
that table while the channel's next tournament signs up."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_png, manager
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS, Channel, Message, Thread

MATCH = re.compile(r"<@(?P<first>\d+)> vs <@(?P<second>\d+)> in <#(?P<thread>\d+)>")
OVER = "Pond cup is over"


@pytest.fixture(autouse=True)
def threads_allowed(fake: FakeDiscord) -> Iterator[None]:
    fake.world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    yield


def posts_containing(fake: FakeDiscord, channel: Channel | Thread, text: str) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if text in m.content]


def tournament_options(message: Message) -> list[dict[str, Any]]:
    """The history picker's tournament options."""
    select = next(c for row in message.components for c in row["components"] if c["type"] == 3)
    return [o for o in select["options"] if o["value"].startswith("t")]


def play_one_round_event(fake: FakeDiscord, here: Channel) -> tuple[int, int]:
    """Ann, Bob and Cat play a one-round Swiss in ``here``: one match, whose first named
    resigns, and a bye. Returns (winner, loser) of the match once the final table is out."""
    world = fake.world
    with manager(fake, world.ann):
        fake.slash(
            world.ann, here, "jarmo tournament create", name="Pond cup", format="swiss", rounds=1
        ).wait_answer()
        signup = next(m for m in fake.channel_messages(here) if "Pond cup" in m.content)
        for player in (world.ann, world.bob, world.cat):
            fake.press(player, signup, "Join").wait_answer()
        fake.slash(world.ann, here, "jarmo tournament start").wait_followups(1)
    heading = "**Round 1 of Pond cup**"
    fake.wait_until(lambda: posts_containing(fake, here, heading), 20, "round 1")
    [match] = MATCH.finditer(posts_containing(fake, here, heading)[-1].content)
    thread = world.threads[int(match["thread"])]
    fake.wait_until(lambda: fake.channel_messages(thread), 20, "the first board")
    loser = world.user(int(match["first"]))
    assert loser is not None
    prompt = fake.slash(loser, thread, "jarmo resign").wait_answer()
    assert prompt.message is not None
    fake.press(loser, prompt.message, "Yes, resign the match").wait_followups(1)
    fake.wait_until(lambda: posts_containing(fake, here, OVER), 20, "the final table")
    return int(match["second"]), loser.id


def test_history_lists_a_finished_tournament_and_its_picker_sends_the_final_table(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-12")
    winner, _ = play_one_round_event(fake, here)
    [posted] = posts_containing(fake, here, OVER)
    member = world.user(winner)
    assert member is not None

    answer = fake.slash(member, here, "jarmo history").wait_answer()
    history = answer.message
    assert answer.type == 4 and history is not None and not history.ephemeral
    description = history.embeds[0]["description"]
    assert "**Tournaments**" in description and "Pond cup — 1st of 3" in description
    [option] = tournament_options(history)
    assert option["label"] == "T1. Pond cup — 1st of 3"
    assert option["description"].endswith("Swiss · the final table")

    picked = fake.pick(world.cat, history, option["value"])  # anyone may look
    assert picked.wait_answer().type == 5  # drawing the table takes a moment
    [table] = picked.wait_followups(1)
    assert table.ephemeral and OVER in table.content
    assert table.content == posted.content  # the table posted when the event ended
    check_png(table.attachment("standings.png").data)
    assert table.attachment("standings.png").description  # the text for screen readers


def test_standings_show_the_last_final_table_while_the_next_tournament_signs_up(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-12")  # the previous test's tournament has finished here
    if not posts_containing(fake, here, OVER):
        play_one_round_event(fake, here)
    with manager(fake, world.ann):
        fake.slash(
            world.ann, here, "jarmo tournament create", name="Next cup", format="swiss"
        ).wait_answer()

    standings = fake.slash(world.bob, here, "jarmo tournament standings")
    standings.wait_answer()
    [table] = standings.wait_followups(1)

    assert not table.ephemeral and OVER in table.content and "Next cup" not in table.content
    check_png(table.attachment("standings.png").data)
