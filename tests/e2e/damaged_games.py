"""A database holding three damaged games, made the way it could happen in the field: a first
bot process plays them through the fake, is stopped, and their stored records are spoiled by
hand. Used by ``test_e2e_damaged.py`` and ``bench/damaged_idle.py``."""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table
from tests.e2e.fake_discord import FakeDiscord

DAMAGED_SNAPSHOT = "{not json"
DAMAGED_LINE = re.compile(r" ERROR +\S+: game (\d+) is damaged ")


@dataclass(frozen=True)
class DamagedGames:
    """Which channel holds which damaged game (channel names of the fake's world)."""

    timed: tuple[str, int]  # a game with a time limit whose deadline has passed
    active: tuple[str, int]  # a plain game between two people
    computer: tuple[str, int]  # a game against the bot, waiting for the computer's move

    @property
    def ids(self) -> set[int]:
        return {self.timed[1], self.active[1], self.computer[1]}

    @property
    def channels(self) -> list[str]:
        return [self.timed[0], self.active[0], self.computer[0]]


def active_game_id(database: Path, channel_id: int) -> int:
    """The id of the channel's active game, read without writing to the file."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as db:
        row = db.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        ).fetchone()
    assert row is not None, f"no active game in channel {channel_id}"
    return int(row[0])


def play_the_games(fake: FakeDiscord, bot: BotProcess) -> DamagedGames:
    """Start the three games through the fake, with the running ``bot``."""
    world = fake.world
    fake.wait_commands(world.guild_id)
    timed = Table.start(fake, world.channel("arena-1"), world.ann, world.bob)
    timed.play()
    # A time limit per move: a fresh challenge in its own channel.
    clocked = world.channel("arena-2")
    offer = fake.slash(
        world.ann, clocked, "jarmo challenge", opponent=world.cat, side="white", time_per_move="1h"
    ).wait_answer()
    assert offer.message is not None and not offer.ephemeral, offer
    started = fake.press(world.cat, offer.message, "Accept")
    assert started.wait_answer().type == 7
    started.wait_followups(1)
    # Against the computer: Eve moves, the computer answers.
    versus = world.channel("arena-3")
    fake.slash(
        world.eve, versus, "jarmo challenge", opponent=world.bot, side="white", level="easy"
    ).wait_answer()
    played = fake.slash(world.eve, versus, "jarmo move", move="A1-C2")
    played.wait_answer()
    played.wait_followups(1)
    fake.wait_idle()
    return DamagedGames(
        timed=("arena-2", active_game_id(bot.database, clocked.id)),
        active=("arena-1", active_game_id(bot.database, timed.channel.id)),
        computer=("arena-3", active_game_id(bot.database, versus.id)),
    )


def spoil(database: Path, games: DamagedGames) -> None:
    """With the bot stopped: make the three stored games unloadable. The timed game's deadline
    is moved into the past; the computer's last move is taken back so that it is the
    computer's turn again, as if the bot had stopped while it was thinking."""
    past = (datetime.now(UTC) - timedelta(hours=2)).isoformat(timespec="microseconds")
    computer = games.computer[1]
    with closing(sqlite3.connect(database, timeout=10)) as db, db:
        overdue = db.execute(
            "UPDATE games SET deadline_at = ? WHERE id = ? AND deadline_at IS NOT NULL",
            (past, games.timed[1]),
        ).rowcount
        assert overdue == 1, "the timed game has no deadline"
        db.execute(
            "DELETE FROM actions WHERE game_id = ? AND ply = "
            "(SELECT max(ply) FROM actions WHERE game_id = ?)",
            (computer, computer),
        )
        db.execute("UPDATE games SET version = version - 1 WHERE id = ?", (computer,))
        marks = ",".join("?" * len(games.ids))
        spoiled = db.execute(
            f"UPDATE games SET snapshot = ? WHERE id IN ({marks})", (DAMAGED_SNAPSHOT, *games.ids)
        ).rowcount
        assert spoiled == 3


def prepare_damaged_database(fake: FakeDiscord, folder: Path) -> tuple[BotProcess, DamagedGames]:
    """A stopped bot (``BotProcess``, not running) whose database holds the three damaged
    games; ``start()`` it to serve them."""
    bot = BotProcess(fake, folder)
    bot.start()
    games = play_the_games(fake, bot)
    status, _ = bot.stop()
    assert status == 0, bot.log_tail()
    spoil(bot.database, games)
    bot.new_errors()  # what the first process logged is not the second one's business
    return bot, games


def wait_damaged_logged(bot: BotProcess, games: DamagedGames, timeout: float = 30.0) -> None:
    """Until the running bot has logged every damaged game (its background jobs meet them all
    soon after start-up)."""
    deadline = time.monotonic() + timeout
    while not games.ids <= damaged_in_log(bot.log_text()):
        if not bot.running():
            raise AssertionError(f"the bot exited:\n{bot.log_tail()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not every damaged game was logged:\n{bot.log_tail()}")
        time.sleep(0.05)


def damaged_in_log(text: str) -> set[int]:
    """The game ids of the "game N is damaged" ERROR lines in a log."""
    return {int(found[1]) for found in DAMAGED_LINE.finditer(text)}
