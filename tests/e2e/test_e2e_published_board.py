"""End to end: new games are on the published board, and a game stored on the old ``bow`` board
by the bot of before (``tests/data/before_the_published_board.sqlite``) is finished after the
upgrade, on its own board."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_private, suggest
from tests.e2e.fake_discord import FakeDiscord

MADE_BEFORE = Path(__file__).parents[1] / "data" / "before_the_published_board.sqlite"
OLD_GUILD = 900_000_000_000_000_001
OLD_PLAYING, OLD_FINISHED, OLD_SIGNUP = OLD_GUILD + 1, OLD_GUILD + 2, OLD_GUILD + 3
OLD_ANN, OLD_BOB, OLD_CAT = OLD_GUILD + 10, OLD_GUILD + 11, OLD_GUILD + 12
WHITE_FIRST_STEPS = [
    "A1-B3",
    "A1-C2",
    "B1-A3",
    "B1-D2",
    "C1-A2",
    "C1-D3",
    "C1-E2",
    "D1-B2",
    "D1-C3",
    "E1-C2",
    "E1-D3",
]


def test_a_new_challenge_is_played_on_the_published_board(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-1")
    accept(fake, challenge(fake, here, world.ann, world.bob, side="white"), world.bob)
    assert suggest(fake, here, world.ann, "") == WHITE_FIRST_STEPS
    # A line of the old board is refused privately, naming where that piece can go.
    old_line = fake.slash(world.ann, here, "jarmo move", move="B1-C3").wait_answer()
    check_private(old_line, "No line joins B1 and C3", "A3, D2")
    assert suggest(fake, here, world.ann, "") == WHITE_FIRST_STEPS  # nothing was played
    played = fake.slash(world.ann, here, "jarmo move", move="C1-A2").wait_answer()
    assert played.message is not None and not played.message.ephemeral
    assert "C1-A2" in played.message.content or played.message.embeds


def as_the_fakes_world(database: Path, ids: dict[int, int]) -> None:
    """Give the stored server, channels and people the ids they have in the fake's world."""
    with closing(sqlite3.connect(database)) as db:
        # Columns are changed one at a time: a row is briefly half changed.
        db.execute("PRAGMA ignore_check_constraints = ON")
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})") if r[2] == "INTEGER"]
            for column in columns:
                for old, new in ids.items():
                    db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))
        db.commit()


def stored(database: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as db:
        return db.execute(sql, args).fetchall()


def test_a_bow_game_stored_before_the_upgrade_is_finished_after_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = fake.world
    here = world.channel("arena-9")
    bot = BotProcess(fake, tmp_path)
    shutil.copyfile(MADE_BEFORE, bot.database)
    as_the_fakes_world(
        bot.database,
        {
            OLD_GUILD: world.guild_id,
            OLD_PLAYING: here.id,
            OLD_FINISHED: world.channel("arena-10").id,
            OLD_SIGNUP: world.channel("arena-11").id,
            OLD_ANN: world.ann.id,
            OLD_BOB: world.bob.id,
            OLD_CAT: world.cat.id,
        },
    )
    bot.start()
    try:
        fake.wait_commands(world.guild_id)
        [(game_id,)] = stored(bot.database, "SELECT id FROM games WHERE status = 'active'")
        # White's steps in the stored position: bow lines, two of them not on the published board.
        assert suggest(fake, here, world.ann, "") == [
            "A1-B3", "A1-C2", "C1-B3", "C1-D3", "C1-E2", "D1-C3", "D1-E3", "E1-D3",
        ]  # fmt: skip
        for _ in range(400):
            if stored(bot.database, "SELECT status FROM games WHERE id = ?", game_id) != [
                ("active",)
            ]:
                break
            mover = world.ann
            moves = suggest(fake, here, world.ann, "")
            if not moves:
                mover, moves = world.bob, suggest(fake, here, world.bob, "")
            move = next((m for m in moves if "x" in m), moves[0])
            answer = fake.slash(mover, here, "jarmo move", move=move).wait_answer()
            assert answer.message is not None and not answer.message.ephemeral, answer
        [(status,)] = stored(bot.database, "SELECT status FROM games WHERE id = ?", game_id)
        assert status == "finished"
        layouts = stored(bot.database, "SELECT layout FROM matches WHERE channel_id = ?", here.id)
        assert layouts == [("bow",)]
        boards = stored(bot.database, "SELECT count(*) FROM games WHERE channel_id = ?", here.id)
        assert boards == [(2,)]  # game 2 of the match started, on the match's board
        fake.wait_idle()
    finally:
        status, _ = bot.stop()
    assert status == 0, bot.log_tail()
