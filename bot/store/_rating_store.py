"""Ratings and leaderboards on SQLite: reads on the reader connection, and replacing every rating
after a recomputation in one write.

Every query walks an index from migration 0003 (see ``bench/leaderboard.py`` for timings):
``ratings_leaderboard`` for pages and ranks, ``rating_history_trend`` for trends.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from bot.store._ratings_sql import replace_ratings
from bot.store._sql import Reader, Transactions
from bot.store.rating_records import (
    RankedRating,
    RatedGameRecord,
    RatingHistoryRecord,
    RatingRecord,
    RatingTables,
    Skill,
)

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


class SqlRatings:
    """The :class:`~bot.store.interface.RatingStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._db = reader

    async def _rows(self, sql: str, params: Any = ()) -> Iterable[sqlite3.Row]:
        return await self._db.execute_fetchall(sql, params)

    async def leaderboard(
        self, guild_id: int, ruleset: str, *, offset: int, limit: int
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
        return int(next(iter(rows))[0])

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

    async def history(
        self, guild_id: int, user_id: int, ruleset: str, *, limit: int
    ) -> list[RatingHistoryRecord]:
        """The player's latest ``limit`` rating changes in the ruleset, oldest first."""
        rows = await self._rows(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history"
            " WHERE guild_id = ? AND user_id = ? AND ruleset = ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, ruleset, limit),
        )
        return [_history(row) for row in reversed(list(rows))]

    async def match_changes(self, match_id: int) -> list[RatingHistoryRecord]:
        """The rating changes of the match's rated games, in the order they were made."""
        rows = await self._rows(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history"
            " WHERE game_id IN (SELECT id FROM games WHERE match_id = ?) ORDER BY id",
            (match_id,),
        )
        return [_history(row) for row in rows]

    async def rated_games(self, guild_id: int | None = None) -> list[RatedGameRecord]:
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
            " WHERE g.rated = 1 AND (CAST(:guild AS BIGINT) IS NULL OR g.guild_id = :guild)"
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

    async def tables(self, guild_id: int | None = None) -> RatingTables:
        """Every rating and rating-history row of the server (all servers for ``None``)."""
        ratings = await self._rows(
            f"{_RATINGS_WITH_NAMES}"
            " WHERE (CAST(:guild AS BIGINT) IS NULL OR r.guild_id = :guild)"
            " ORDER BY r.guild_id, r.ruleset, r.user_id",
            {"guild": guild_id},
        )
        history = await self._rows(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history"
            " WHERE (CAST(:guild AS BIGINT) IS NULL OR guild_id = :guild) ORDER BY id",
            {"guild": guild_id},
        )
        return RatingTables([_rating(row) for row in ratings], [_history(row) for row in history])

    async def replace(
        self, tables: RatingTables, *, guild_id: int | None = None, expected_games: int
    ) -> None:
        """Replace the server's ratings and history in one transaction; see
        ``RatingStore.replace``."""
        await self._writer.run(lambda db: replace_ratings(db, tables, guild_id, expected_games))


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
