"""A player's unfinished games in every server at once, for ``/jarmo games`` and the console's
``games``: plain data, ordered so that the games waiting for the player come first."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot import store as st
from bot.service._scoring import Scoreboard
from bot.service.kit import ServiceKit

PAGE_SIZE = 10


@dataclass(frozen=True, slots=True)
class PlayerGameLine:
    """One unfinished game as its player sees it in the list. ``score`` is the match's score
    so far (the player's points first); ``time_left`` is the clock of the player to move
    (``None`` without a time control)."""

    game_id: int
    guild_id: int | None
    channel_id: int  # where the game's boards are posted: its channel or its match's thread
    opponent_id: int
    opponent_name: str
    ruleset: str
    game_number: int  # from 1
    game_count: int
    score: tuple[int, int]
    to_move: bool
    time_left: timedelta | None
    clock_paused: bool


@dataclass(frozen=True, slots=True)
class PlayerGamesPage:
    """A page of a player's unfinished games (``page`` counts from 0); ``waiting`` counts the
    games, on every page, where it is the player's move."""

    user_id: int
    page: int
    pages: int
    total: int
    waiting: int
    lines: list[PlayerGameLine]

    @property
    def empty(self) -> bool:
        """Whether the player has no unfinished game."""
        return self.total == 0


class PlayerGames:
    """The unfinished games of one player across servers (one indexed read of the store)."""

    def __init__(self, kit: ServiceKit) -> None:
        self._kit = kit

    async def page(
        self, user_id: int, *, page: int = 0, servers: Collection[int] | None = None
    ) -> PlayerGamesPage:
        """Page ``page`` of ``user_id``'s unfinished games in ``servers`` (every server when
        ``None``), or in the console's case any. The games where it is their move come first,
        each group by soonest deadline (a game without a running clock after those with one),
        then by game id. A page beyond the last shows the last one; a player without games
        gets an empty page 0."""
        now = self._kit.now()
        found = await self._kit.store.games.active_of_player(user_id)
        if servers is not None:
            found = [game for game in found if game.guild_id in servers]
        games = sorted(found, key=lambda game: _order(game, user_id, now))
        pages = max(-(-len(games) // PAGE_SIZE), 1)
        page = min(max(page, 0), pages - 1)
        shown = games[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        lines = [await self._line(game, user_id, now) for game in shown]
        waiting = sum(1 for game in games if _to_move(game, user_id))
        return PlayerGamesPage(user_id, page, pages, len(games), waiting, lines)

    async def _line(self, game: st.GameRecord, user_id: int, now: datetime) -> PlayerGameLine:
        opponent = game.match.opponent_of(user_id)
        return PlayerGameLine(
            game_id=game.id,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            opponent_id=opponent,
            opponent_name=await self._kit.names(game.guild_id, opponent),
            ruleset=game.match.ruleset,
            game_number=game.index + 1,
            game_count=game.match.game_count,
            score=await self._score(game, user_id, opponent),
            to_move=_to_move(game, user_id),
            time_left=game.clock.time_left(now),
            clock_paused=game.clock.paused,
        )

    async def _score(self, game: st.GameRecord, user_id: int, opponent: int) -> tuple[int, int]:
        # The first game of a match has nothing before it to read.
        if game.index == 0:
            return (0, 0)
        board = Scoreboard(game.match, await self._kit.store.games.match_games(game.match_id))
        totals = board.totals()
        return (totals.get(user_id, 0), totals.get(opponent, 0))


def _to_move(game: st.GameRecord, user_id: int) -> bool:
    return game.player_id(game.engine.turn) == user_id


def _order(game: st.GameRecord, user_id: int, now: datetime) -> tuple[bool, bool, timedelta, int]:
    left = game.clock.time_left(now)
    return (not _to_move(game, user_id), left is None, left or timedelta(0), game.id)
