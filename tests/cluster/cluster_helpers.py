"""Two bot processes over one database, as the service sees them: each node has its own
service (its own locks, signals and caches), its own background jobs and the shards it owns;
nothing is shared between them but the store."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.jarmo import Game
from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.service.computer import ComputerOpponent
from bot.service.deadlines import DeadlineScheduler
from bot.service.delivery import AnnouncementDelivery, Delivery
from bot.service.shards import ShardSet
from bot.store import Store
from tests.fakes import FakeClock

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
COMPUTER = Actor(999, "Jarmo", is_bot=True)
SHARDS = 2


def guild_on(shard: int, number: int = 0) -> int:
    """A server id whose events go to ``shard`` of ``SHARDS`` (``number`` tells them apart)."""
    return ((100 + number * SHARDS + shard) << 22) | 7


def places(count: int) -> list[Place]:
    """``count`` channels, one per server, the servers alternating between the two shards."""
    return [Place(guild_on(n % SHARDS, n), 1_000 + n) for n in range(count)]


async def first_legal_move(data: dict[str, object], level: str, seed: int) -> str:
    """The computer's thinking, made instant and predictable."""
    return Game.from_dict(data).legal_moves()[0]


@dataclass
class Posts:
    """A front end that records what it posts."""

    posted: list[Delivery] = field(default_factory=list)

    async def __call__(self, delivery: Delivery) -> None:
        self.posted.append(delivery)


class Node:
    """One bot process: a service with the computer opponent, its scheduler and delivery loop,
    working for the servers of ``shards``."""

    def __init__(self, store: Store, clock: FakeClock, shards: ShardSet) -> None:
        self.shards = shards
        self.service = JarmoService(store, clock=clock, rng=random.Random(0), computer=COMPUTER)
        self.scheduler = DeadlineScheduler(self.service, shards=shards)
        self.posts = Posts()
        self.delivery = AnnouncementDelivery(self.service, self.posts)
        self.computer = ComputerOpponent(self.service, think=first_legal_move)


async def start_timed_match(service: JarmoService, place: Place, time_per_move: str) -> None:
    """Ann (White) challenges Bob with this time limit in ``place``, and Bob accepts."""
    request = ChallengeRequest(BOB, side="white", time_per_move=time_per_move)
    view = await service.challenges.post(place, ANN, request)
    await service.challenges.accept(BOB, view.challenge.id)


async def start_computer_game(node: Node, place: Place) -> None:
    """Ann plays the computer in ``place`` and has made her first move: the computer's turn."""
    await node.computer.start(place, ANN, ChallengeRequest(COMPUTER, side="white"))
    game = (await node.service.play.board(place)).game.engine
    await node.service.play.move(place, ANN, read_action(game.legal_moves()[0]))
