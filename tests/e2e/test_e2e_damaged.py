"""End to end: the bot starts on a database holding three damaged games (a timed one past its
deadline, a plain one, one waiting for the computer's move) and keeps serving everyone else;
a damaged channel is answered privately until a moderator aborts its game.

The module's bot is the second process on the file: the first one played the games, then their
stored records were spoiled (see ``damaged_games``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.e2e.bot_process import CLEAN_EXIT_SECONDS, BotProcess
from tests.e2e.damaged_games import (
    DAMAGED_LINE,
    DamagedGames,
    damaged_in_log,
    prepare_damaged_database,
    wait_damaged_logged,
)
from tests.e2e.e2e_play import Table, accept, challenge, check_private
from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.sqlite_only("its damaged games are written into the SQLite file")


@dataclass(frozen=True)
class Served:
    """The bot serving the damaged database, and the ERROR records it logged while starting
    (consumed by the fixture, so the per-test check of the log sees only what follows)."""

    process: BotProcess
    games: DamagedGames
    errors: list[str]
    started_at: float  # wall-clock time just before the second process started


@pytest.fixture(scope="module")
def damaged(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Served:
    process, games = prepare_damaged_database(fake, tmp_path_factory.mktemp("damaged"))
    started_at = time.time()
    process.start()
    wait_damaged_logged(process, games)
    fake.wait_idle()
    return Served(process, games, process.new_errors(), started_at)


@pytest.fixture(scope="module")
def bot(damaged: Served) -> Iterator[BotProcess]:
    yield damaged.process
    if damaged.process.running():
        damaged.process.stop()


def test_each_damaged_game_is_logged_once_at_error(
    fake: FakeDiscord, bot: BotProcess, damaged: Served
) -> None:
    logged = [int(found[1]) for e in damaged.errors if (found := DAMAGED_LINE.search(e))]
    assert sorted(logged) == sorted(damaged.games.ids)
    assert len(damaged.errors) == 3, "\n".join(damaged.errors)  # and nothing else went wrong
    # The overdue game was not timed out, nor the computer's move made: nothing was posted.
    for name in damaged.games.channels:
        last = fake.channel_messages(fake.world.channel(name))[-1]
        assert last.created < damaged.started_at, (name, last.content)


def test_a_healthy_channel_plays_a_whole_game(
    fake: FakeDiscord, bot: BotProcess, damaged: Served
) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-4"), world.bob, world.eve)
    table.play_to_end()
    assert table.game.over


@pytest.mark.parametrize("command", ["jarmo board", "jarmo standings"])
def test_a_damaged_channel_answers_privately(
    fake: FakeDiscord, bot: BotProcess, damaged: Served, command: str
) -> None:
    games = damaged.games
    for name in games.channels:
        answer = fake.slash(fake.world.ann, fake.world.channel(name), command).wait_answer()
        check_private(answer, "damaged", "/jarmo abort")


def test_a_challenge_in_a_damaged_channel_names_the_damage(
    fake: FakeDiscord, bot: BotProcess, damaged: Served
) -> None:
    world = fake.world
    for name in damaged.games.channels:
        answer = fake.slash(
            world.eve, world.channel(name), "jarmo challenge", opponent=world.cat
        ).wait_answer()
        check_private(answer, "damaged", "/jarmo abort")
        assert "in progress" not in answer.content


def test_a_move_in_a_damaged_channel_is_refused_privately(
    fake: FakeDiscord, bot: BotProcess, damaged: Served
) -> None:
    games = damaged.games
    here = fake.world.channel(games.active[0])
    answer = fake.slash(fake.world.ann, here, "jarmo move", move="A1-C2").wait_answer()
    check_private(answer, "damaged", "/jarmo abort")


def test_a_moderator_aborts_a_damaged_game_and_the_channel_is_free(
    fake: FakeDiscord, bot: BotProcess, damaged: Served
) -> None:
    games = damaged.games
    world = fake.world
    here = world.channel(games.timed[0])
    check_private(fake.slash(world.ann, here, "jarmo abort").wait_answer(), "manage")
    aborted = fake.slash(world.cat, here, "jarmo abort").wait_answer()
    assert aborted.type == 4 and not aborted.ephemeral, aborted
    assert aborted.content.startswith(f"The damaged game was ended by {world.cat.mention}")
    assert "/jarmo challenge" in aborted.content
    check_private(fake.slash(world.ann, here, "jarmo board").wait_answer(), "no game")
    message = challenge(fake, here, world.ann, world.bob)
    accept(fake, message, world.bob)
    # The other damaged channels are still damaged.
    other = world.channel(games.computer[0])
    check_private(fake.slash(world.ann, other, "jarmo board").wait_answer(), "damaged")


def test_sigterm_stops_the_bot_cleanly(fake: FakeDiscord, bot: BotProcess, damaged: Served) -> None:
    fake.wait_idle()
    status, seconds = bot.stop()
    assert status == 0, bot.log_tail()
    assert seconds < CLEAN_EXIT_SECONDS
    # Each damaged game was logged at ERROR once in the whole run, however often it was met.
    second_run = bot.log_text().split("---- start 2 ----", 1)[1]
    assert damaged_in_log(second_run) == damaged.games.ids
    assert len(DAMAGED_LINE.findall(second_run)) == 3
