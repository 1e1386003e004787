"""End to end: Jarmo where the bot is no member, through users' installs of the app (a group
DM, a DM, a server without the bot). There the bot only answers interactions: the fake fails any
test in which it posts by itself, follows up more than five times or uses an expired token. A
button copied into another chat reaches nothing.

One bot process serves the module (fresh database)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, accept, challenge, check_board_embed, check_private, pick_move
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import COMPONENTS_V2, Message, User
from tests.e2e.grid_clicks import clicks_for

pytestmark = pytest.mark.sqlite_only("reads and backdates rows in the SQLite file")


@pytest.fixture(scope="module")
def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    """The bot with its commands published globally, as users' installs need them (a test
    server's own commands are offered in that server only)."""
    process = BotProcess(fake, tmp_path_factory.mktemp("bot"), dev_guild=False)
    process.start()
    fake.wait_commands(None)
    yield process
    fake.wait_idle()
    status, _ = process.stop()
    assert status == 0, process.log_tail()


CLAIM = "Claim win on time"


def rows(database: Path, query: str, *parameters: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as db:
        return list(db.execute(query, parameters).fetchall())


def play_in_place(fake: FakeDiscord, board: Message, user: User, game: Game, move: str) -> None:
    """``user`` presses **Move** on the public board, then the points of ``move``: every click
    edits that one message, which ends as the board after the move."""
    opened = fake.press(user, board, "Move").wait_answer()
    assert opened.type == 7 and opened.message is not None and opened.message.id == board.id
    for label in clicks_for(game, move):
        current = fake.message(board.id)
        assert current.flags & COMPONENTS_V2 and not current.ephemeral
        clicked = fake.press(user, current, label).wait_answer()
        assert clicked.type == 7, clicked


def card_text(message: Message) -> str:
    """All the text a Components V2 board shows."""
    return "\n".join(message.texts())


def test_a_whole_game_in_a_group_dm_where_one_player_never_installed_the_app(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob, cat = world.ann, world.bob, world.cat
    fake.install_for(ann)  # Bob never did: he plays by buttons only
    chat = fake.group_dm(ann, bob, cat)
    with pytest.raises(AssertionError, match="never installed"):
        fake.slash(bob, chat, "jarmo board", send=False)
    table = Table.start(fake, chat, ann, bob)  # Ann challenges, Bob presses Accept
    played = table.play(autocomplete=False)  # Ann types her move: its board is the answer
    board = played.message
    assert board is not None
    posted = len(fake.channel_messages(chat))

    # Bob clicks his move on Ann's board: the board is edited in place, nothing is posted.
    move = pick_move(table.game, table.rng)
    play_in_place(fake, board, bob, table.game, move)
    table.game.play(move)
    after = fake.message(board.id)
    assert f"{bob.mention} played **" in card_text(after)
    assert f"{ann.mention}, your move." in card_text(after)
    assert len(fake.channel_messages(chat)) == posted

    # Ann types a move: a new board, so the edited one is out of date for its Move button.
    table.play(autocomplete=False)
    stale = fake.press(bob, fake.message(board.id), "Move").wait_answer()
    check_private(stale, "out of date")

    # Ann asks to take her move back and Bob agrees: the board as before, said so.
    asked = fake.slash(ann, chat, "jarmo takeback").wait_answer()
    assert asked.message is not None and not asked.message.ephemeral
    agreed = fake.press(bob, asked.message, "Accept").wait_answer()
    assert agreed.type in (4, 7)

    # Ann resigns; the rematch button starts a new challenge there.
    prompt = fake.slash(ann, chat, "jarmo resign").wait_answer().message
    assert prompt is not None and prompt.ephemeral
    resigned = fake.press(ann, prompt, "Yes, resign the match")
    [ending] = resigned.wait_followups(1)
    assert {"Rematch", "Review"} <= {b["label"] for b in ending.buttons}

    # Cat, who only watches, asks for the review: one message, edited as it goes.
    reviewing = fake.press(cat, ending, "Review")
    answered = reviewing.wait_answer().message
    assert answered is not None and not answered.ephemeral
    fake.wait_until(lambda: fake.message(answered.id).embeds, 60.0, "the review in the answer")
    assert fake.message(answered.id).embeds[0]["title"].startswith("Review · ")
    assert reviewing.followups == []
    # Ann's history there is the friends pool's: her game, with its move list and replay.
    [(game_id,)] = rows(bot.database, "SELECT id FROM games WHERE channel_id = ?", chat.id)
    listed = fake.slash(ann, chat, "jarmo history").wait_answer().message
    assert listed is not None and not listed.ephemeral
    picked = fake.pick(ann, listed, str(game_id))
    [replay] = picked.wait_followups(1)
    assert [a.filename.rsplit(".", 1)[1] for a in replay.attachments] == ["txt", "gif"]

    fake.wait_idle()
    # Stored with no server id; rated in the friends pool, never in a server's.
    assert rows(bot.database, "SELECT guild_id FROM games WHERE channel_id = ?", chat.id) == [
        (None,)
    ]
    rated = rows(bot.database, "SELECT DISTINCT guild_id FROM ratings WHERE user_id = ?", ann.id)
    assert rated == [(None,)]
    assert rows(bot.database, "SELECT count(*) FROM outbox WHERE channel_id = ?", chat.id) == [(0,)]


def test_a_game_against_the_computer_in_a_dm(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    fake.install_for(world.cat)
    chat = fake.dm(world.cat, world.eve)
    # The bot is no member to pick there: a level alone asks for the computer.
    started = fake.slash(world.cat, chat, "jarmo challenge", level="easy", side="white")
    answer = started.wait_answer()
    assert answer.type == 4 and answer.message is not None
    check_board_embed(answer.message)
    game = Game.new()
    move = game.legal_moves()[0]
    typed = fake.slash(world.cat, chat, "jarmo move", move=move)
    typed.wait_answer()
    # The computer's answer comes inside the same interaction, as its one follow-up.
    [reply] = typed.wait_followups(1)
    assert "played **" in check_board_embed(reply)["description"]
    fake.wait_idle()
    assert len(fake.channel_messages(chat)) == 3  # the start, Cat's move, the computer's


def test_a_game_in_a_server_without_the_bot_is_won_by_claiming_the_timeout(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    fake.install_for(ann, bob)
    chat = fake.user_install_guild()
    accept(fake, challenge(fake, chat, ann, bob, side="white", time_per_move="1h"), bob)
    fake.slash(ann, chat, "jarmo move", move="A1-C2").wait_answer()
    # Bob lets his hour pass: nothing runs out by itself where the bot cannot post.
    deadline = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="microseconds")
    with closing(sqlite3.connect(bot.database, timeout=10)) as db, db:
        db.execute(
            "UPDATE games SET deadline_at = ? WHERE channel_id = ? AND status = 'active'",
            (deadline, chat.id),
        )
    offered = fake.slash(ann, chat, "jarmo move", move="A5-B3").wait_answer()
    prompt = offered.message
    assert (
        prompt is not None and prompt.ephemeral and [b["label"] for b in prompt.buttons] == [CLAIM]
    )
    claimed = fake.press(ann, prompt, CLAIM).wait_answer()
    ending = claimed.message
    assert claimed.type == 4 and ending is not None and not ending.ephemeral
    assert check_board_embed(ending)["description"].startswith(f"{bob.mention} ran out of time.")
    fake.wait_idle()
    assert rows(bot.database, "SELECT status FROM games WHERE channel_id = ?", chat.id) == [
        ("timeout",)
    ]


def test_a_server_with_external_apps_turned_off_is_answered_privately(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    fake.install_for(world.ann)
    chat = fake.user_install_guild(external_apps=False)
    answer = fake.slash(world.ann, chat, "jarmo challenge", opponent=world.bob).wait_answer()
    check_private(answer, "only answer you privately here")
    assert rows(bot.database, "SELECT count(*) FROM challenges WHERE channel_id = ?", chat.id) == [
        (0,)
    ]


def test_what_needs_the_bot_in_the_server_says_so(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    fake.install_for(world.ann)
    chat = fake.group_dm(world.ann, world.bob)
    answer = fake.slash(world.ann, chat, "jarmo leaderboard").wait_answer()
    check_private(answer, "needs Jarmo added to this server")


def test_a_button_of_another_channels_challenge_reaches_nothing(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-5")
    message = challenge(fake, here, world.ann, world.bob)
    fake.install_for(world.bob)
    # The same Accept button, pressed in Bob's DM with the bot (a forwarded message, say).
    press = fake.press(world.bob, message, "Accept", send=False)
    check_private(fake.send(fake.from_outside(press)).wait_answer(), "another chat")
    assert rows(bot.database, "SELECT count(*) FROM games WHERE channel_id = ?", here.id) == [(0,)]
    # In its own channel it still works.
    accept(fake, message, world.bob)
