"""End to end: endings as the players read them. A match ended by a click on the grid renames
its thread at once (not a sweep later), and a Swiss of five (a bye every round) has a round
forced by a moderator: each thread is told who ended it and how it counts, its board loses its
Move button, its name and standings give the table's result, and the table's heading counts
only the rounds played to the end, read after every round. A Swiss forced in its last round,
with a game finished and one in play, gives one result in the thread, its standings (the
aborted game without a score), the final table and the players' histories.

The module's bot ends a game after ``SHORT_GAME`` moves, so that a game is quickly over; every
move is on a line that all of the engine's boards share."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import challenge, manager
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import (
    MEMBER_PERMISSIONS,
    THREAD_PERMISSIONS,
    Channel,
    Message,
    Thread,
    User,
)
from tests.e2e.grid_clicks import click_move, open_grid
from tests.e2e.test_e2e_threads import accept_into_thread
from tests.e2e.test_e2e_tournament import (
    play_round,
    posts_containing,
    round_matches,
    wait_round,
)
from tests.postgres import postgres_server

SHORT_GAME = 10  # moves (the least a server may set)
RENAMED_WITHIN = 10.0  # seconds: far less than the sweep's minute
SHARED_LINES = {
    frozenset(line.split("-"))
    for line in [
        "A1-B3",
        "A1-C2",
        "A2-C3",
        "A3-B1",
        "A3-B5",
        "A4-C3",
        "A5-B3",
        "A5-C4",
        "B1-D2",
        "B2-C4",
        "B3-C5",
        "B4-D3",
        "B5-D4",
        "C1-D3",
        "C1-E2",
        "C2-E3",
        "C3-D1",
        "C5-E4",
        "D3-E1",
        "D3-E5",
        "D4-E2",
        "D5-E3",
    ]
}


@pytest.fixture(scope="module")
def bot(
    fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory, e2e_backend: str
) -> Iterator[BotProcess]:
    """The bot with games of ``SHORT_GAME`` moves."""
    process = BotProcess(fake, tmp_path_factory.mktemp("bot"), max_plies=SHORT_GAME)
    if e2e_backend == "postgresql":
        process.database_url = postgres_server().fresh_database()
    process.start()
    yield process
    if process.running():
        fake.wait_idle()
        status, _ = process.stop()
        assert status == 0, process.log_tail()


@pytest.fixture(autouse=True)
def threads_allowed(fake: FakeDiscord) -> Iterator[None]:
    fake.world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    yield


@pytest.fixture(scope="module")
def fifth(fake: FakeDiscord) -> User:
    """A fifth member of the server, for an odd field."""
    world = fake.world
    dan = User(fake.ids(), "dan", "Dan")
    world.people = (*world.people, dan)
    return dan


def shared_move(game: Game, rng: random.Random) -> str:
    """A legal step (or capture) of the player to move along a line every board has."""
    steps = [
        move
        for move in game.legal_moves()
        if "@" not in move and frozenset(move.replace("x", "-").split("-")) in SHARED_LINES
    ]
    assert steps, f"no move on a shared line from {game.legal_moves()}"
    return rng.choice(sorted(steps))


def test_a_match_ended_by_a_click_renames_its_thread_at_once(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    # The sweep looks at every thread once as the bot gets ready, then a minute later: a rename
    # within RENAMED_WITHIN of the ending comes from the ending itself.
    fake.wait_until(lambda: "connected as" in bot.log_text(), 20, "the bot ready")
    world = fake.world
    here = world.channel("arena-1")
    thread, board = accept_into_thread(
        fake, challenge(fake, here, world.ann, world.bob, side="white"), world.ann, world.bob
    )
    game, rng = Game.new(max_plies=SHORT_GAME), random.Random(5)
    players = {"white": world.ann, "black": world.bob}
    while not game.over:
        mover = players[game.turn]
        move = shared_move(game, rng)
        [board] = click_move(fake, open_grid(fake, board, mover), mover, game, move).wait_followups(
            1
        )
        game.play(move)
    assert [b["label"] for b in board.buttons] == ["Rematch", "Review"]

    fake.wait_until(lambda: "—" in thread.name, RENAMED_WITHIN, "the thread renamed at once")
    winner = game.winner()
    result = "drawn" if winner is None else f"{players[winner].display_name} won"
    assert thread.name == f"Ann vs Bob · classic — {result}"


def table_after(fake: FakeDiscord, user: User, channel: Channel | Thread) -> str:
    """``/jarmo tournament standings``: the table's text version."""
    asked = fake.slash(user, channel, "jarmo tournament standings")
    asked.wait_answer()
    [table] = asked.wait_followups(1)
    assert not table.ephemeral and table.attachment("standings.png").data.startswith(b"\x89PNG")
    return table.content


def move_in(fake: FakeDiscord, thread: Thread, user: User, move: str) -> Message:
    answer = fake.slash(user, thread, "jarmo move", move=move).wait_answer()
    assert answer.type == 4 and answer.message is not None, answer
    return answer.message


def test_a_swiss_of_five_with_a_forced_round_read_after_every_round(
    fake: FakeDiscord, bot: BotProcess, fifth: User
) -> None:
    world = fake.world
    here = world.channel("arena-2")
    players = [world.ann, world.bob, world.cat, world.eve, fifth]
    with manager(fake, world.ann):
        created = fake.slash(
            world.ann, here, "jarmo tournament create", name="Club cup", format="swiss", rounds=3
        ).wait_answer()
    assert created.message is not None
    for player in players:
        assert fake.press(player, created.message, "Join").wait_answer().type == 7
    with manager(fake, world.ann):
        started = fake.slash(world.ann, here, "jarmo tournament start")
        started.wait_answer()
        started.wait_followups(1)

    round_one = wait_round(fake, here, 1)
    round_matches(fake, round_one)
    table = table_after(fake, world.bob, here)
    assert "Club cup · Swiss · round 1 of 3 in progress" in table
    assert table.count("Round 1: bye.") == 1  # the bye of the round in progress
    play_round(fake, round_one)

    round_two = wait_round(fake, here, 2)
    (first, second, played_id), (_, _, idle_id) = round_matches(fake, round_two)
    table = table_after(fake, world.bob, here)
    assert "Club cup · Swiss · after round 1 of 3 · round 2 in progress" in table
    assert table.count("Round 2: bye.") == 1
    # One match plays its first game to the move limit and starts the second; the other idles.
    played, idle = world.threads[played_id], world.threads[idle_id]
    by_id = {p.id: p for p in players}
    game, rng = Game.new(max_plies=SHORT_GAME), random.Random(3)
    white, black = by_id[first], by_id[second]
    while not game.over:
        move = shared_move(game, rng)
        move_in(fake, played, white if game.turn == "white" else black, move)
        game.play(move)
    points = game.points()
    counted = {first: points["white"], second: points["black"]}
    move_in(fake, played, black, shared_move(Game.new(max_plies=SHORT_GAME), rng))

    with manager(fake, world.ann):
        forced = fake.slash(world.ann, here, "jarmo tournament force")
        forced.wait_answer()
        [done] = forced.wait_followups(1)
    assert done.ephemeral and "Round 2 is decided" in done.content

    winner = None if counted[first] == counted[second] else max(counted, key=counted.__getitem__)
    score = f"<@{first}> {counted[first]} – {counted[second]} <@{second}>"
    counts = (
        f"counts it as drawn, {score}."
        if winner is None
        else f"counts it as won by <@{winner}>, {score}."
    )
    result = "drawn" if winner is None else f"{by_id[winner].display_name} won"
    for thread, line in ((played, counts), (idle, "counts it as drawn")):
        told = [
            m
            for m in fake.channel_messages(thread)
            if "ended round 2 of Club cup before this match was over" in m.content
        ]
        assert len(told) == 1 and line in told[0].content, [m.content for m in told]
        assert told[0].content.startswith(world.ann.mention)  # who forced it
        boards = [m for m in fake.channel_messages(thread) if m.embeds]
        assert not boards[-1].buttons, "the last board takes no more moves"
    fake.wait_until(lambda: played.name.endswith(f"— {result}"), RENAMED_WITHIN, "renamed")
    fake.wait_until(lambda: idle.name.endswith("— drawn"), RENAMED_WITHIN, "renamed")
    standings = fake.slash(world.bob, played, "jarmo standings").wait_answer()
    stopped = f"{world.ann.mention} stopped the match; the tournament {counts}"
    assert stopped in standings.embeds[0]["description"]

    round_three = wait_round(fake, here, 3)
    table = table_after(fake, world.bob, here)
    assert "Club cup · Swiss · after round 2 of 3 · round 3 in progress" in table
    mine, theirs = counted[first], counted[second]
    outcome = "drew with" if winner is None else ("won against" if winner == first else "lost to")
    assert (
        f"Round 2: {outcome} <@{second}>, {mine}–{theirs} (forced by {world.ann.mention})" in table
    )
    play_round(fake, round_three)

    fake.wait_until(lambda: posts_containing(fake, here, "Club cup is over"), 20, "the final table")
    table = table_after(fake, world.bob, here)
    assert "Club cup · Swiss · final table" in table
    assert sum(table.count(f"Round {n}: bye.") for n in (1, 2, 3)) == 3


def history_of(fake: FakeDiscord, user: User, channel: Channel) -> str:
    """``/jarmo history``: the list of the player's games and tournaments."""
    answer = fake.slash(user, channel, "jarmo history").wait_answer()
    assert answer.message is not None and answer.message.embeds, answer
    description: str = answer.message.embeds[0]["description"]
    return description


def table_row(table: str, player: int) -> str:
    """The text table's line of ``player``."""
    [row] = [line for line in table.split("\n") if f". <@{player}>: " in line]
    return row


def test_a_swiss_forced_in_its_last_round_tells_one_result_everywhere(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    # The last round's match has a finished game and one in play when it is forced: its
    # thread, its standings, the final table and the players' histories give the same result.
    world = fake.world
    here = world.channel("arena-3")
    players = [world.ann, world.bob, world.cat, world.eve]
    with manager(fake, world.ann):
        created = fake.slash(
            world.ann, here, "jarmo tournament create", name="Club cup", format="swiss", rounds=2
        ).wait_answer()
    assert created.message is not None
    for player in players:
        assert fake.press(player, created.message, "Join").wait_answer().type == 7
    with manager(fake, world.ann):
        started = fake.slash(world.ann, here, "jarmo tournament start")
        started.wait_answer()
        started.wait_followups(1)
    play_round(fake, wait_round(fake, here, 1))

    (first, second, played_id), (idle_first, idle_second, idle_id) = round_matches(
        fake, wait_round(fake, here, 2)
    )
    played, idle = world.threads[played_id], world.threads[idle_id]
    by_id = {p.id: p for p in players}
    game, rng = Game.new(max_plies=SHORT_GAME), random.Random(3)
    white, black = by_id[first], by_id[second]
    while not game.over:
        move = shared_move(game, rng)
        move_in(fake, played, white if game.turn == "white" else black, move)
        game.play(move)
    points = game.points()
    counted = {first: points["white"], second: points["black"]}
    move_in(fake, played, black, shared_move(Game.new(max_plies=SHORT_GAME), rng))
    with manager(fake, world.bob):  # another moderator than the organiser
        forced = fake.slash(world.bob, here, "jarmo tournament force")
        forced.wait_answer()
        forced.wait_followups(1)
    fake.wait_until(lambda: posts_containing(fake, here, "Club cup is over"), 20, "the final table")

    winner = None if counted[first] == counted[second] else max(counted, key=counted.__getitem__)
    score = f"<@{first}> {counted[first]} – {counted[second]} <@{second}>"
    counts = (
        f"counts it as drawn, {score}."
        if winner is None
        else f"counts it as won by <@{winner}>, {score}."
    )
    # The thread: who forced it, and the result.
    [told] = posts_containing(fake, played, "ended round 2 of Club cup")
    assert told.content.startswith(world.bob.mention) and counts in told.content
    # Its standings: the finished game, the aborted one without a score, the same totals, and
    # who stopped the match.
    standings = fake.slash(world.cat, played, "jarmo standings").wait_answer()
    lines = standings.embeds[0]["description"].split("\n")
    assert lines[1].endswith(f"{counted[first]} – {counted[second]} <@{second}> (Black)")
    assert lines[2] == (
        f"Game 2: <@{second}> (White) v <@{first}> (Black) — aborted, counts for nothing"
    )
    assert lines[3] == f"Total: {score}"
    assert lines[4] == f"{world.bob.mention} stopped the match; the tournament {counts}"
    # The idle match: its aborted first game counts nothing, and it is drawn 0-0.
    idle_lines = fake.slash(world.cat, idle, "jarmo standings").wait_answer()
    assert idle_lines.embeds[0]["description"].split("\n")[1:4] == [
        f"Game 1: <@{idle_first}> (White) v <@{idle_second}> (Black) — aborted, counts for nothing",
        f"Total: <@{idle_first}> 0 – 0 <@{idle_second}>",
        f"{world.bob.mention} stopped the match; the tournament counts it as drawn,"
        f" <@{idle_first}> 0 – 0 <@{idle_second}>.",
    ]

    # The table: the same score, who forced it, and game points that are round 1's plus the
    # match's totals.
    table = table_after(fake, world.cat, here)
    assert "Club cup · Swiss · final table" in table
    forced_by = f"(forced by {world.bob.mention})"
    for me, them in ((first, second), (second, first)):
        row = table_row(table, me)
        outcome = "drew with" if winner is None else ("won against" if winner == me else "lost to")
        assert f"Round 2: {outcome} <@{them}>, {counted[me]}–{counted[them]} {forced_by}" in row
        assert row.count("forced by") == 1, row  # round 1 was played out
        round_one = re.search(r"Round 1: [a-z ]+ <@\d+>, (\d+)–\d+", row)
        assert round_one is not None, row
        game_points = int(round_one[1]) + counted[me]
        assert f" match points, {game_points} game points," in row, row

    # The histories: the newest game against the opponent is the finished one, with the
    # table's score (the aborted game is no result), and the player's place in the table,
    # with the round the moderator forced.
    for me, them in ((first, second), (second, first)):
        history = history_of(fake, by_id[me], here)
        latest = next(line for line in history.split("\n") if f" v <@{them}> " in line)
        result = "Drew" if winner is None else ("Won" if winner == me else "Lost")
        assert latest.endswith(f"**{result}** {counted[me]}–{counted[them]}"), history
        rank = int(table_row(table, me).split(".")[0])
        place = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[rank]
        placing = next(line for line in history.split("\n") if "Club cup — " in line)
        assert placing.endswith(
            f"Club cup — {place} of 4 · round 2 forced by {world.bob.mention}"
        ), history
