"""Ratings and leaderboards: reads on the reader, and replacing every rating
after a recomputation in one write.

Every query walks an index from migration 0003 (see ``bench/leaderboard.py`` for timings):
``ratings_leaderboard`` for pages and ranks, ``rating_history_trend`` for trends.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Executable, RowMapping, and_, case, func, or_, select

from bot.store._ratings_sql import in_scope, replace_ratings
from bot.store._sql import Reader, Transactions
from bot.store.rating_records import (
    EVERY_POOL,
    RankedRating,
    RatedGameRecord,
    RatingHistoryRecord,
    RatingRecord,
    RatingScope,
    RatingTables,
    Skill,
)
from bot.store.schema import games, matches, players, rating_history, ratings

# A name outside servers is the players row with no server, as the friends pool's rating is.
_SAME_PLACE = (players.c.guild_id == ratings.c.guild_id) | (
    players.c.guild_id.is_(None) & ratings.c.guild_id.is_(None)
)
_RATINGS_WITH_NAMES = select(*ratings.c, players.c.display_name).outerjoin(
    players, _SAME_PLACE & (players.c.user_id == ratings.c.user_id)
)
_LEADERBOARD_ORDER = (ratings.c.rating.desc(), ratings.c.games.desc(), ratings.c.user_id)
_HISTORY = select(*(c for c in rating_history.c if c.name != "id"))


class SqlRatings:
    """The :class:`~bot.store.interface.RatingStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._db = reader

    async def _rows(self, statement: Executable) -> Sequence[RowMapping]:
        return await self._db.rows(statement)

    async def leaderboard(
        self, guild_id: int | None, ruleset: str, *, offset: int, limit: int
    ) -> list[RankedRating]:
        """One page of the leaderboard."""
        if offset < 0 or limit < 0:
            raise ValueError(f"offset and limit must not be negative, got {offset}, {limit}")
        rows = await self._rows(
            _RATINGS_WITH_NAMES.where(ratings.c.guild_id == guild_id, ratings.c.ruleset == ruleset)
            .order_by(*_LEADERBOARD_ORDER)
            .limit(limit)
            .offset(offset)
        )
        return [RankedRating(offset + i + 1, _rating(row)) for i, row in enumerate(rows)]

    async def leaderboard_size(self, guild_id: int | None, ruleset: str) -> int:
        """How many players have a rating in this ruleset."""
        rows = await self._rows(
            select(func.count().label("size")).where(
                ratings.c.guild_id == guild_id, ratings.c.ruleset == ruleset
            )
        )
        return int(rows[0]["size"])

    async def player_rank(
        self, guild_id: int | None, ruleset: str, user_id: int
    ) -> RankedRating | None:
        """The player's leaderboard row, or ``None`` without a rating."""
        rows = await self._rows(
            _RATINGS_WITH_NAMES.where(ratings.c.guild_id == guild_id).where(
                ratings.c.ruleset == ruleset, ratings.c.user_id == user_id
            )
        )
        if not rows:
            return None
        mine = _rating(rows[0])
        r = ratings.c
        before_me = or_(
            r.rating > mine.skill.rating,
            and_(
                r.rating == mine.skill.rating,
                or_(r.games > mine.games, and_(r.games == mine.games, r.user_id < user_id)),
            ),
        )
        ahead = await self._rows(
            select(func.count().label("ahead"))
            .where(r.guild_id == guild_id, r.ruleset == ruleset)
            .where(before_me)
        )
        return RankedRating(ahead[0]["ahead"] + 1, mine)

    async def player_ratings(self, guild_id: int | None, user_id: int) -> list[RatingRecord]:
        """The player's ratings in every ruleset they have a rating in, most played first."""
        rows = await self._rows(
            _RATINGS_WITH_NAMES.where(
                ratings.c.guild_id == guild_id, ratings.c.user_id == user_id
            ).order_by(ratings.c.games.desc(), ratings.c.last_game_at.desc(), ratings.c.ruleset)
        )
        return [_rating(row) for row in rows]

    async def history(
        self, guild_id: int | None, user_id: int, ruleset: str, *, limit: int
    ) -> list[RatingHistoryRecord]:
        """The player's latest ``limit`` rating changes in the ruleset, oldest first."""
        h = rating_history.c
        rows = await self._rows(
            _HISTORY.where(h.guild_id == guild_id, h.user_id == user_id, h.ruleset == ruleset)
            .order_by(h.id.desc())
            .limit(limit)
        )
        return [_history(row) for row in reversed(list(rows))]

    async def match_changes(self, match_id: int) -> list[RatingHistoryRecord]:
        """The rating changes of the match's rated games, in the order they were made."""
        of_match = select(games.c.id).where(games.c.match_id == match_id)
        rows = await self._rows(
            _HISTORY.where(rating_history.c.game_id.in_(of_match.scalar_subquery())).order_by(
                rating_history.c.id
            )
        )
        return [_history(row) for row in rows]

    async def rated_games(self, scope: RatingScope = EVERY_POOL) -> list[RatedGameRecord]:
        """Every rated game in the order its ratings were applied.

        That is the order of ``finished_at``; games that ended at the same moment keep the order
        their rating history was written in (games without history, from before ratings were
        kept, go by id).
        """
        g, m, later = games.alias("g"), matches, games.alias("later")
        last_index = (
            select(func.max(later.c.game_index))
            .where(later.c.match_id == g.c.match_id)
            .scalar_subquery()
        )
        decided = m.c.state.in_(("finished", "forfeited")) & (g.c.game_index == last_index)
        first_history = (
            select(func.min(rating_history.c.id))
            .where(rating_history.c.game_id == g.c.id)
            .scalar_subquery()
        )
        rows = await self._rows(
            select(
                g.c.id,
                g.c.guild_id,
                m.c.ruleset,
                g.c.white_id,
                g.c.black_id,
                g.c.winner,
                g.c.points_white,
                g.c.points_black,
                g.c.finished_at,
                case((decided, m.c.winner_id)).label("match_winner_id"),
            )
            .join(m, m.c.id == g.c.match_id)
            .where(g.c.rated == 1, in_scope(g.c.guild_id, scope))
            .order_by(g.c.finished_at, first_history, g.c.id)
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

    async def tables(self, scope: RatingScope = EVERY_POOL) -> RatingTables:
        """Every rating and rating-history row of the server, the friends pool (``None``) or
        every pool."""
        rated = await self._rows(
            _RATINGS_WITH_NAMES.where(in_scope(ratings.c.guild_id, scope)).order_by(
                ratings.c.guild_id.nulls_first(), ratings.c.ruleset, ratings.c.user_id
            )
        )
        history = await self._rows(
            _HISTORY.where(in_scope(rating_history.c.guild_id, scope)).order_by(rating_history.c.id)
        )
        return RatingTables([_rating(row) for row in rated], [_history(row) for row in history])

    async def replace(
        self, tables: RatingTables, *, scope: RatingScope = EVERY_POOL, expected_games: int
    ) -> None:
        """Replace the server's ratings and history in one transaction; see
        ``RatingStore.replace``."""
        await self._writer.run(lambda db: replace_ratings(db, tables, scope, expected_games))


def _rating(row: RowMapping) -> RatingRecord:
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


def _history(row: RowMapping) -> RatingHistoryRecord:
    return RatingHistoryRecord(
        game_id=row["game_id"],
        guild_id=row["guild_id"],
        ruleset=row["ruleset"],
        user_id=row["user_id"],
        before=Skill(row["mu_before"], row["sigma_before"], row["rating_before"]),
        after=Skill(row["mu_after"], row["sigma_after"], row["rating_after"]),
        at=datetime.fromisoformat(row["at"]),
    )
