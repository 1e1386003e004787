"""The watching use cases: a game found by its id, its snapshot through a match, and a move
made by id with the same refusals as one made in the channel."""

from __future__ import annotations

import pytest

from bot.service import GameChanged, JarmoService, NotAPlayer, NotYourTurn, Place, read_action
from bot.store import SqliteStore
from tests.service.service_helpers import ANN, BOB, CAT, HERE, start_match
from tests.statements import traced


async def test_a_resigned_game_shows_its_result(service: JarmoService) -> None:
    board = await start_match(service, games=2)
    await service.play.resign(HERE, BOB)
    ended = await service.watching.snapshot(board.game.id)
    assert (ended.status, ended.winner, ended.reason, ended.turn) == (
        "resigned",
        "white",
        "resigned",
        None,
    )
    assert ended.legal == () and ended.deadline is None
    assert (ended.game_number, ended.games) == (1, 2)
    assert await service.watching.game_in_channel(HERE) is None  # the match is forfeited


async def test_a_move_by_id_is_refused_like_one_in_the_channel(service: JarmoService) -> None:
    board = await start_match(service)
    game_id = board.game.id
    shown = await service.watching.snapshot(game_id)
    move = read_action(shown.legal[0].text)
    with pytest.raises(NotAPlayer):
        await service.watching.move(game_id, CAT.user_id, move, expected_version=shown.version)
    with pytest.raises(NotYourTurn):
        await service.watching.move(game_id, BOB.user_id, move, expected_version=shown.version)
    with pytest.raises(GameChanged):
        await service.watching.move(game_id, ANN.user_id, move, expected_version=shown.version + 1)
    report = await service.watching.move(game_id, ANN.user_id, move, expected_version=shown.version)
    assert report.board.game.version == shown.version + 1
    with pytest.raises(GameChanged):  # the page that showed the old version is stale now
        await service.watching.move(game_id, BOB.user_id, move, expected_version=shown.version)


async def test_outside_servers_a_move_by_id_is_announced_nowhere(service: JarmoService) -> None:
    dm = Place(None, 77)
    board = await start_match(service, place=dm)
    shown = await service.watching.snapshot(board.game.id)
    await service.watching.move(
        board.game.id, ANN.user_id, read_action(shown.legal[0].text), expected_version=shown.version
    )
    assert await service.kit.store.outbox.claim(now=service.now(), lease_seconds=60) == []


async def test_a_channel_without_a_game_has_none(service: JarmoService) -> None:
    assert await service.watching.game_in_channel(HERE) is None
    await start_match(service)
    assert await service.watching.game_in_channel(Place(999, HERE.channel_id)) is None


async def test_the_score_is_the_matchs_as_its_standings_count_it(service: JarmoService) -> None:
    await start_match(service, games=2)
    offer = await service.play.offer_stop(HERE, ANN)
    await service.play.accept_stop(HERE, BOB, offer)  # game 1 stopped level: a draw
    second = await service.watching.game_in_channel(HERE)
    assert second is not None
    shown = await service.watching.snapshot(second)
    standings = await service.standings.current(HERE)
    assert shown.game_number == 2
    assert {shown.player_ids[side]: shown.score[side] for side in ("white", "black")} == (
        standings.totals
    )


async def test_a_move_by_id_reads_the_game_once(service: JarmoService, store: SqliteStore) -> None:
    board = await start_match(service)
    shown = await service.watching.snapshot(board.game.id)
    async with traced(store) as statements:
        await service.watching.move(
            board.game.id, ANN.user_id, read_action("A1-C2"), expected_version=shown.version
        )
    # The game with its match, and the write's read of the match's period (as /jarmo move).
    reads = [text for text in statements.statements if text.startswith("SELECT")]
    assert len(reads) == 2, reads
