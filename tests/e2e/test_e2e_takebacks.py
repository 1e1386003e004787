"""End to end: ``/jarmo takeback`` as players meet it: the opponent accepts (the board is
posted again as it was, and the history names the move taken back) or declines, and against
the computer its answer and the player's move go at once."""

from __future__ import annotations

from typing import Any

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Message


def replayed(moves: list[str]) -> Game:
    game = Game.new()
    for move in moves:
        game.play(move)
    return game


def board_png(message: Message) -> bytes:
    return message.attachment("board.png").data


def first_option(message: Message) -> str:
    """The label of the first choice of the message's first select menu."""
    rows: list[dict[str, Any]] = message.components
    return str(rows[0]["components"][0]["options"][0]["label"])


def test_an_accepted_takeback_posts_the_board_as_it_was_and_the_history_names_it(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob, cat = world.ann, world.bob, world.cat
    table = Table.start(fake, world.channel("arena-1"), ann, bob)
    before = table.play("A1-C2").message
    assert before is not None
    table.play("A5-C4")
    asked = fake.slash(bob, table.channel, "jarmo takeback").wait_answer()
    request = asked.message
    assert request is not None and not request.ephemeral and request.pinged == {ann.id}
    assert f"{bob.mention} asks to take back their last move" in request.content
    for outsider in (cat, bob):
        refusal = fake.press(outsider, request, "Accept").wait_answer()
        check_private(refusal, "only the player who was asked")
    accepted = fake.press(ann, request, "Accept")
    answer = accepted.wait_answer()
    assert answer.type == 7 and answer.message is not None and answer.message.components == []
    [board] = accepted.wait_followups(1)
    embed = check_board_embed(board)
    assert f"Taken back at {bob.mention}'s request: A5-C4." in embed["description"]
    assert board_png(board) == board_png(before)  # the same image as before the move
    assert board.content == f"{bob.mention}, your move." and board.pinged == frozenset()
    table.game = replayed(["A1-C2"])
    table.play("A5-B3")  # Bob plays something else

    resigned = fake.slash(ann, table.channel, "jarmo resign").wait_answer()
    assert resigned.message is not None
    confirmed = fake.press(ann, resigned.message, "Yes, resign the match")
    confirmed.wait_answer()
    confirmed.wait_followups(1)
    listed = fake.slash(bob, table.channel, "jarmo history", player=bob).wait_answer()
    assert listed.message is not None
    picked = fake.pick(bob, listed.message, first_option(listed.message))
    picked.wait_answer()
    [reply] = picked.wait_followups(1)
    moves = reply.attachments[0].data.decode()
    assert "  2. Black (Bob): A5-B3" in moves
    assert "2. Black (Bob): A5-C4, taken back (" in moves


def test_a_declined_takeback_leaves_the_game_as_it_is(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    table = Table.start(fake, world.channel("arena-2"), ann, bob)
    check_private(fake.slash(ann, table.channel, "jarmo takeback").wait_answer(), "no move")
    table.play("A1-C2")
    asked = fake.slash(ann, table.channel, "jarmo takeback").wait_answer()
    request = asked.message
    assert request is not None and not request.ephemeral
    again = fake.slash(ann, table.channel, "jarmo takeback").wait_answer()
    check_private(again, "already asked")
    declined = fake.press(bob, request, "Decline").wait_answer()
    assert declined.type == 7 and declined.message is not None
    assert declined.message.components == []
    assert f"{bob.mention} declined: the move stands." in declined.message.content
    table.play("A5-C4")  # the game goes on from the move that stood
    late = fake.slash(ann, table.channel, "jarmo takeback").wait_answer()
    check_private(late, "already answered")


def test_against_the_computer_its_answer_and_the_move_go_at_once(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-3")
    start = fake.slash(
        world.ann, here, "jarmo challenge", opponent=world.bot, side="white", level="easy"
    )
    opening = start.wait_answer().message
    assert opening is not None
    played = fake.slash(world.ann, here, "jarmo move", move="A1-C2")
    played.wait_answer()
    reply = played.wait_followups(1)[0]
    answered = reply.embeds[0]["description"].split("**")[1]
    taken = fake.slash(world.ann, here, "jarmo takeback").wait_answer()
    assert taken.type == 4 and taken.message is not None and not taken.ephemeral
    board = taken.message
    embed = check_board_embed(board)
    assert (
        f"Taken back at {world.ann.mention}'s request: A1-C2, {answered}." in (embed["description"])
    )
    assert board_png(board) == board_png(opening)
    assert board.content == f"{world.ann.mention}, your move."
    # Ann plays again from the start.
    again = fake.slash(world.ann, here, "jarmo move", move="B1-D2")
    assert "played **B1-D2**" in again.wait_answer().embeds[0]["description"]
    again.wait_followups(1)
