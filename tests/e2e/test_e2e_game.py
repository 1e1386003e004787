"""End to end: the real bot process (``python -m bot run``) plays Jarmo through a fake Discord.

One bot process serves the whole module (fresh database); each test plays in its own channel.
"""

from __future__ import annotations

import pytest

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.discord_limits import SUB_COMMAND, SUB_COMMAND_GROUP, USER
from tests.e2e.e2e_play import (
    Table,
    accept,
    backdate_challenge,
    board_text,
    challenge,
    challenge_id,
    check_board_embed,
    check_position,
    check_private,
    expected_suggestions,
    suggest,
    wait_challenge_recorded,
)
from tests.e2e.fake_discord import FakeDiscord

SUBCOMMANDS = {
    "challenge", "move", "redeploy", "board", "resign", "stop", "standings", "rules", "abort",
}  # fmt: skip


def test_commands_are_registered_to_the_dev_guild_at_start_up(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    commands = fake.wait_commands(fake.world.guild_id)
    # The payload passed the fake's checks of Discord's limits (any problem fails the test).
    assert [(scope, len(body)) for scope, body in fake.command_puts] == [(fake.world.guild_id, 1)]
    [jarmo] = commands
    assert jarmo["name"] == "jarmo"
    # Installed to servers and to users; usable in servers, the bot's DM, DMs and group DMs.
    assert jarmo.get("integration_types") == [0, 1]
    assert jarmo.get("contexts") == [0, 1, 2]
    assert {o["name"] for o in jarmo["options"]} >= SUBCOMMANDS
    options = {o["name"]: o for o in jarmo["options"]}
    # Every sub-command is one level down, but the groups: the server settings, tournaments
    # and vacation.
    groups = ("server", "tournament", "vacation")
    assert all(o["type"] == SUB_COMMAND for o in jarmo["options"] if o["name"] not in groups)
    assert all(options[name]["type"] == SUB_COMMAND_GROUP for name in groups)
    opponent = options["challenge"]["options"][0]
    # No opponent: a challenge to anyone in the channel.
    assert (opponent["name"], opponent["type"], opponent.get("required")) == (
        "opponent",
        USER,
        False,
    )
    assert options["move"]["options"][0]["autocomplete"] is True
    # Only the non-privileged guilds intent is asked for; a compressed, heartbeating gateway.
    assert fake.intents == [1]
    assert fake.connections[0].compressed
    fake.wait_until(lambda: fake.heartbeats >= 1, 20, "a heartbeat")


def test_bot_finds_the_fake_gateway_through_rest(fake: FakeDiscord, bot: BotProcess) -> None:
    assert fake.requests_to("GET", "/gateway(/bot)?"), "the bot never asked where the gateway is"
    assert fake.connections[0].path == "/gateway"


def test_rules_are_shown_privately_with_the_start_position(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    answer = fake.slash(fake.world.cat, fake.world.channel("general"), "jarmo rules").wait_answer()
    assert answer.type == 4 and answer.ephemeral and answer.message is not None
    check_board_embed(answer.message, filename="start.png")
    assert answer.message.pinged == frozenset()


def test_a_full_classic_game(fake: FakeDiscord, bot: BotProcess) -> None:
    ann, bob = fake.world.ann, fake.world.bob
    table = Table.start(fake, fake.world.channel("arena-1"), ann, bob)
    last = table.play_to_end()  # autocomplete then move, every reply checked
    assert table.game.over and table.game.ply >= 2
    assert (
        "wins the match" in last.embeds[0]["description"]
        or "drawn" in last.embeds[0]["description"]
    )
    # The game is over: nothing to show on the board, the standings keep the result.
    answer = fake.slash(ann, table.channel, "jarmo board").wait_answer()
    check_private(answer, "no game in this channel")
    standings = fake.slash(bob, table.channel, "jarmo standings").wait_answer()
    assert standings.type == 4 and not standings.ephemeral
    points = table.game.points()
    text = standings.embeds[0]["description"]
    assert f"{ann.mention} (White) {points['white']} – {points['black']} {bob.mention}" in text


def test_autocomplete_offers_exactly_the_movers_legal_moves(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-2"), world.ann, world.bob)
    for typed in ("", "a", "A1", "b1 d", "c1-", "e", "zz", "@"):
        choices = suggest(fake, table.channel, world.ann, typed)
        wanted = expected_suggestions(table.game, typed)
        assert len(choices) <= 25
        assert choices == wanted[:25], typed
        assert suggest(fake, table.channel, world.bob, typed) == []
        assert suggest(fake, table.channel, world.cat, typed) == []
    table.play(autocomplete=False)
    # Now it is Bob's turn: he gets his moves, Ann gets none.
    assert set(suggest(fake, table.channel, world.bob, "")) == set(table.game.legal_moves())
    assert suggest(fake, table.channel, world.ann, "") == []
    # In a channel without a game nobody gets suggestions.
    assert suggest(fake, world.channel("general"), world.ann, "") == []


def test_refused_moves_are_private_and_change_nothing(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-3"), world.ann, world.bob)
    table.play()  # Ann (White) moves; now Bob is to move
    before = board_text(fake, table.channel, world.cat)
    check_position(before, table.game, table.white, table.black)
    legal = table.game.legal_moves()[0]
    attempts = [
        (world.cat, legal, "not playing"),  # a stranger
        (world.ann, legal, "turn"),  # not her turn
        (world.bob, "A5-A4", "not played"),  # illegal: no such line
        (world.bob, "Z9-A1", "not played"),  # a point that does not exist
        (world.bob, "hello", "not played"),  # not a move at all
    ]
    for user, text, fragment in attempts:
        answer = fake.slash(user, table.channel, "jarmo move", move=text).wait_answer()
        check_private(answer, fragment)
    redeploy = fake.slash(world.bob, table.channel, "jarmo redeploy", point="Q7").wait_answer()
    check_private(redeploy)
    assert board_text(fake, table.channel, world.cat) == before
    table.play()  # the next legal move still works


def test_two_moves_at_the_same_instant_apply_once(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-4"), world.ann, world.bob)
    for _ in range(3):
        mover, first, second = table.mover, *table.game.legal_moves()[:2]
        racers = [
            fake.slash(mover, table.channel, "jarmo move", move=first, send=False),
            fake.slash(mover, table.channel, "jarmo move", move=second, send=False),
        ]
        fake.send(*racers)
        answers = [r.wait_answer() for r in racers]
        public = [a for a in answers if not a.ephemeral]
        assert len(public) == 1, [a.content for a in answers]
        [refused] = [a for a in answers if a.ephemeral]
        check_private(refused)
        won = first if answers[0] is public[0] else second
        table.game.play(won)
        check_position(public[0].embeds[0]["description"], table.game, table.white, table.black)
        check_position(board_text(fake, table.channel, world.cat), table.game, *table.players)
        # The same move twice (a double submit) also applies once.
        move = table.game.legal_moves()[0]
        twins = [
            fake.slash(table.mover, table.channel, "jarmo move", move=move, send=False)
            for _ in range(2)
        ]
        fake.send(*twins)
        answers = [t.wait_answer() for t in twins]
        assert sorted(a.ephemeral for a in answers) == [False, True]
        table.game.play(move)
        check_position(board_text(fake, table.channel, world.cat), table.game, *table.players)


def test_a_dropped_gateway_connection_is_resumed(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-5"), world.ann, world.bob)
    resumes = fake.resumes
    fake.drop_gateway()
    # Sent while the bot is away: delivered on RESUME, then answered.
    pending = fake.slash(world.cat, table.channel, "jarmo board")
    fake.wait_resumed(resumes + 1)
    assert fake.connections[-1].path == "/gateway/resume"
    answer = pending.wait_answer()
    check_position(answer.embeds[0]["description"], table.game, table.white, table.black)
    table.play()


@pytest.mark.sqlite_only("backdates the challenge in the SQLite file")
def test_restart_mid_game_and_an_expiry_while_down(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-6"), world.ann, world.bob)
    for _ in range(3):
        table.play()
    waiting = challenge(fake, world.channel("arena-7"), world.ann, world.cat, side="white")
    overdue = challenge(fake, world.channel("arena-8"), world.bob, world.cat)
    for message in (waiting, overdue):
        wait_challenge_recorded(bot.database, challenge_id(message))
    fake.wait_idle()

    status, seconds = bot.stop()
    assert status == 0, bot.log_tail()
    assert seconds < 5, f"the bot took {seconds:.1f} s to stop after SIGTERM"
    assert "database closed" in bot.log_text()
    backdate_challenge(bot.database, challenge_id(overdue))
    bot.start()

    # The game goes on where it was, with the same player to move.
    check_position(board_text(fake, table.channel, world.cat), table.game, *table.players)
    table.play()
    table.play()
    # The sweep at start-up marks the overdue challenge expired on its message.
    fake.wait_until(
        lambda: "**Expired**" in fake.message(overdue.id).content,
        20,
        "the expired challenge's message to be edited",
    )
    expired = fake.message(overdue.id)
    assert expired.components == [] and expired.edited
    assert fake.requests_to("PATCH", rf"/channels/{overdue.channel_id}/messages/{overdue.id}")
    # Buttons made before the restart still work.
    board = accept(fake, waiting, world.cat)
    game = Game.new()
    check_position(board.embeds[0]["description"], game, world.ann, world.cat)
