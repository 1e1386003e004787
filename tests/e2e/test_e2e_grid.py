"""End to end: playing Jarmo by clicks on the private grid (Components V2) that the **Move**
button under every board opens for the player to move."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing

import pytest

from bot.jarmo import Game
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import (
    Table,
    accept,
    board_text,
    challenge,
    check_position,
    check_private,
    pick_move,
)
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.grid_clicks import cells, check_grid, click, click_move, clicks_for, lit, open_grid


def test_a_match_played_entirely_by_clicks(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-1"), world.ann, world.bob)
    board = fake.channel_messages(table.channel)[-1]
    for _ in range(200):
        mover = table.mover
        grid = open_grid(fake, board, mover)
        expected = {m.split("-")[0].split("x")[0].lstrip("@") for m in table.game.legal_moves()}
        assert lit(grid) == expected
        move = pick_move(table.game, table.rng)
        press = click_move(fake, grid, mover, table.game, move)
        [board] = press.wait_followups(1)
        played = table.game.play(move)
        assert board.embeds[0]["description"].startswith(f"{mover.mention} played **{played}**.")
        assert f"You played **{played}**." in fake.message(grid.id).texts()
        if table.game.over:
            break
        table.check_board(board)
    assert table.game.over


def test_the_grid_is_laid_out_from_the_players_side_and_back_lets_go(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-2"), world.ann, world.bob)
    board = fake.channel_messages(table.channel)[-1]
    white = open_grid(fake, board, world.ann)
    assert [b["label"] for b in cells(white)[0]] == ["A5", "B5", "C5", "D5", "E5"]
    chosen = click(fake, white, world.ann, "B1")  # the piece only
    picked = fake.message(white.id)
    assert lit(picked) == {"C3", "D2", "A3"} & lit(picked) and "B1" not in lit(picked)
    assert not chosen.followups  # nothing played yet
    fake.press(world.ann, picked, "Back").wait_answer()
    assert lit(fake.message(white.id)) == lit(white)
    [board] = click_move(fake, white, world.ann, table.game, "B1-D2").wait_followups(1)
    table.game.play("B1-D2")
    black = open_grid(fake, board, world.bob)
    assert [b["label"] for b in cells(black)[0]] == ["E1", "D1", "C1", "B1", "A1"]
    assert "D2" in {b["label"] for b in cells(black)[0] + cells(black)[1]}


def test_only_the_player_to_move_opens_a_grid(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-3"), world.ann, world.bob)
    board = fake.channel_messages(table.channel)[-1]
    check_private(fake.press(world.cat, board, "Move").wait_answer(), "not playing")
    check_private(fake.press(world.bob, board, "Move").wait_answer(), "It is Ann's turn")
    assert table.game.ply == 0  # nothing changed
    check_position(board_text(fake, table.channel, world.cat), table.game, *table.players)


def test_two_clicks_at_once_play_one_move(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-4"), world.ann, world.bob)
    grid = open_grid(fake, fake.channel_messages(table.channel)[-1], world.ann)
    click(fake, grid, world.ann, "B1")
    picked = fake.message(grid.id)
    first = fake.press(world.ann, picked, "D2", send=False)
    second = fake.press(world.ann, picked, "A3", send=False)
    fake.send(first, second)
    moved, refused = sorted((first, second), key=lambda press: -press.wait_answer().type)
    assert moved.wait_answer().type == 7  # the grid turned into "You played ..."
    # The other click came too late: it read the game after the move ("not your turn") or,
    # reading it at the same moment, lost at the store's version check; either way privately.
    late = refused.wait_answer()
    check_private(late)
    assert late.message is not None
    assert "turn" in late.message.content or "at the same moment" in late.message.content
    [board] = moved.wait_followups(1)
    fake.wait_idle()
    boards = [m for m in fake.channel_messages(table.channel) if m.embeds]
    assert [m.id for m in boards if " played **" in m.embeds[0]["description"]] == [board.id]


def test_a_stale_grid_after_a_restart_answers_out_of_date_and_opens_a_fresh_one(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-5"), world.ann, world.bob)
    grid = open_grid(fake, fake.channel_messages(table.channel)[-1], world.ann)
    table.play("B1-D2", autocomplete=False)  # by command: the grid is now out of date
    table.play(autocomplete=False)
    fake.wait_idle()
    status, _ = bot.stop()
    assert status == 0, bot.log_tail()
    bot.start()

    stale = fake.message(grid.id)
    answer = fake.press(world.ann, stale, sorted(lit(stale))[0]).wait_answer()
    assert answer.type == 7  # the same private message, now the current board
    fresh = fake.message(grid.id)
    check_grid(fresh)
    assert fresh.texts()[0].startswith("This board was out of date; here is the current one.")
    versions = {b["custom_id"].split(":")[3] for b in fresh.buttons}
    assert versions == {"2"} != {b["custom_id"].split(":")[3] for b in stale.buttons}
    assert fresh.attachment("board.png") != stale.attachment("board.png")
    move = pick_move(table.game, table.rng)
    [board] = click_move(fake, grid, world.ann, table.game, move).wait_followups(1)
    table.game.play(move)
    table.check_board(board)


@pytest.mark.sqlite_only("it moves the stored version on in the SQLite file by hand")
def test_a_grid_goes_by_the_version_when_it_is_ahead_of_the_plies(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-8"), world.ann, world.bob)
    grid = open_grid(fake, fake.channel_messages(table.channel)[-1], world.ann)
    fake.wait_idle()
    status, _ = bot.stop()
    assert status == 0, bot.log_tail()
    # As a move taken back leaves a game: its version ahead of its actions (none here).
    with closing(sqlite3.connect(bot.database)) as db, db:
        db.execute(
            "UPDATE games SET version = version + 4 WHERE channel_id = ? AND status = 'active'",
            (table.channel.id,),
        )
    bot.start()

    stale = fake.message(grid.id)
    assert fake.press(world.ann, stale, sorted(lit(stale))[0]).wait_answer().type == 7
    fresh = fake.message(grid.id)
    assert fresh.texts()[0].startswith("This board was out of date; here is the current one.")
    assert {b["custom_id"].split(":")[3] for b in fresh.buttons} == {"4"}
    move = pick_move(table.game, table.rng)
    [board] = click_move(fake, grid, world.ann, table.game, move).wait_followups(1)
    table.game.play(move)
    table.check_board(board)
    fake.wait_idle()
    with closing(sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)) as db:
        stored = db.execute(
            "SELECT g.version, a.ply, a.move FROM games g JOIN actions a ON a.game_id = g.id"
            " WHERE g.channel_id = ?",
            (table.channel.id,),
        ).fetchall()
    assert stored == [(5, 1, move)]


def test_a_click_after_the_game_ended_is_answered_privately(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    table = Table.start(fake, world.channel("arena-6"), world.ann, world.bob)
    board = fake.channel_messages(table.channel)[-1]
    grid = open_grid(fake, board, world.ann)
    prompt = fake.slash(world.ann, table.channel, "jarmo resign").wait_answer()
    assert prompt.message is not None
    fake.press(world.ann, prompt.message, "Yes, resign the match").wait_followups(1)
    fake.wait_idle()
    for pressed in (
        fake.press(world.ann, fake.message(grid.id), "B1"),
        fake.press(world.bob, board, "Move"),
    ):
        check_private(pressed.wait_answer(), "This game has ended")
    assert fake.message(grid.id).texts() == grid.texts()  # the old grid is left as it was


def test_ludos_places_from_the_grid_now_or_later(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    here = world.channel("arena-7")
    board = accept(
        fake, challenge(fake, here, world.ann, world.cat, side="white", ruleset="ludos"), world.cat
    )
    game, rng = Game.new(ruleset="ludos"), random.Random(3)
    players = {"white": world.ann, "black": world.cat}
    waiting: str | None = None  # the side holding a piece won back, to place later
    placed_later = False
    while not placed_later:
        assert not game.over and game.ply < 60, "no piece was won back to place"
        mover = players[game.turn]
        grid = open_grid(fake, board, mover)
        moves = game.legal_moves()
        wins_back = [m for m in moves if "@" in m and not m.startswith("@")]
        places = [m for m in moves if m.startswith("@")]
        if waiting == game.turn and places:
            assert {m[1:] for m in places} <= lit(grid)  # the camp points, beside the pieces
            move, placed_later = places[0], True
            press = click_move(fake, grid, mover, game, move)
        elif wins_back and waiting is None:
            move, waiting = wins_back[0].split("@")[0], game.turn
            click(fake, grid, mover, *clicks_for(game, move)[:2])
            placing = fake.message(grid.id)
            assert lit(placing) == {m.split("@")[1] for m in moves if m.startswith(move + "@")}
            press = click(fake, grid, mover, "Place later")
        else:
            move = pick_move(game, rng)
            press = click_move(fake, grid, mover, game, move)
        [board] = press.wait_followups(1)
        played = game.play(move)
        assert f"played **{played}**" in board.embeds[0]["description"]
