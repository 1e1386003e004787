"""Writes ``before_alembic.sqlite`` and ``before_alembic.postgresql.sql``: a database on each
backend as the bot stored it before its schema moved to Alembic (made with the code of commit
49bd0b4, schema version 10, kept in ``PRAGMA user_version`` and ``jarmo_schema_version``).

They are kept as made, so that the tests upgrade what an older bot really wrote. To make them
again, run this file with that commit's code first on the import path, from this checkout:
``git worktree add /tmp/old 49bd0b4``, then
``PYTHONPATH=/tmp/old:tests python tests/data/make_before_alembic.py``. The PostgreSQL one is a
plain-SQL ``pg_dump --inserts`` of the schema ``jarmo_before`` (a private server is started, as
the tests start theirs: see ``tests/postgres.py``).

Each holds, in one server:
- channel ``RUNNING``: a one-game match between Ann and Bob with a day per move, four moves
  played, its first reminder sent (an outbox entry);
- channel ``FINISHED``: a finished, rated one-game match between Ann and Cat (ratings and their
  history), and that game's stored review;
- channel ``CHALLENGED``: Bob's pending challenge to Cat;
- channel ``EVENT``: a round-robin tournament of Ann, Bob and Cat, round 1 started (its
  pairings, matches and the outbox entries that announce them).
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.service.tournament_views import TournamentRequest
from postgres import start_server

from bot.service import Actor, ChallengeRequest, JarmoService, Place
from bot.service.errors import NoGameHere
from bot.store import open_any

FOLDER = Path(__file__).parent
SQLITE = FOLDER / "before_alembic.sqlite"
DUMP = FOLDER / "before_alembic.postgresql.sql"
SCHEMA = "jarmo_before"
GUILD = 900_000_000_000_000_101
RUNNING, FINISHED, CHALLENGED, EVENT = (
    900_000_000_000_000_102,
    900_000_000_000_000_103,
    900_000_000_000_000_104,
    900_000_000_000_000_105,
)
ANN = Actor(900_000_000_000_000_111, "Ann")
BOB = Actor(900_000_000_000_000_112, "Bob")
CAT = Actor(900_000_000_000_000_113, "Cat")


async def fill(target: str | Path) -> None:
    async with open_any(target) as store:
        service = JarmoService(store)
        await play_with_a_clock(service)
        await finish_and_review(service)
        await service.challenges.post(Place(GUILD, CHALLENGED), BOB, ChallengeRequest(CAT))
        await start_a_tournament(service)


async def play_with_a_clock(service: JarmoService) -> None:
    place = Place(GUILD, RUNNING)
    offer = await service.challenges.post(
        place, ANN, ChallengeRequest(BOB, games=1, side="white", time_per_move="1d")
    )
    await service.challenges.accept(BOB, offer.challenge.id)
    for ply in range(4):
        view = await service.play.board(place)
        await service.play.move(place, (ANN, BOB)[ply % 2], view.game.game.legal_moves()[0])
    (clock,) = await service.clocks.running()
    assert await service.clocks.remind(clock, now=clock.deadline_at - timedelta(minutes=1))


async def finish_and_review(service: JarmoService) -> None:
    place = Place(GUILD, FINISHED)
    offer = await service.challenges.post(place, ANN, ChallengeRequest(CAT, games=1, side="white"))
    await service.challenges.accept(CAT, offer.challenge.id)
    rng = random.Random(1)
    while True:
        try:
            view = await service.play.board(place)
        except NoGameHere:  # the match is over
            break
        game = view.game.game
        mover = ANN if game.turn == "white" else CAT
        await service.play.move(place, mover, rng.choice(game.legal_moves()))
    await service.reviews.review(place, await service.reviews.last_game(place))


async def start_a_tournament(service: JarmoService) -> None:
    place = Place(GUILD, EVENT)
    request = TournamentRequest("Spring Cup", "round-robin", None, 2, "classic")
    view = await service.tournaments.create(place, ANN, request, moderator=True)
    for player in (ANN, BOB, CAT):
        await service.tournaments.join(view.tournament.id, player)

    async def is_member(user_id: int) -> bool:
        return True

    await service.tournaments.start(place, ANN, moderator=True, is_member=is_member)


def make_dump() -> None:
    server = start_server()
    try:
        server.sql(f"CREATE SCHEMA {SCHEMA}")
        url = f"{server.admin_url}&search_path={SCHEMA}"
        asyncio.run(fill(url))
        options = ("--schema", SCHEMA, "--inserts", "--no-owner", "--no-privileges")
        server.run_tool("pg_dump", *options, "-f", "dump.sql", "-d", server.admin_url)
        made = Path(server.admin_url.split("host=", 1)[1]).parent / "dump.sql"
        DUMP.write_text(made.read_text(encoding="utf-8"), encoding="utf-8")
    finally:
        server.stop()


if __name__ == "__main__":
    print(datetime.now(UTC).isoformat(timespec="seconds"), SQLITE, DUMP)
    SQLITE.unlink(missing_ok=True)
    asyncio.run(fill(SQLITE))
    make_dump()
