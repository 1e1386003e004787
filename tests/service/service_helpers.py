"""Shared pieces of the service tests: players, a place, a controllable clock, a match opener."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.service import Actor, ChallengeRequest, JarmoService, Place

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


async def start_match(
    service: JarmoService,
    *,
    games: int = 1,
    ruleset: str = "classic",
    side: str = "white",
    place: Place = HERE,
):
    """Ann challenges Bob (Ann White in game 1 by default) and Bob accepts."""
    request = ChallengeRequest(BOB, games=games, ruleset=ruleset, side=side)
    view = await service.challenge(place, ANN, request)
    return await service.accept_challenge(BOB, view.challenge.id)
