"""Running whole tournaments through the service: a host that opens numbered channels and
records what the outbox delivers for it, players 1..n, and matches decided by resigning or by
agreed stops."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.service import Actor, JarmoService, Place, ServiceConfig
from bot.service.delivery import (
    AnnouncementDelivery,
    Delivery,
    RoundNotice,
    TableNotice,
    WelcomeNotice,
)
from bot.service.tournaments.draw import Pairing, PlayerId
from bot.service.tournaments.views import MatchWelcome, RoundView, TableView, TournamentRequest
from bot.service.venues import NewMatch
from bot.store import Store

GUILD = 1
LOBBY = Place(GUILD, 10)
MODERATOR = Actor(99, "Mod")
START_POINTS = 5  # each side's points in a fresh game: a game ended at once scores 5-5


def player(number: int) -> Actor:
    """Player ``number`` (their user id), named P<number>."""
    return Actor(number, f"P{number}")


@dataclass
class RecordingHost:
    """The front end's part (the service's ``Venue``): each match gets the next channel id from
    1000; what the outbox delivers (``deliver``) is recorded by kind, and every delivery in
    order in ``posted``."""

    opened: list[tuple[str, str]] = field(default_factory=list)
    rounds: list[RoundView] = field(default_factory=list)
    welcomes: list[MatchWelcome] = field(default_factory=list)
    tables: list[TableView] = field(default_factory=list)
    posted: list[Delivery] = field(default_factory=list)
    refuse: bool = False  # open no places (Discord refusing threads)

    async def open(self, match: NewMatch) -> int | None:
        """The service's ``Venue``: the next channel id, unless refusing."""
        if self.refuse:
            return None
        self.opened.append((match.first_name, match.second_name))
        return 1000 + len(self.opened)

    async def post(self, delivery: Delivery) -> None:
        """The delivery loop's poster."""
        self.posted.append(delivery)
        match delivery:
            case RoundNotice(round=view):
                self.rounds.append(view)
            case WelcomeNotice(welcome=welcome):
                self.welcomes.append(welcome)
            case TableNotice(table=table):
                self.tables.append(table)

    async def deliver(self, service: JarmoService) -> None:
        """Post everything the outbox can deliver now (passes until one finds nothing)."""
        delivery = AnnouncementDelivery(service, self.post)
        while await delivery.deliver_due():
            pass


def make_service(store: Store, clock: Callable[[], datetime]) -> JarmoService:
    """A service on ``store`` with a fixed random source."""
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))


async def always(_: int) -> bool:
    """Everyone is still a member."""
    return True


async def sign_up(
    service: JarmoService, count: int, *, format: str, rounds: int | None = None, games: int = 2
) -> int:
    """Create a tournament in the lobby and enter players 1..``count``; its id."""
    request = TournamentRequest("Spring cup", format, rounds=rounds, games=games)
    view = await service.tournaments.create(LOBBY, MODERATOR, request, moderator=True)
    for number in range(1, count + 1):
        await service.tournaments.join(view.tournament.id, player(number))
    return view.tournament.id


def stronger_wins(round_number: int, pairing: Pairing) -> PlayerId | None:
    """The lower id wins; neighbouring ids draw."""
    a, b = pairing.players
    return None if abs(a - b) == 1 else min(a, b)


def points_of(winner: PlayerId | None, games: int = 2) -> tuple[int, int]:
    """Game points of both players in a match ended as ``play_match`` ends it: a resignation
    in the first game, or every game stopped by agreement at once."""
    return (START_POINTS, START_POINTS) if winner is not None else (START_POINTS * games,) * 2


async def play_match(
    service: JarmoService, channel_id: int, first: int, second: int, winner: int | None
) -> None:
    """End the match in ``channel_id``: the loser resigns, or both agree to stop each game."""
    here = Place(GUILD, channel_id)
    if winner is not None:
        loser = second if winner == first else first
        await service.play.resign(here, player(loser))
        return
    while True:
        game = await service.kit.store.games.active(channel_id)
        if game is None:
            return
        mover = game.player_id(game.engine.turn)
        other = second if mover == first else first
        offer = await service.play.offer_stop(here, player(mover))
        await service.play.accept_stop(here, player(other), offer)


async def play_current_round(
    service: JarmoService,
    tournament_id: int,
    decide: Callable[[int, Pairing], PlayerId | None] = stronger_wins,
) -> None:
    """Play every match of the current round as ``decide`` says, then let the event advance."""
    tournament = await service.kit.store.tournaments.get(tournament_id)
    for pairing in await service.kit.store.tournaments.pairings(tournament_id):
        if pairing.round != tournament.current_round or pairing.decided:
            continue
        assert pairing.match_id is not None and pairing.second_id is not None
        match = await service.kit.store.games.match(pairing.match_id)
        winner = decide(pairing.round, Pairing(pairing.first_id, pairing.second_id))
        await play_match(service, match.channel_id, pairing.first_id, pairing.second_id, winner)
    await service.tournaments.rounds.advance_all()
    await deliver_posts(service)


async def deliver_posts(service: JarmoService) -> None:
    """What the outbox holds for the service's recording host, delivered to it."""
    host = service.tournaments.rounds.venue
    assert isinstance(host, RecordingHost)
    await host.deliver(service)
