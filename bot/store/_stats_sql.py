"""Players' results and game history on SQLite (the reader connection).

Every query walks an index from migration 0003 (see ``bench/leaderboard.py`` for timings):
``games_by_white`` / ``games_by_black`` for a player's games.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from bot.store._sql import Reader
from bot.store.rating_records import GameResultRecord, Outcome, PlayerStatsRecord, Streak, Tally

_COUNTED = "('finished', 'resigned', 'timeout', 'stopped')"  # COUNTED_STATUSES, as SQL
_RESULT_COLUMNS = (
    "g.id, g.match_id, g.game_index, g.guild_id, g.channel_id, m.ruleset, m.layout, g.white_id,"
    " g.black_id, g.status, g.winner, g.points_white, g.points_black, g.termination, g.version,"
    " g.rated, g.finished_at"
)
# A player's latest ended games: the newest `limit` as White and as Black, each an index walk
# in finished_at order, merged. (One query with `white_id = ? OR black_id = ?` would sort all of
# the player's games first.) The opponent filter is one of two constant fragments.
_LATEST = (
    "SELECT {columns} FROM ("
    " SELECT * FROM (SELECT id FROM games WHERE guild_id = :guild AND white_id = :user"
    f" {{vs_black}} AND status IN {_COUNTED} ORDER BY finished_at DESC, id DESC LIMIT :limit)"
    " AS as_white"
    " UNION ALL"
    " SELECT * FROM (SELECT id FROM games WHERE guild_id = :guild AND black_id = :user"
    f" {{vs_white}} AND status IN {_COUNTED} ORDER BY finished_at DESC, id DESC LIMIT :limit)"
    " AS as_black"
    ") AS latest JOIN games AS g ON g.id = latest.id JOIN matches AS m ON m.id = g.match_id"
    " ORDER BY g.finished_at DESC, g.id DESC LIMIT :limit"
)
_TALLY = (
    "SELECT count(*), count(*) FILTER (WHERE winner = :side),"
    " count(*) FILTER (WHERE winner IS NULL),"
    " count(*) FILTER (WHERE winner IS NOT NULL AND winner <> :side),"
    " coalesce(sum({own}), 0), coalesce(sum({other}), 0)"
    " FROM games WHERE guild_id = :guild AND {column} = :user AND status IN " + _COUNTED
)
_STREAK_BATCH = 32


class SqlResults:
    """The :class:`~bot.store.interface.ResultStore`."""

    def __init__(self, reader: Reader) -> None:
        self._db = reader

    async def _rows(self, sql: str, params: Any = ()) -> Iterable[sqlite3.Row]:
        return await self._db.execute_fetchall(sql, params)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStatsRecord:
        """The player's results as White and Black, matches and streak on the server."""
        matches, won, lost = await self._match_counts(guild_id, user_id)
        names = await self._rows(
            "SELECT display_name FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return PlayerStatsRecord(
            guild_id=guild_id,
            user_id=user_id,
            display_name=next((row[0] for row in names), None),
            as_white=await self._tally(guild_id, user_id, "white"),
            as_black=await self._tally(guild_id, user_id, "black"),
            matches=matches,
            match_wins=won,
            match_losses=lost,
            streak=await self._streak(guild_id, user_id),
        )

    async def _tally(self, guild_id: int, user_id: int, side: str) -> Tally:
        """The player's results in ended games where they had ``side``."""
        own, other = ("points_white", "points_black")[:: 1 if side == "white" else -1]
        sql = _TALLY.format(own=own, other=other, column=f"{side}_id")  # constant names only
        rows = await self._rows(sql, {"side": side, "guild": guild_id, "user": user_id})
        return Tally(*(int(value) for value in next(iter(rows))))

    async def head_to_head(self, guild_id: int, user_id: int, opponent_id: int) -> Tally:
        """The player's results against one opponent."""
        white = await self._pair_tally(guild_id, user_id, opponent_id, "white")
        return white + await self._pair_tally(guild_id, user_id, opponent_id, "black")

    async def _pair_tally(self, guild_id: int, user_id: int, opponent_id: int, side: str) -> Tally:
        own, other = ("points_white", "points_black")[:: 1 if side == "white" else -1]
        opposite = "black" if side == "white" else "white"
        sql = _TALLY.format(own=own, other=other, column=f"{side}_id")
        sql += f" AND {opposite}_id = :opponent"
        params = {"side": side, "guild": guild_id, "user": user_id, "opponent": opponent_id}
        return Tally(*(int(value) for value in next(iter(await self._rows(sql, params)))))

    async def _match_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """(matches ended with a result, won, lost) for the player."""
        rows = await self._rows(
            "SELECT count(*), count(*) FILTER (WHERE winner_id = :user),"
            " count(*) FILTER (WHERE winner_id IS NOT NULL AND winner_id <> :user) FROM matches"
            " WHERE guild_id = :guild AND (first_white_id = :user OR first_black_id = :user)"
            " AND state IN ('finished', 'forfeited')",
            {"guild": guild_id, "user": user_id},
        )
        played, won, lost = next(iter(rows))
        return int(played), int(won), int(lost)

    async def _streak(self, guild_id: int, user_id: int) -> Streak:
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
        self, guild_id: int, player_id: int, opponent_id: int | None = None, *, limit: int = 10
    ) -> list[GameResultRecord]:
        """The player's latest ended games (against ``opponent_id`` only, if given), newest
        first."""
        params = {"guild": guild_id, "user": player_id, "limit": limit, "opponent": opponent_id}
        with_opponent = opponent_id is not None
        sql = _LATEST.format(
            columns=_RESULT_COLUMNS,
            vs_black="AND black_id = :opponent" if with_opponent else "",
            vs_white="AND white_id = :opponent" if with_opponent else "",
        )
        return [_result(row) for row in await self._rows(sql, params)]

    async def game_result(self, game_id: int) -> GameResultRecord | None:
        """One game as history shows it, if it has ended with a result."""
        rows = list(
            await self._rows(
                f"SELECT {_RESULT_COLUMNS} FROM games AS g JOIN matches AS m ON m.id = g.match_id"
                f" WHERE g.id = ? AND g.status IN {_COUNTED}",
                (game_id,),
            )
        )
        return _result(rows[0]) if rows else None


def _run_length(results: list[Outcome]) -> int:
    for count, result in enumerate(results):
        if result != results[0]:
            return count
    return len(results)


def _result(row: sqlite3.Row) -> GameResultRecord:
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
        plies=row["version"],
        rated=bool(row["rated"]),
        finished_at=datetime.fromisoformat(row["finished_at"]),
    )
