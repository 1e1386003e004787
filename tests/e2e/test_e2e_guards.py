"""End to end: from outside the bot's servers, what needs the bot in a server is refused
privately and a button copied from a server reaches nothing; and a second bot on the same
database file is turned away before it connects.

One bot process serves the module (fresh database).
"""

from __future__ import annotations

import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from tests.e2e.bot_process import BotProcess, bot_command, bot_env
from tests.e2e.e2e_play import challenge, challenge_id, check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Answer

pytestmark = pytest.mark.sqlite_only("counts rows in the SQLite file; a second bot meets its lock")

SECOND_BOT_SECONDS = 30.0  # generous: only the Python start-up is slow on a busy machine


def stored_rows(database: Path, table: str) -> int:
    """How many rows ``table`` has, read without writing to the file."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def check_refused(answer: Answer) -> None:
    check_private(answer, "another chat")


@pytest.mark.parametrize("guild_id", [None, 1234567890123456789], ids=["dm", "other-server"])
def test_what_needs_the_bot_in_a_server_is_refused_outside_and_stores_nothing(
    fake: FakeDiscord, bot: BotProcess, guild_id: int | None
) -> None:
    world = fake.world
    fake.wait_commands(world.guild_id)
    tournaments, players = (
        stored_rows(bot.database, "tournaments"),
        stored_rows(bot.database, "players"),
    )
    attempt = fake.slash(
        world.cat,
        world.channel("arena-1"),
        "jarmo tournament create",
        name="Cup",
        format="swiss",
        send=False,
    )
    answer = fake.send(fake.from_outside(attempt, guild_id)).wait_answer()
    check_private(answer, "needs Jarmo added to this server")
    assert stored_rows(bot.database, "tournaments") == tournaments
    assert stored_rows(bot.database, "players") == players
    # Typing a move there suggests nothing: no game is played there.
    typing = fake.autocomplete(
        world.ann, world.channel("arena-1"), "jarmo move", "move", move="a", send=False
    )
    suggested = fake.send(fake.from_outside(typing, guild_id)).wait_answer()
    assert suggested.type == 8 and suggested.choices == []


@pytest.mark.parametrize("guild_id", [None, 1234567890123456789], ids=["dm", "other-server"])
def test_a_button_pressed_outside_the_servers_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild_id: int | None
) -> None:
    world = fake.world
    here = world.channel("arena-2" if guild_id is None else "arena-3")
    message = challenge(fake, here, world.ann, world.bob)
    # A copy of the challenge's buttons clicked outside (a forwarded message, say).
    press = fake.press(world.bob, message, "Accept", send=False)
    check_refused(fake.send(fake.from_outside(press, guild_id)).wait_answer())
    assert "**Accepted.**" not in fake.message(message.id).content
    with closing(sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True, timeout=10)) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        [status] = db.execute(
            "SELECT status FROM challenges WHERE id = ?", (challenge_id(message),)
        ).fetchone()
    assert status == "pending"
    # The challenge is still open to the real click, in the server.
    withdrawn = fake.press(world.ann, message, "Withdraw").wait_answer()
    assert withdrawn.type == 7 and "**Withdrawn**" in withdrawn.content


def test_a_second_bot_on_the_same_database_exits_before_connecting(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    sessions, identifies = fake.sessions_started, len(fake.intents)
    second = subprocess.run(
        bot_command("run", "--config", str(bot.config_path)),
        cwd=bot.folder,
        env=bot_env(fake),
        capture_output=True,
        text=True,
        timeout=SECOND_BOT_SECONDS,
        check=False,
    )
    assert second.returncode == 2, (second.returncode, second.stderr)
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1, second.stderr
    [line] = lines
    assert bot.database.name in line and "another Jarmo bot" in line, line
    assert "Traceback" not in second.stderr and not second.stdout
    # It never reached the gateway: no new session, no IDENTIFY.
    assert (fake.sessions_started, len(fake.intents)) == (sessions, identifies)
    # The first bot is untouched and still serving.
    assert bot.running()
    answer = fake.slash(fake.world.cat, fake.world.channel("general"), "jarmo rules").wait_answer()
    assert answer.ephemeral
    assert answer.message is not None
    check_board_embed(answer.message, filename="start.png")
