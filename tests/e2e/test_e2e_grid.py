"""End to end: playing Jarmo by clicks on the private grid (Components V2) that the **Move**
button under every board opens for the player to move."""

from __future__ import annotations

from e2e_play import Table, pick_move
from fake_discord import FakeDiscord
from grid_clicks import click_move, lit, open_grid


def test_a_match_played_entirely_by_clicks(fake: FakeDiscord, bot):
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
