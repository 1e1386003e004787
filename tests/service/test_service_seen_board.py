"""A move chosen on a board shown earlier (the click grid) is played only on that very game and
version: anything applied in between, even a move that hands the turn back, refuses it."""

from __future__ import annotations

import pytest

from bot.service import Code, GameChanged, JarmoService, read_action
from bot.store import SqliteStore
from tests.service.service_helpers import ANN, BOB, HERE, start_match


async def test_a_move_on_the_board_the_player_saw_is_played(service: JarmoService) -> None:
    await start_match(service)
    board = await service.play.movers_board(HERE, ANN)
    version = board.game.version
    report = await service.play.move_on(HERE, ANN, board, read_action("B1-D2"))
    assert report.action == "B1-D2" and report.board.game.version == version + 1


async def test_a_move_on_a_board_the_game_has_moved_past_changes_nothing(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    seen = await service.play.movers_board(HERE, ANN)
    await service.play.move(HERE, ANN, read_action("B1-D2"))
    await service.play.move(HERE, BOB, read_action("D5-E3"))  # Ann's turn again, on a newer version
    with pytest.raises(GameChanged) as refused:
        await service.play.move_on(HERE, ANN, seen, read_action("C1-E2"))
    assert refused.value.code is Code.CHANGED_MEANWHILE
    stored = await store.games.active(HERE.channel_id)
    assert stored is not None and stored.engine.history == ["B1-D2", "D5-E3"]
