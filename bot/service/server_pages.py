"""A server's own web page, when the server has turned it on: its ratings, its latest games with
every position of each, and its tournaments' tables. Read only; values, no words."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot import store as st
from bot.jarmo import RULESETS
from bot.jarmo.position import Position, Side
from bot.service import errors
from bot.service._seats import game_by_id
from bot.service.kit import ServiceKit
from bot.service.servers import ServerSettingsCases
from bot.service.stats import PlayerStats
from bot.service.stats_models import LeaderboardRow
from bot.service.tournaments.history import TournamentHistory
from bot.service.tournaments.views import TableView
from bot.service.watching import SIDES

LEADERBOARD_ROWS = 50
LATEST_GAMES = 30
LATEST_TOURNAMENTS = 10


@dataclass(frozen=True, slots=True)
class RulesetLeaderboard:
    """The server's best ``LEADERBOARD_ROWS`` players in one ruleset."""

    ruleset: str
    rows: tuple[LeaderboardRow, ...]


@dataclass(frozen=True, slots=True)
class EndedGame:
    """One of the server's ended games, with its players' names."""

    result: st.GameResultRecord
    names: dict[Side, str]


@dataclass(frozen=True, slots=True)
class ServerOverview:
    """What the server's page shows first: its leaderboards (rulesets nobody is rated in are
    left out), its latest ended games and its newest tournaments' tables, newest first."""

    guild_id: int
    leaderboards: tuple[RulesetLeaderboard, ...]
    games: tuple[EndedGame, ...]
    tournaments: tuple[TableView, ...]


@dataclass(frozen=True, slots=True)
class GameReplay:
    """An ended game of the server, every position from the start (``positions[i]`` after
    ``i`` plies), as the bot's rules engine plays it."""

    game: EndedGame
    moves: tuple[str, ...]
    positions: tuple[Position, ...]


class ServerPages:
    """The server page's reads. Each refuses with ``NotAllowed`` (``WEB_PAGES_OFF``) while the
    server has its page turned off, so a link given out earlier stops working at once."""

    def __init__(
        self,
        kit: ServiceKit,
        servers: ServerSettingsCases,
        stats: PlayerStats,
        tournaments: TournamentHistory,
    ) -> None:
        self._kit = kit
        self._servers = servers
        self._stats = stats
        self._tournaments = tournaments

    async def overview(self, guild_id: int) -> ServerOverview:
        """The server's leaderboards, latest games and tournaments."""
        await self._check_on(guild_id)
        store = self._kit.store
        leaderboards = []
        for ruleset in RULESETS:
            rows = await self._stats.top(guild_id, ruleset, limit=LEADERBOARD_ROWS)
            if rows:
                leaderboards.append(RulesetLeaderboard(ruleset, tuple(rows)))
        results = await store.results.server_games(guild_id, limit=LATEST_GAMES)
        return ServerOverview(
            guild_id,
            tuple(leaderboards),
            tuple([await self._ended(result) for result in results]),
            await self._tournaments.server_tables(guild_id, limit=LATEST_TOURNAMENTS),
        )

    async def replay(self, guild_id: int, game_id: int) -> GameReplay:
        """Every position of one of the server's ended games. Raises ``NoStats``
        (``GAME_NOT_IN_HISTORY``) for a game that is unknown, another place's, or not ended."""
        await self._check_on(guild_id)
        result = await self._kit.store.results.game_result(game_id)
        if result is None or result.guild_id != guild_id:
            raise errors.NoStats(errors.Code.GAME_NOT_IN_HISTORY, game=game_id)
        engine = (await game_by_id(self._kit, game_id)).engine
        positions = await asyncio.to_thread(engine.positions)
        return GameReplay(await self._ended(result), tuple(engine.history), tuple(positions))

    async def _check_on(self, guild_id: int) -> None:
        if not (await self._servers.settings(guild_id)).web_pages:
            raise errors.NotAllowed(errors.Code.WEB_PAGES_OFF)

    async def _ended(self, result: st.GameResultRecord) -> EndedGame:
        ids: dict[Side, int] = {"white": result.white_id, "black": result.black_id}
        names = {side: await self._kit.names(result.guild_id, ids[side]) for side in SIDES}
        return EndedGame(result, names)
