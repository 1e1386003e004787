"""Constants and helpers shared by the rating tests (fixtures are in conftest.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.service import Actor, ChallengeRequest, JarmoService, Place, Report
from bot.store import RatingRecord, Skill

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
CAT = Actor(303, "Cat")
GUILD = 1
HERE = Place(guild_id=GUILD, channel_id=10)
THERE = Place(guild_id=GUILD, channel_id=11)
T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


async def start(
    service: JarmoService, white: Actor = ANN, black: Actor = BOB, *, games: int = 1,
    ruleset: str = "classic", place: Place = HERE,
) -> None:  # fmt: skip
    """``white`` challenges ``black`` (``white`` has White in game 1) and it is accepted."""
    request = ChallengeRequest(black, games=games, ruleset=ruleset, side="white")
    view = await service.challenges.post(place, white, request)
    await service.challenges.accept(black, view.challenge.id)


async def play_resign(
    service: JarmoService, winner: Actor, loser: Actor, *, ruleset: str = "classic",
    place: Place = HERE,
) -> Report:  # fmt: skip
    """A one-game match that ``loser`` (White) resigns."""
    await start(service, loser, winner, ruleset=ruleset, place=place)
    return await service.play.resign(place, loser)


async def play_draw(
    service: JarmoService, white: Actor, black: Actor, *, ruleset: str = "classic",
    place: Place = HERE,
) -> Report:  # fmt: skip
    """A one-game match stopped by agreement at the start: level on the board, so a draw."""
    await start(service, white, black, ruleset=ruleset, place=place)
    offer = await service.play.offer_stop(place, white)
    return await service.play.accept_stop(place, black, offer)


def rating_row(user_id: int, rating: float, games: int, *, guild: int = GUILD) -> RatingRecord:
    """A made-up rating row for ordering tests."""
    return RatingRecord(
        guild_id=guild, ruleset="classic", user_id=user_id, skill=Skill(25.0, 5.0, rating),
        games=games, wins=games, draws=0, losses=0, points=games * 10, match_wins=0,
        last_game_at=T0,
    )  # fmt: skip
