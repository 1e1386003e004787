"""Shared pieces of the clock tests: players, a place, a bot over a database file, and openers."""

from __future__ import annotations

import random
from pathlib import Path

from bot.jarmo import Game
from bot.service import Actor, BoardView, ChallengeRequest, JarmoService, Place, Report, read_action
from bot.service.deadlines import DeadlineScheduler
from bot.store import SqliteStore
from bot.store._connection import connect_reader
from bot.store._writer import SqliteWriter
from tests.fakes import FakeClock

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
CAT = Actor(303, "Cat")
HERE = Place(guild_id=1, channel_id=10)
ELSEWHERE = Place(guild_id=1, channel_id=11)
PLAYERS = {ANN.user_id: ANN, BOB.user_id: BOB}
COMPUTER = Actor(999, "Jarmo", is_bot=True)
HOUR = 3_600
DAY = 86_400


class Bot:
    """A service (playing ``COMPUTER`` as the computer opponent) and its deadline scheduler
    over one database file, as a running bot has."""

    def __init__(self, store: SqliteStore, clock: FakeClock) -> None:
        self.store = store
        self.service = JarmoService(store, clock=clock, rng=random.Random(0), computer=COMPUTER)
        self.scheduler = DeadlineScheduler(self.service)

    @classmethod
    async def open(cls, path: Path, clock: FakeClock) -> Bot:
        return cls(await SqliteStore.open(path), clock)

    @classmethod
    async def open_beside(cls, path: Path, clock: FakeClock) -> Bot:
        """A second bot's connections on a file another ``Bot`` holds. The process lock keeps a
        second bot process off a file; this stands in for one that got past it (or for the
        server database of the scale-out issue), to show the database alone keeps events once."""
        writer = SqliteWriter()
        await writer.open(path)
        return cls(SqliteStore(writer, connect_reader(path)), clock)

    async def close(self) -> None:
        await self.store.close()


async def start_match(
    service: JarmoService,
    time_per_move: str | None,
    *,
    games: int = 1,
    place: Place = HERE,
) -> BoardView:
    """Ann (White in game 1) challenges Bob with this time limit, and Bob accepts."""
    request = ChallengeRequest(BOB, games=games, side="white", time_per_move=time_per_move)
    view = await service.challenges.post(place, ANN, request)
    return await service.challenges.accept(BOB, view.challenge.id)


async def play_one(service: JarmoService, place: Place = HERE) -> Report:
    """The player to move plays their first legal move (one that does not end the game)."""
    view = await service.play.board(place)
    mover = PLAYERS[view.turn_user_id or 0]
    for move in view.game.engine.legal_moves():
        trial = Game.from_dict(view.game.engine.to_dict())
        trial.play(move)
        if not trial.over:
            return await service.play.move(place, mover, read_action(move))
    raise AssertionError("every legal move ends the game")
