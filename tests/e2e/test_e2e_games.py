"""End to end: ``/jarmo games`` lists a player's unfinished games in both of the bot's servers,
privately, ten a page, turned by its asker only; a player without games is told what to do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Message


@pytest.fixture(scope="module")
def fake(e2e_backend: str) -> Iterator[FakeDiscord]:
    """A fake Discord where the bot is in two servers with the same people."""
    server = FakeDiscord().start()
    server.add_guild(shard=0)
    yield server
    server.close()


def lines(message: Message) -> list[str]:
    """The listed games, without the vacation line below them."""
    description: str = message.embeds[0]["description"]
    return [line for line in description.splitlines() if line[:1].isdigit()]


def test_games_across_two_servers_turn_pages_for_their_player_only(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    home, away = fake.worlds
    ann, bob = home.ann, home.bob
    for world in (home, away):
        for number in range(1, 7):  # Ann has White: her move in each
            accept(
                fake, challenge(fake, world.channel(f"arena-{number}"), ann, bob, side="white"), bob
            )

    asked = fake.slash(ann, home.channel("general"), "jarmo games").wait_answer()
    assert asked.type == 4 and asked.ephemeral and asked.message is not None
    first = asked.message
    assert first.embeds[0]["title"] == "Your unfinished games: 12, your move in 12 · page 1 of 2"
    assert len(lines(first)) == 10
    vacation = first.embeds[0]["description"].splitlines()[-1]
    assert vacation.startswith("Vacation left in ") and vacation.endswith(": 14 days of 14 days.")
    assert all("Your move" in line and "against Bob" in line for line in lines(first))
    links = [line.split("(")[-1].rstrip(")") for line in lines(first)]
    assert all(link.startswith("https://discord.com/channels/") for link in links)
    assert [(b["label"], bool(b.get("disabled"))) for b in first.buttons] == [
        ("◀ Previous", True), ("Next ▶", False),
    ]  # fmt: skip

    turned = fake.press(ann, first, "Next ▶").wait_answer()
    assert turned.type == 7 and turned.message is not None and turned.message.id == first.id
    assert len(lines(turned.message)) == 2
    assert lines(turned.message)[0].startswith("11. ")
    back = fake.press(ann, turned.message, "◀ Previous").wait_answer()
    assert back.message is not None and lines(back.message) == lines(first)

    # Discord shows the private list to Ann alone; a click of another user can only replay
    # the button's id, as this one does.
    replayed = fake.press(ann, back.message, "Next ▶", send=False)
    replayed.user = bob
    replayed.payload["member"] = home.member(bob) | {"permissions": str(home.permissions(bob))}
    refused = fake.send(replayed).wait_answer()
    check_private(refused, "someone else's games")
    assert fake.message(first.id).embeds == back.message.embeds

    shown = [line.split("(")[-1].rstrip(")") for line in lines(first) + lines(turned.message)]
    servers = {link.split("/")[4] for link in shown}
    assert servers == {str(home.guild_id), str(away.guild_id)}


def test_a_player_without_games_is_told_how_to_start_one(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    answer = fake.slash(fake.world.cat, fake.world.channel("general"), "jarmo games").wait_answer()
    check_private(answer, "You have no unfinished games", "/jarmo challenge", "Vacation left in")
