"""Shared pieces of the service tests: players, a place, a match opener."""

from __future__ import annotations

from bot.service import Actor, BoardView, ChallengeRequest, JarmoService, Place

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
CAT = Actor(303, "Cat")
GUILD = 1
HERE = Place(guild_id=GUILD, channel_id=10)


async def start_match(
    service: JarmoService,
    *,
    games: int = 1,
    ruleset: str = "classic",
    side: str = "white",
    place: Place = HERE,
) -> BoardView:
    """Ann challenges Bob (Ann White in game 1 by default) and Bob accepts."""
    request = ChallengeRequest(BOB, games=games, ruleset=ruleset, side=side)
    view = await service.challenges.post(place, ANN, request)
    return await service.challenges.accept(BOB, view.challenge.id)
