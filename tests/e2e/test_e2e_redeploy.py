"""End to end: ``/jarmo redeploy`` brings a lost piece back, offered by the ``point``
autocomplete only when and where the rules allow it."""

from __future__ import annotations

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import User

# White reaches Black's camp (A5) and Black then takes a white piece: White may redeploy it
# on A1, the only empty point of its camp.
LINE = ["A1-B3", "B5-A3", "B3xA5", "A3xB1"]


def points_offered(fake: FakeDiscord, table: Table, user: User, typed: str) -> list[str]:
    answer = fake.autocomplete(
        user, table.channel, "jarmo redeploy", "point", point=typed
    ).wait_answer()
    assert answer.type == 8, answer
    names = [choice["name"] for choice in answer.choices]
    assert names == [choice["value"] for choice in answer.choices]
    return names


def test_a_lost_piece_is_redeployed_on_an_offered_point(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    table = Table.start(fake, world.channel("arena-1"), ann, bob)
    for move in LINE[:2]:
        table.play(move, autocomplete=False)
    assert points_offered(fake, table, ann, "") == []  # nothing lost yet
    for move in LINE[2:]:
        table.play(move, autocomplete=False)
    assert table.game.can_redeploy()

    for typed in ("", "a", "@", "A1"):
        assert points_offered(fake, table, ann, typed) == ["A1"], typed
    assert points_offered(fake, table, ann, "b") == []
    assert points_offered(fake, table, bob, "") == []  # not his turn
    assert points_offered(fake, table, world.cat, "") == []  # not playing

    check_private(
        fake.slash(bob, table.channel, "jarmo redeploy", point="A5").wait_answer(), "Ann's turn"
    )
    check_private(
        fake.slash(ann, table.channel, "jarmo redeploy", point="C1").wait_answer(),
        "C1 is not empty",
    )

    answer = fake.slash(ann, table.channel, "jarmo redeploy", point="a1").wait_answer()
    assert answer.type == 4 and not answer.ephemeral
    table.game.play("@A1")
    assert answer.message is not None
    embed = check_board_embed(answer.message)
    assert embed["description"].startswith(f"{ann.mention} played **@A1**.")
    table.check_board(answer.message)  # points, Bob's turn and his ping
    table.play()  # and the game goes on
