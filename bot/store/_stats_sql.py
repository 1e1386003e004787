"""Reads for leaderboards, player statistics, history and rating checks (the reader connection).

Every query walks an index from migration 0003 (see ``bench/leaderboard.py`` for timings):
``ratings_leaderboard`` for pages and ranks, ``games_by_white`` / ``games_by_black`` for a
player's games, ``rating_history_trend`` for trends.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import aiosqlite

from bot.store.rating_records import (
    GameResultRecord,
    RankedRating,
    RatedGameRecord,
    RatingHistoryRecord,
    RatingRecord,
    RatingTables,
    Result,
    Skill,
    Streak,
    Tally,
)

_COUNTED = "('finished', 'resigned', 'timeout', 'stopped')"  # COUNTED_STATUSES, as SQL
_RATING_COLUMNS = (
    "r.guild_id, r.ruleset, r.user_id, r.mu, r.sigma, r.rating, r.games, r.wins, r.draws,"
    " r.losses, r.points, r.match_wins, r.last_game_at, p.display_name"
)
_RATINGS_WITH_NAMES = (
    f"SELECT {_RATING_COLUMNS} FROM ratings AS r LEFT JOIN players AS p"
    " ON p.guild_id = r.guild_id AND p.user_id = r.user_id"
)
_LEADERBOARD_ORDER = "r.rating DESC, r.games DESC, r.user_id"
_HISTORY_COLUMNS = (
    "game_id, guild_id, ruleset, user_id, mu_before, sigma_before, rating_before, mu_after,"
    " sigma_after, rating_after, at"
)
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
    " UNION ALL"
    " SELECT * FROM (SELECT id FROM games WHERE guild_id = :guild AND black_id = :user"
    f" {{vs_white}} AND status IN {_COUNTED} ORDER BY finished_at DESC, id DESC LIMIT :limit)"
    ") AS latest JOIN games AS g ON g.id = latest.id JOIN matches AS m ON m.id = g.match_id"
    " ORDER BY g.finished_at DESC, g.id DESC LIMIT :limit"
)
_TALLY = (
    "SELECT count(*), total(winner = :side), total(winner IS NULL),"
    " total(winner IS NOT NULL AND winner <> :side), total({own}), total({other})"
    " FROM games WHERE guild_id = :guild AND {column} = :user AND status IN " + _COUNTED
)
_STREAK_BATCH = 32


class StatsReads:
    """The read queries behind leaderboards, stats, history and rating checks."""

    def __init__(self, reader: aiosqlite.Connection) -> None:
        self._db = reader

    async def _rows(self, sql: str, params: Any = ()) -> Iterable[sqlite3.Row]:
        return await self._db.execute_fetchall(sql, params)

    # -- ratings ---------------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, ruleset: str, offset: int, limit: int
    ) -> list[RankedRating]:
        """One page of the leaderboard."""
        if offset < 0 or limit < 0:
            raise ValueError(f"offset and limit must not be negative, got {offset}, {limit}")
        rows = await self._rows(
            f"{_RATINGS_WITH_NAMES} WHERE r.guild_id = ? AND r.ruleset = ?"
            f" ORDER BY {_LEADERBOARD_ORDER} LIMIT ? OFFSET ?",
            (guild_id, ruleset, limit, offset),
        )
        return [RankedRating(offset + i + 1, _rating(row)) for i, row in enumerate(rows)]

    async def leaderboard_size(self, guild_id: int, ruleset: str) -> int:
        """How many players have a rating in this ruleset."""
        rows = await self._rows(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND ruleset = ?", (guild_id, ruleset)
        )
        return next(iter(rows))[0]

    async def player_rank(self, guild_id: int, ruleset: str, user_id: int) -> RankedRating | None:
        """The player's leaderboard row, or ``None`` without a rating."""
        rows = list(
            await self._rows(
                f"{_RATINGS_WITH_NAMES} WHERE r.guild_id = ? AND r.ruleset = ? AND r.user_id = ?",
                (guild_id, ruleset, user_id),
            )
        )
        if not rows:
            return None
        mine = _rating(rows[0])
        ahead = await self._rows(
            "SELECT count(*) FROM ratings WHERE guild_id = :guild AND ruleset = :ruleset AND"
            " (rating > :rating OR (rating = :rating AND"
            " (games > :games OR (games = :games AND user_id < :user))))",
            {
                "guild": guild_id, "ruleset": ruleset, "rating": mine.skill.rating,
                "games": mine.games, "user": user_id,
            },
        )  # fmt: skip
        return RankedRating(next(iter(ahead))[0] + 1, mine)

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        """The player's ratings in every ruleset they have a rating in, most played first."""
        rows = await self._rows(
            f"{_RATINGS_WITH_NAMES} WHERE r.guild_id = ? AND r.user_id = ?"
            " ORDER BY r.games DESC, r.last_game_at DESC, r.ruleset",
            (guild_id, user_id),
        )
        return [_rating(row) for row in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, ruleset: str, limit: int
    ) -> list[RatingHistoryRecord]:
        """The player's latest ``limit`` rating changes in the ruleset, oldest first."""
        rows = await self._rows(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history"
            " WHERE guild_id = ? AND user_id = ? AND ruleset = ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, ruleset, limit),
        )
        return [_history(row) for row in reversed(list(rows))]

    async def match_rating_changes(self, match_id: int) -> list[RatingHistoryRecord]:
        """The rating changes of the match's rated games, in the order they were made."""
        rows = await self._rows(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history"
            " WHERE game_id IN (SELECT id FROM games WHERE match_id = ?) ORDER BY id",
            (match_id,),
        )
        return [_history(row) for row in rows]

    # -- player statistics -----------------------------------------------------------------------

    async def tally(self, guild_id: int, user_id: int, side: str) -> Tally:
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

    async def match_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """(matches ended with a result, won, lost) for the player."""
        rows = await self._rows(
            "SELECT count(*), total(winner_id = :user),"
            " total(winner_id IS NOT NULL AND winner_id <> :user) FROM matches"
            " WHERE guild_id = :guild AND (first_white_id = :user OR first_black_id = :user)"
            " AND state IN ('finished', 'forfeited')",
            {"guild": guild_id, "user": user_id},
        )
        played, won, lost = next(iter(rows))
        return int(played), int(won), int(lost)

    async def streak(self, guild_id: int, user_id: int) -> Streak:
        """The run of equal results in the player's latest ended games."""
        limit = _STREAK_BATCH
        while True:
            games = await self.recent_games(guild_id, user_id, None, limit)
            results = [game.result_for(user_id) for game in games]
            if not results:
                return Streak()
            length = _run_length(results)
            if length < len(results) or len(results) < limit:
                return Streak(results[0], length)
            limit *= 4  # the streak may go on beyond what was read

    async def recent_games(
        self, guild_id: int, user_id: int, opponent_id: int | None, limit: int
    ) -> list[GameResultRecord]:
        """The player's latest ended games (against ``opponent_id`` only, if given), newest
        first."""
        params = {"guild": guild_id, "user": user_id, "limit": limit, "opponent": opponent_id}
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

    # -- recomputation ---------------------------------------------------------------------------

    async def rated_games(self, guild_id: int | None) -> list[RatedGameRecord]:
        """Every rated game in the order its ratings were applied.

        That is the order of ``finished_at``; games that ended at the same moment keep the order
        their rating history was written in (games without history, from before ratings were
        kept, go by id).
        """
        rows = await self._rows(
            "SELECT g.id, g.guild_id, m.ruleset, g.white_id, g.black_id, g.winner, g.points_white,"
            " g.points_black, g.finished_at, CASE WHEN m.state IN ('finished', 'forfeited')"
            " AND g.game_index = (SELECT max(game_index) FROM games WHERE match_id = g.match_id)"
            " THEN m.winner_id END AS match_winner_id"
            " FROM games AS g JOIN matches AS m ON m.id = g.match_id"
            " WHERE g.rated = 1 AND (:guild IS NULL OR g.guild_id = :guild)"
            " ORDER BY g.finished_at,"
            " (SELECT min(h.id) FROM rating_history AS h WHERE h.game_id = g.id), g.id",
            {"guild": guild_id},
        )
        return [
            RatedGameRecord(
                id=row["id"],
                guild_id=row["guild_id"],
                ruleset=row["ruleset"],
                white_id=row["white_id"],
                black_id=row["black_id"],
                winner=row["winner"],
                points={"white": row["points_white"], "black": row["points_black"]},
                finished_at=datetime.fromisoformat(row["finished_at"]),
                match_winner_id=row["match_winner_id"],
            )
            for row in rows
        ]

    async def rating_tables(self, guild_id: int | None) -> RatingTables:
        """Every rating and rating-history row of the server (all servers for ``None``)."""
        ratings = await self._rows(
            f"{_RATINGS_WITH_NAMES} WHERE (:guild IS NULL OR r.guild_id = :guild)"
            " ORDER BY r.guild_id, r.ruleset, r.user_id",
            {"guild": guild_id},
        )
        history = await self._rows(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history"
            " WHERE (:guild IS NULL OR guild_id = :guild) ORDER BY id",
            {"guild": guild_id},
        )
        return RatingTables([_rating(row) for row in ratings], [_history(row) for row in history])


def _run_length(results: list[Result]) -> int:
    for count, result in enumerate(results):
        if result != results[0]:
            return count
    return len(results)


def _rating(row: sqlite3.Row) -> RatingRecord:
    return RatingRecord(
        guild_id=row["guild_id"],
        ruleset=row["ruleset"],
        user_id=row["user_id"],
        skill=Skill(row["mu"], row["sigma"], row["rating"]),
        games=row["games"],
        wins=row["wins"],
        draws=row["draws"],
        losses=row["losses"],
        points=row["points"],
        match_wins=row["match_wins"],
        last_game_at=datetime.fromisoformat(row["last_game_at"]),
        display_name=row["display_name"],
    )


def _history(row: sqlite3.Row) -> RatingHistoryRecord:
    return RatingHistoryRecord(
        game_id=row["game_id"],
        guild_id=row["guild_id"],
        ruleset=row["ruleset"],
        user_id=row["user_id"],
        before=Skill(row["mu_before"], row["sigma_before"], row["rating_before"]),
        after=Skill(row["mu_after"], row["sigma_after"], row["rating_after"]),
        at=datetime.fromisoformat(row["at"]),
    )


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
