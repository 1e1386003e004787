"""End to end: what players pick and type that the bot cannot take as it is — a person who is
not a member of the server, text far longer than any option allows (from a modified client),
and a move typed in full-width characters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.discord_limits import MAX_CONTENT
from tests.e2e.e2e_play import accept, challenge, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import User

TYPED = "9" * 10_000  # far more than a message holds, let alone an option


@pytest.fixture
def departed(fake: FakeDiscord) -> Iterator[User]:
    """Bob, who has just left the server (the client still offers him for a moment)."""
    world = fake.world
    world.departed.add(world.bob.id)
    try:
        yield world.bob
    finally:
        world.departed.discard(world.bob.id)


def test_challenging_someone_who_left_the_server_says_so_privately(
    fake: FakeDiscord, bot: BotProcess, departed: User
) -> None:
    world = fake.world
    here = world.channel("arena-1")
    answer = fake.slash(world.ann, here, "jarmo challenge", opponent=departed).wait_answer()
    check_private(answer, f"{departed.mention} is not a member of this server")
    assert fake.channel_messages(here) == []  # no challenge was posted
    shown = fake.slash(world.ann, here, "jarmo stats", player=departed).wait_answer()
    check_private(shown, f"{departed.mention} is not a member of this server")
    assert "TransformerError" not in bot.log_text()  # no traceback, and no ERROR (the fixture)


@pytest.mark.parametrize(
    ("command", "options", "said"),
    [
        ("jarmo challenge", {"time_per_move": TYPED}, "is not a time per move"),
        ("jarmo challenge", {"ruleset": TYPED}, "Unknown ruleset"),
        ("jarmo leaderboard", {"ruleset": TYPED}, "rating yet"),
    ],
    ids=["time_per_move", "ruleset", "leaderboard"],
)
def test_a_refusal_repeats_only_the_start_of_a_huge_text(
    fake: FakeDiscord, bot: BotProcess, command: str, options: dict[str, Any], said: str
) -> None:
    world = fake.world
    if command == "jarmo challenge":
        options = {"opponent": world.bob, **options}
    asked = fake.slash(world.ann, world.channel("arena-2"), command, unchecked=True, **options)
    answer = asked.wait_answer()
    check_private(answer, said, "9" * 40 + "…")
    assert answer.message is not None and len(answer.message.content) <= MAX_CONTENT
    assert "9" * 41 not in answer.message.content


def test_a_move_in_full_width_characters_is_played(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-3")
    accept(fake, challenge(fake, here, world.ann, world.bob, side="white"), world.bob)
    played = fake.slash(world.ann, here, "jarmo move", move="Ａ１－Ｃ２").wait_answer()
    assert not played.ephemeral and "played **A1-C2**" in played.embeds[0]["description"]
    dashed = fake.slash(world.bob, here, "jarmo move", move="a5 − c4").wait_answer()
    assert not dashed.ephemeral and "played **A5-C4**" in dashed.embeds[0]["description"]
