"""End to end in Esperanto: Discord has no Esperanto locale, so a server chooses it with
``/jarmo server language``. Every public post then speaks Esperanto (the challenge, the thread
and its name, the boards and the words drawn in their images, the result, the rematch, the
abort), while each member's private answers stay in their own Discord language (English here).

One bot process serves the module (fresh database), with its own fake Discord.
"""

from __future__ import annotations

import pytest

from bot.jarmo import Game
from bot.render import render_board
from bot.words import image_words, shared_catalogue
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS, Message, Thread, User

MANAGE_GUILD = 1 << 5


@pytest.fixture(scope="module", autouse=True)
def esperanto_server(fake: FakeDiscord) -> None:
    """The bot may open threads; Cat may manage the server (and, as everywhere, its channels)."""
    world = fake.world
    world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    usual = world.permissions

    def widened(who: User) -> int:
        return usual(who) | (MANAGE_GUILD if who is world.cat else 0)

    world.permissions = widened  # type: ignore[method-assign, assignment]  # for these tests


def drawn_in_esperanto(moves: list[str]) -> bytes:
    """The board after ``moves``, as Ann (White) and Bob see it, its words in Esperanto."""
    game = Game.new()
    for move in moves:
        game.play(move)
    words = image_words(shared_catalogue("eo"))
    return render_board(game, players=("Ann", "Bob"), words=words)


def first_post(fake: FakeDiscord, thread: Thread) -> Message:
    fake.wait_until(lambda: fake.channel_messages(thread), 20, "the first board in the thread")
    return fake.channel_messages(thread)[0]


def test_a_match_in_esperanto(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, bob, cat = world.ann, world.bob, world.cat
    here = world.channel("arena-1")

    # Cat chooses Esperanto; she is answered privately, in her own English.
    chosen = fake.slash(cat, here, "jarmo server language", language="eo").wait_answer()
    check_private(chosen, "Language of public posts: Esperanto.")

    # Ann challenges Bob: the challenge and its buttons are in Esperanto.
    answer = fake.slash(ann, here, "jarmo challenge", opponent=bob, side="white").wait_answer()
    assert answer.type == 4 and answer.message is not None and not answer.ephemeral
    challenge = answer.message
    assert challenge.content.startswith(
        f"{ann.mention} defias {bob.mention} al partio de Jarmo "
        "(regularo classic, publikigita tabulo; "
        f"{ann.mention} unue ludas Blanko). La defio eksvalidiĝas <t:"
    )
    assert [button["label"] for button in challenge.buttons] == ["Akcepti", "Rifuzi", "Retiri"]

    # Bob accepts: the match moves into a thread named in Esperanto.
    accepted = fake.press(bob, challenge, "Akcepti").wait_answer()
    [thread] = fake.wait_threads(here, 1)
    assert f"**Akceptita.** La matĉo estas ludata en <#{thread.id}>." in accepted.content
    assert thread.name == "Ann kontraŭ Bob · classic"
    start = first_post(fake, thread)
    assert start.content.startswith(
        f"{ann.mention} kaj {bob.mention}: via matĉo estas ludata en ĉi tiu fadeno."
    )
    embed = check_board_embed(start)
    assert embed["title"] == "Partio 1 el 1 · classic / publikigita tabulo"
    assert f"Movo 1: {ann.mention} estas je la movo (Blanko)." in embed["description"]
    assert start.attachment("board.png").data == drawn_in_esperanto([])
    assert drawn_in_esperanto([]) != render_board(Game.new(), players=("Ann", "Bob"))
    assert [button["label"] for button in start.buttons] == ["Movi"]

    # Bob, whose Discord is in English, tries to move first: told privately, in English.
    early = fake.slash(bob, thread, "jarmo move", move="A5-C4").wait_answer()
    check_private(early, "It is Ann's turn (White)")

    # Ann moves: the board and the words drawn in it are Esperanto.
    moved = fake.slash(ann, thread, "jarmo move", move="A1-C2").wait_answer()
    assert moved.message is not None and not moved.ephemeral
    text = check_board_embed(moved.message)["description"]
    assert text.startswith(f"{ann.mention} ludis **A1-C2**.")
    assert f"Movo 2: {bob.mention} estas je la movo (Nigro)." in text
    assert moved.message.content == f"{bob.mention}, via movo."
    picture = moved.message.attachment("board.png").data
    assert picture == drawn_in_esperanto(["A1-C2"])

    # Bob resigns: the confirmation is his (English); the result is public, in Esperanto.
    prompt = fake.slash(bob, thread, "jarmo resign").wait_answer()
    assert prompt.message is not None and prompt.ephemeral
    assert prompt.message.content.startswith("Resign?")
    confirmed = fake.press(bob, prompt.message, "Yes, resign the match")
    [report] = confirmed.wait_followups(1)
    assert not report.ephemeral and report.channel_id == thread.id
    ending = report.embeds[0]["description"]
    assert f"{bob.mention} rezignis." in ending
    assert f"{ann.mention} venkas en la matĉo (pro rezigno)!" in ending
    assert [button["label"] for button in report.buttons] == ["Revanĉo", "Analizo"]

    # Ann asks for a rematch: offered in Esperanto, sides swapped, in the same thread.
    offer = fake.press(ann, report, "Revanĉo").wait_answer()
    assert offer.message is not None and not offer.ephemeral
    assert offer.message.channel_id == thread.id
    assert offer.message.content.startswith(f"{ann.mention} defias {bob.mention}")
    assert f"{ann.mention} unue ludas Nigro" in offer.message.content
    press = fake.press(bob, offer.message, "Akcepti")
    assert "**Akceptita.** Ek al la ludo!" in press.wait_answer().content
    [board] = press.wait_followups(1)
    assert board.content == f"{bob.mention}, via movo."

    # Cat aborts the rematch: said in Esperanto, and the thread's name says so too.
    aborted = fake.slash(cat, thread, "jarmo abort").wait_answer()
    assert aborted.message is not None and not aborted.ephemeral
    assert aborted.message.content == f"Partio nuligita de {cat.mention}."
    assert [b["label"] for b in aborted.message.buttons] == ["Revanĉo"]
    fake.wait_until(lambda: "—" in thread.name, 20, "the aborted match's thread renamed")
    assert thread.name == "Bob kontraŭ Ann · classic — nuligita"
