"""What a server's web page reads, on each backend: the server's latest ended games and its
newest tournaments, newest first, and nothing of another server's or of games outside
servers."""

from __future__ import annotations

import random

from bot.service import JarmoService, Place, ServiceConfig
from bot.service.tournaments.views import TournamentRequest
from bot.store import Store
from tests.fakes import FakeClock
from tests.ratings.ratings_helpers import ANN, BOB, CAT, HERE, play_resign, start
from tests.store.store_helpers import T0

OTHER_SERVER = Place(2, 20)
OUTSIDE_SERVERS = Place(None, 30)


def service_on(store: Store) -> JarmoService:
    # A second a reading: every game ends at its own moment.
    clock = FakeClock(T0, tick_seconds=1)
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))


async def test_a_servers_latest_games_are_its_own_ended_games_newest_first(store: Store) -> None:
    service = service_on(store)
    first = await play_resign(service, winner=ANN, loser=BOB)
    await play_resign(service, winner=ANN, loser=BOB, place=OTHER_SERVER)
    second = await play_resign(service, winner=BOB, loser=CAT)
    await play_resign(service, winner=BOB, loser=CAT, place=OUTSIDE_SERVERS)
    third = await play_resign(service, winner=CAT, loser=ANN)
    await start(service, ANN, BOB)  # still being played

    ids = [game.id for game in await store.results.server_games(1, limit=10)]
    assert ids == [third.board.game.id, second.board.game.id, first.board.game.id]
    latest = await store.results.server_games(1, limit=2)
    assert [game.id for game in latest] == ids[:2]
    assert latest[0].status == "resigned" and latest[0].winner == "black"


async def test_a_servers_newest_tournaments_come_first(store: Store) -> None:
    service = service_on(store)
    created = []
    for channel, place in enumerate((HERE, HERE, OTHER_SERVER, HERE)):
        where = Place(place.guild_id, 100 + channel)
        request = TournamentRequest(f"Cup {channel}", "round-robin")
        view = await service.tournaments.create(where, ANN, request, moderator=True)
        created.append(view.tournament)
    ours = [t.id for t in created if t.guild_id == 1]
    assert [t.id for t in await store.tournaments.of_server(1, limit=10)] == ours[::-1]
    assert [t.id for t in await store.tournaments.of_server(1, limit=1)] == ours[-1:]
    assert await store.tournaments.of_server(3, limit=10) == []
