"""Offers and moves on a game whose version is ahead of its ply count, as a move taken back
leaves it: the version, not the plies, tells whether the game is as it was."""

from __future__ import annotations

from sqlalchemy import update

from bot.service import GameChanged, JarmoService, read_action
from bot.store import SqliteStore
from bot.store.schema import games
from tests.service.service_helpers import ANN, BOB, HERE, start_match
from tests.wording import refused

AHEAD = 4


async def started_ahead(service: JarmoService, store: SqliteStore) -> int:
    """A match between Ann (White) and Bob whose first game's version is ``AHEAD`` of its
    plies; the game's id."""
    view = await start_match(service)
    game_id = view.game.id
    await store._writer.run(
        lambda db: db.execute(
            update(games).where(games.c.id == game_id).values(version=games.c.version + AHEAD)
        )
    )
    return game_id


async def test_a_stop_offer_stands_at_the_version_it_was_made_at(
    service: JarmoService, store: SqliteStore
) -> None:
    await started_ahead(service, store)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    offer = await service.play.offer_stop(HERE, BOB)
    assert offer.version == AHEAD + 1
    report = await service.play.accept_stop(HERE, ANN, offer)
    assert report.ended is not None and report.ended.status == "stopped"
    ended = report.ended.game
    assert (ended.version, len(ended.engine.history)) == (AHEAD + 2, 1)


async def test_a_stop_offer_is_outdated_by_a_move_whatever_the_plies(
    service: JarmoService, store: SqliteStore
) -> None:
    game_id = await started_ahead(service, store)
    offer = await service.play.offer_stop(HERE, ANN)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    with refused(GameChanged, "offer again"):
        await service.play.accept_stop(HERE, BOB, offer)
    record = await store.games.get(game_id)
    assert (record.status, record.version, len(record.engine.history)) == ("active", AHEAD + 1, 1)
