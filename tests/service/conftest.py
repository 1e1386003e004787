"""Service tests run on a real SQLite file in a temporary folder, with a clock the test moves."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.service import Actor, ChallengeRequest, JarmoService, Place, ServiceConfig
from bot.store import open_store

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
CAT = Actor(303, "Cat")
HERE = Place(guild_id=1, channel_id=10)


class FakeClock:
    """A clock that only moves when the test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path):
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store, clock) -> JarmoService:
    return JarmoService(
        store, config=ServiceConfig(challenge_expiry_seconds=600), clock=clock, rng=random.Random(0)
    )


async def start_match(
    service: JarmoService,
    *,
    games: int = 1,
    ruleset: str = "classic",
    side: str = "white",
    place: Place = HERE,
):
    """Ann challenges Bob (Ann White in game 1 by default) and Bob accepts."""
    view = await service.challenge(
        place, ANN, ChallengeRequest(BOB, games=games, ruleset=ruleset, side=side)
    )
    return await service.accept_challenge(BOB, view.challenge.id)
