"""End to end: standings over time — ``/jarmo leaderboard`` and its page buttons,
``/jarmo stats``, and a game picked in ``/jarmo history`` (its move list and replay GIF).

Twelve members each play one rated match first (eight more people join the fake server for
it), so that the leaderboard has two pages of ten."""

from __future__ import annotations

import io
import re

import pytest
from PIL import GifImagePlugin, Image

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_png
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Message, User

# Ann and Bob's game: steps on lines both boards share; then Bob resigns.
ANN_V_BOB = ["A1-C2", "A5-C4", "C2-E3"]
RANK = re.compile(r"(?:^|You: )`#(\d+)` <@(\d+)> ", re.M)


@pytest.fixture(scope="module")
def club(fake: FakeDiscord, bot: BotProcess) -> list[User]:
    """Twelve members, each pair having played one match that the second player resigned:
    the first of each pair (Ann, Cat, Player 1, 3, 5, 7) won."""
    world = fake.world
    newcomers = [User(fake.ids(), f"player{n}", f"Player {n}") for n in range(1, 9)]
    world.people = (*world.people, *newcomers)
    members = [world.ann, world.bob, world.cat, world.eve, *newcomers]
    here = world.channel("arena-1")
    for white, black in zip(members[::2], members[1::2], strict=True):
        accept(fake, challenge(fake, here, white, black, side="white"), black)
        moves = ANN_V_BOB if white is world.ann else ["A1-C2"]
        for number, move in enumerate(moves):
            mover = white if number % 2 == 0 else black
            fake.slash(mover, here, "jarmo move", move=move).wait_answer()
        prompt = fake.slash(black, here, "jarmo resign").wait_answer()
        assert prompt.message is not None
        fake.press(black, prompt.message, "Yes, resign the match").wait_followups(1)
    return members


def ranked(message: Message) -> list[tuple[int, int]]:
    """(rank, user id) of the leaderboard's rows, the viewer's own line included."""
    return [(int(rank), int(user)) for rank, user in RANK.findall(message.embeds[0]["description"])]


def page_buttons(message: Message) -> list[tuple[str, bool]]:
    return [(button["label"], bool(button.get("disabled"))) for button in message.buttons]


def test_leaderboard_pages_turn_in_place_for_the_asker(
    fake: FakeDiscord, bot: BotProcess, club: list[User]
) -> None:
    world = fake.world
    winners, losers = club[::2], club[1::2]
    asked = fake.slash(world.ann, world.channel("arena-2"), "jarmo leaderboard").wait_answer()
    assert asked.type == 4 and not asked.ephemeral
    board = asked.message
    assert board is not None
    assert board.embeds[0]["title"] == "Leaderboard · classic"
    assert board.pinged == frozenset()  # a list of mentions that notifies nobody
    first = ranked(board)
    assert [rank for rank, _ in first] == list(range(1, 11))
    assert {user for _, user in first[:6]} == {member.id for member in winners}
    assert "Page 1 of 2 · 12 rated players" in board.embeds[0]["description"]
    assert page_buttons(board) == [("◀ Previous", True), ("Next ▶", False)]

    turned = fake.press(world.ann, board, "Next ▶").wait_answer()
    assert turned.message is not None
    assert turned.type == 7 and turned.message.id == board.id  # the same message, edited
    second = ranked(turned.message)
    assert [rank for rank, _ in second] == [11, 12, 1]  # Ann's own row follows the page
    assert second[-1][1] == world.ann.id
    assert {user for _, user in second[:2]} <= {member.id for member in losers}
    assert {user for _, user in first + second[:2]} == {member.id for member in club}
    assert "Page 2 of 2" in turned.embeds[0]["description"]
    assert page_buttons(turned.message) == [("◀ Previous", False), ("Next ▶", True)]

    back = fake.press(world.ann, turned.message, "◀ Previous").wait_answer()
    assert back.message is not None
    assert back.type == 7 and ranked(back.message) == first


def test_someone_else_turning_the_page_gets_a_private_copy(
    fake: FakeDiscord, bot: BotProcess, club: list[User]
) -> None:
    world = fake.world
    last = club[-1]
    board = fake.slash(world.bob, world.channel("arena-3"), "jarmo leaderboard").wait_answer()
    assert board.message is not None
    copy = fake.press(last, board.message, "Next ▶").wait_answer()
    assert copy.type == 4 and copy.ephemeral
    assert copy.message is not None
    assert [rank for rank, _ in ranked(copy.message)] == [11, 12]  # they are on this page
    assert page_buttons(copy.message) == [("◀ Previous", False), ("Next ▶", True)]
    # Their copy's buttons are theirs: turning it back edits the copy, not Bob's board.
    back = fake.press(last, copy.message, "◀ Previous").wait_answer()
    assert back.message is not None
    assert back.type == 7 and back.message.id == copy.message.id
    assert ranked(back.message)[-1][1] == last.id  # their own row under page one
    assert fake.message(board.message.id).embeds == board.message.embeds


def test_stats_show_a_players_rating_results_and_chart(
    fake: FakeDiscord, bot: BotProcess, club: list[User]
) -> None:
    world = fake.world
    here = world.channel("arena-4")
    answer = fake.slash(world.cat, here, "jarmo stats", player=world.bob).wait_answer()
    assert answer.type == 4 and not answer.ephemeral
    message = answer.message
    assert message is not None
    assert message.pinged == frozenset()
    embed = message.embeds[0]
    assert embed["title"] == "Bob · Jarmo stats"
    text = embed["description"]
    # Equal ratings rank by user id: Bob is the first of the six who lost.
    assert "classic: **963?** (#7 of 12) · 1 rated game · 0W 0D 1L" in text
    assert "**As Black** (Blue in ludos): 1 game · 0W 0D 1L" in text
    assert "**Matches**: 1 played · 0 won · 1 lost" in text
    # The head-to-head line is the viewer's: Cat never met Bob.
    assert f"**Against {world.cat.mention}**: no games yet" in text
    assert embed["image"]["url"] == "attachment://rating.png"
    chart = message.attachment("rating.png")
    check_png(chart.data)
    assert chart.description is not None
    assert chart.description.startswith("Bob's classic rating over 1 game, from 1000 to ")

    head_to_head = fake.slash(world.ann, here, "jarmo stats", player=world.bob).wait_answer()
    assert (
        f"**Against {world.ann.mention}**: 1 game · 0W 0D 1L"
        in head_to_head.embeds[0]["description"]
    )
    mine = fake.slash(world.ann, here, "jarmo stats").wait_answer().message  # default: yours
    assert mine is not None
    assert mine.embeds[0]["title"] == "Ann · Jarmo stats"
    assert (
        "classic: **1069?** (#1 of 12) · 1 rated game · 1W 0D 0L" in mine.embeds[0]["description"]
    )


def test_a_game_picked_in_the_history_comes_with_its_move_list_and_replay(
    fake: FakeDiscord, bot: BotProcess, club: list[User]
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    listed = fake.slash(bob, world.channel("arena-5"), "jarmo history", player=ann).wait_answer()
    assert listed.type == 4 and not listed.ephemeral
    history = listed.message
    assert history is not None
    assert history.embeds[0]["title"] == "Ann's latest games"
    assert f"v {bob.mention} · classic · **Won** 5–5 · resigned" in history.embeds[0]["description"]
    picked = fake.pick(bob, history, "1. Won 5–5 v Bob")  # anyone may look
    deferred = picked.wait_answer()
    assert deferred.type == 5 and deferred.ephemeral  # a replay may take a while to draw
    [reply] = picked.wait_followups(1)
    assert reply.ephemeral and reply.pinged == frozenset()
    assert reply.content == (
        "Game 1: Ann (White) v Bob (Black), 3 moves. The move list and the replay:"
    )
    assert [a.filename for a in reply.attachments] == ["game-1.txt", "game-1.gif"]
    moves = reply.attachment("game-1.txt").data.decode()
    assert "White: Ann\nBlack: Bob\n" in moves
    assert "Result: Ann wins, 5–5 (resignation)" in moves
    assert re.findall(r"^\s*\d+\. \w+ \((?:Ann|Bob)\): (\S+)$", moves, re.M) == ANN_V_BOB
    replay = reply.attachment("game-1.gif")
    assert replay.content_type == "image/gif" and replay.data.startswith(b"GIF89a")
    assert replay.description is not None
    assert replay.description.startswith("Animated replay of game 1, move by move: Ann (White)")
    with Image.open(io.BytesIO(replay.data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames >= len(ANN_V_BOB) + 1  # the start and every move
