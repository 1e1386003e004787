"""Players' results and game history (reads).

Every query walks an index from migration 0003 (see ``bench/leaderboard.py`` for timings):
``games_by_white`` / ``games_by_black`` for a player's games.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, Executable, RowMapping, func, select, union_all

from bot.store._sql import Reader
from bot.store.rating_records import (
    COUNTED_STATUSES,
    GameResultRecord,
    Outcome,
    PlayerStatsRecord,
    Streak,
    Tally,
)
from bot.store.schema import actions, games, matches, players

# A game's ply count: its last action's, one step down the actions' primary key (the game's
# version counts every change, not its actions).
_PLIES = (
    select(func.coalesce(func.max(actions.c.ply), 0))
    .where(actions.c.game_id == games.c.id)
    .scalar_subquery()
    .label("plies")
)
_RESULTS = select(
    games.c.id, games.c.match_id, games.c.game_index, games.c.guild_id, games.c.channel_id,
    matches.c.ruleset, matches.c.layout, games.c.white_id, games.c.black_id, games.c.status,
    games.c.winner, games.c.points_white, games.c.points_black, games.c.termination,
    _PLIES, games.c.rated, games.c.finished_at,
).join(matches, matches.c.id == games.c.match_id)  # fmt: skip
_COUNTED = games.c.status.in_(sorted(COUNTED_STATUSES))
_STREAK_BATCH = 32


def _side_columns(side: str) -> tuple[ColumnElement[int], ColumnElement[int]]:
    """(the player's id column, the opponent's) when the player has ``side``."""
    if side == "white":
        return games.c.white_id, games.c.black_id
    return games.c.black_id, games.c.white_id


class SqlResults:
    """The :class:`~bot.store.interface.ResultStore`."""

    def __init__(self, reader: Reader) -> None:
        self._db = reader

    async def _rows(self, statement: Executable) -> Sequence[RowMapping]:
        return await self._db.rows(statement)

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStatsRecord:
        """The player's results as White and Black, matches and streak on the server."""
        played, won, lost = await self._match_counts(guild_id, user_id)
        names = await self._rows(
            select(players.c.display_name).where(
                players.c.guild_id == guild_id, players.c.user_id == user_id
            )
        )
        return PlayerStatsRecord(
            guild_id=guild_id,
            user_id=user_id,
            display_name=next((row["display_name"] for row in names), None),
            as_white=await self._tally(guild_id, user_id, "white"),
            as_black=await self._tally(guild_id, user_id, "black"),
            matches=played,
            match_wins=won,
            match_losses=lost,
            streak=await self._streak(guild_id, user_id),
        )

    async def _tally(
        self, guild_id: int | None, user_id: int, side: str, opponent_id: int | None = None
    ) -> Tally:
        """The player's results in ended games where they had ``side`` (against
        ``opponent_id`` only, if given)."""
        own_points, other_points = (games.c.points_white, games.c.points_black)[
            :: 1 if side == "white" else -1
        ]
        mine, theirs = _side_columns(side)
        winner = games.c.winner
        query = select(
            func.count(),
            func.count().filter(winner == side),
            func.count().filter(winner.is_(None)),
            func.count().filter(winner.is_not(None) & (winner != side)),
            func.coalesce(func.sum(own_points), 0),
            func.coalesce(func.sum(other_points), 0),
        ).where(games.c.guild_id == guild_id, mine == user_id, _COUNTED)
        if opponent_id is not None:
            query = query.where(theirs == opponent_id)
        rows = await self._rows(query)
        return Tally(*(int(value) for value in rows[0].values()))

    async def head_to_head(self, guild_id: int | None, user_id: int, opponent_id: int) -> Tally:
        """The player's results against one opponent."""
        white = await self._tally(guild_id, user_id, "white", opponent_id)
        return white + await self._tally(guild_id, user_id, "black", opponent_id)

    async def _match_counts(self, guild_id: int | None, user_id: int) -> tuple[int, int, int]:
        """(matches ended with a result, won, lost) for the player."""
        winner = matches.c.winner_id
        rows = await self._rows(
            select(
                func.count().label("played"),
                func.count().filter(winner == user_id).label("won"),
                func.count().filter(winner.is_not(None) & (winner != user_id)).label("lost"),
            )
            .where(matches.c.guild_id == guild_id)
            .where((matches.c.first_white_id == user_id) | (matches.c.first_black_id == user_id))
            .where(matches.c.state.in_(("finished", "forfeited")))
        )
        row = rows[0]
        return int(row["played"]), int(row["won"]), int(row["lost"])

    async def _streak(self, guild_id: int | None, user_id: int) -> Streak:
        """The run of equal results in the player's latest ended games."""
        limit = _STREAK_BATCH
        while True:
            games = await self.recent_games(guild_id, user_id, limit=limit)
            results = [game.result_for(user_id) for game in games]
            if not results:
                return Streak()
            length = _run_length(results)
            if length < len(results) or len(results) < limit:
                return Streak(results[0], length)
            limit *= 4  # the streak may go on beyond what was read

    async def recent_games(
        self,
        guild_id: int | None,
        player_id: int,
        opponent_id: int | None = None,
        *,
        limit: int = 10,
    ) -> list[GameResultRecord]:
        """The player's latest ended games (against ``opponent_id`` only, if given), newest
        first."""
        # The newest `limit` as White and as Black, each an index walk in finished_at order,
        # merged. (One query with `white_id = ? OR black_id = ?` would sort all of the
        # player's games first.)
        newest_first = (games.c.finished_at.desc(), games.c.id.desc())
        sides = []
        for side in ("white", "black"):
            mine, theirs = _side_columns(side)
            ids = select(games.c.id).where(games.c.guild_id == guild_id, mine == player_id)
            if opponent_id is not None:
                ids = ids.where(theirs == opponent_id)
            ids = ids.where(_COUNTED).order_by(*newest_first).limit(limit)
            sides.append(select(ids.subquery(f"as_{side}")))
        latest = union_all(*sides).subquery("latest")
        query = (
            _RESULTS.join(latest, latest.c.id == games.c.id).order_by(*newest_first).limit(limit)
        )
        return [_result(row) for row in await self._rows(query)]

    async def server_games(self, guild_id: int, *, limit: int) -> list[GameResultRecord]:
        """See :meth:`ResultStore.server_games`."""
        latest = (games.c.finished_at.desc(), games.c.id.desc())
        query = _RESULTS.where(games.c.guild_id == guild_id, _COUNTED).order_by(*latest)
        return [_result(row) for row in await self._rows(query.limit(limit))]

    async def game_result(self, game_id: int) -> GameResultRecord | None:
        """One game as history shows it, if it has ended with a result."""
        rows = await self._rows(_RESULTS.where(games.c.id == game_id, _COUNTED))
        return _result(rows[0]) if rows else None


def _run_length(results: list[Outcome]) -> int:
    for count, result in enumerate(results):
        if result != results[0]:
            return count
    return len(results)


def _result(row: RowMapping) -> GameResultRecord:
    return GameResultRecord(
        id=row["id"],
        match_id=row["match_id"],
        index=row["game_index"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        ruleset=row["ruleset"],
        layout=row["layout"],
        white_id=row["white_id"],
        black_id=row["black_id"],
        status=row["status"],
        winner=row["winner"],
        points={"white": row["points_white"], "black": row["points_black"]},
        termination=row["termination"],
        plies=row["plies"],
        rated=bool(row["rated"]),
        finished_at=datetime.fromisoformat(row["finished_at"]),
    )
