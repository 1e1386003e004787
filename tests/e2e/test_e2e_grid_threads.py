"""End to end: two matches at once in one channel's threads, each played to the end by clicks
on the private grid only, their moves interleaved."""

from __future__ import annotations

import random

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, challenge, pick_move
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS, Message, Thread
from tests.e2e.grid_clicks import click_move, lit, open_grid
from tests.e2e.test_e2e_threads import accept_into_thread

MAX_PLIES = 400  # far above any game's length: a loop that never ends is a failure


def test_two_matches_in_one_channels_threads_played_entirely_by_clicks(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    here = world.channel("arena-3")
    first, first_board = accept_into_thread(
        fake, challenge(fake, here, world.ann, world.bob, side="white"), world.ann, world.bob
    )
    second, second_board = accept_into_thread(
        fake, challenge(fake, here, world.cat, world.ann, side="white"), world.cat, world.ann
    )
    assert first.id != second.id
    matches: list[tuple[Table, Thread, Message]] = [
        (Table(fake, first, world.ann, world.bob, rng=random.Random(11)), first, first_board),
        (Table(fake, second, world.cat, world.ann, rng=random.Random(12)), second, second_board),
    ]
    for _ in range(MAX_PLIES):
        running = [i for i, (table, _, _) in enumerate(matches) if not table.game.over]
        if not running:
            break
        for i in running:  # one move in each thread in turn
            table, thread, board = matches[i]
            mover = table.mover
            grid = open_grid(fake, board, mover)
            assert lit(grid) == {
                m.split("-")[0].split("x")[0].lstrip("@") for m in table.game.legal_moves()
            }
            move = pick_move(table.game, table.rng)
            [reply] = click_move(fake, grid, mover, table.game, move).wait_followups(1)
            played = table.game.play(move)
            assert reply.channel_id == thread.id  # the board goes to this match's thread only
            assert reply.embeds[0]["description"].startswith(
                f"{mover.mention} played **{played}**."
            )
            if not table.game.over:
                table.check_board(reply)
            matches[i] = (table, thread, reply)
    assert all(table.game.over for table, _, _ in matches)
