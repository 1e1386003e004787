"""The use cases of Jarmo for Discord, independent of Discord: the same calls serve the slash
commands, the console mode and the tests. :class:`JarmoService` only puts the use-case modules
together over one shared service kit."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

from bot import store as st
from bot.service._ending import GameEnder
from bot.service._reports import Reports
from bot.service.announcements import AnnouncementCases
from bot.service.challenges import ChallengeCases
from bot.service.clocks import ClockCases
from bot.service.computer_turns import ComputerTurns
from bot.service.game_feed import GameFeed
from bot.service.kit import ServiceKit, utc_now
from bot.service.match_events import MatchListeners
from bot.service.models import Actor, ServiceConfig
from bot.service.pings import TurnPings
from bot.service.play import PlayCases
from bot.service.player_games import PlayerGames
from bot.service.ratings import Ratings
from bot.service.rematches import RematchCases
from bot.service.reviews import ReviewCases
from bot.service.server_pages import ServerPages
from bot.service.servers import ServerSettingsCases
from bot.service.spectators import Spectators, WebSecret
from bot.service.standings import StandingsCases
from bot.service.stats import PlayerStats
from bot.service.takebacks import TakebackCases
from bot.service.tournaments.cases import TournamentCases
from bot.service.vacations import VacationCases
from bot.service.venues import VenueCases
from bot.service.watching import WatchCases


class JarmoService:
    """The use cases by area (``challenges``, ``play``, ``clocks``, ``standings``, ``stats``,
    ``computer_turns``, ``announcements``, ...) on top of a ``Store``, and the live board's
    ``feed`` of game changes (started and stopped by the live board's server).

    ``computer`` is the computer opponent's identity when the front end plays one: its games are
    never rated. ``unrated_players`` adds other players whose games are not rated.
    """

    def __init__(
        self,
        store: st.Store,
        *,
        config: ServiceConfig | None = None,
        clock: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        computer: Actor | None = None,
        unrated_players: frozenset[int] = frozenset(),
    ) -> None:
        unrated = unrated_players | ({computer.user_id} if computer else set())
        self.kit = ServiceKit(
            store,
            config=config or ServiceConfig(),
            clock=clock,
            rng=rng or random.Random(),
            ratings=Ratings(unrated_players=unrated),
            computer=computer,
        )
        reports = Reports(self.kit)
        # Told of every match that ends, however it ended; the front end adds its own (a
        # thread renamed with the result).
        self.match_listeners = match_listeners = MatchListeners()
        ender = GameEnder(self.kit, reports, match_listeners)
        self.challenges = ChallengeCases(self.kit, reports)
        self.play = PlayCases(self.kit, reports, ender)
        self.watching = WatchCases(self.kit, self.play, reports)  # the live board
        self.clocks = ClockCases(self.kit, reports, ender)
        self.standings = StandingsCases(self.kit, reports)
        self.stats = PlayerStats(store.ratings, store.results, store.games, self.kit.names)
        self.computer_turns = ComputerTurns(self.kit)
        self.announcements = AnnouncementCases(self.kit)
        # rematches, per-server settings, matches whose thread is deleted
        self.rematches = RematchCases(self.kit, self.challenges)
        self.servers = ServerSettingsCases(store.state)
        self.venues = VenueCases(self.kit, ender)
        # tournaments hear of every match that ends
        self.tournaments = TournamentCases(self.kit, ender, reports, self.challenges)
        match_listeners.add(self.tournaments.match_ended)
        self.server_pages = ServerPages(
            self.kit, self.servers, self.stats, self.tournaments.history
        )
        self.reviews = ReviewCases(self.kit)
        self.pings = TurnPings(self.kit)
        self.vacations = VacationCases(self.kit)
        # a player's unfinished games in every server
        self.player_games = PlayerGames(self.kit)
        self.takebacks = TakebackCases(self.kit, reports, self.servers)
        # the live board: changes of games as they commit, who watches, the links' secret
        self.feed = GameFeed(store.changes)
        self.spectators = Spectators(store.spectators, self.kit.now)
        self._web_secret = WebSecret(store.state)

    def with_computer(self, computer: Actor) -> JarmoService:
        """A service like this one (same store, settings, clock and random source) that plays
        ``computer`` as the computer opponent."""
        kit = self.kit
        return JarmoService(
            kit.store,
            config=kit.config,
            clock=kit.clock,
            rng=kit.rng,
            computer=computer,
            unrated_players=kit.ratings.unrated_players,
        )

    async def web_secret(self) -> bytes:
        """The secret that signs live board links (the same for every process on the
        database)."""
        return await self._web_secret()

    @property
    def config(self) -> ServiceConfig:
        """The settings the service runs with."""
        return self.kit.config

    def now(self) -> datetime:
        """The service's clock (UTC); the background jobs run on the same one."""
        return self.kit.now()

    def is_computer(self, user_id: int | None) -> bool:
        """Whether ``user_id`` is the computer opponent."""
        return self.kit.is_computer(user_id)
