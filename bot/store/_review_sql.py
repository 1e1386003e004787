"""Stored reviews of finished games."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from bot.store._rows import to_text
from bot.store._sql import Reader, Sql, Transactions, upsert
from bot.store.schema import game_reviews

_BODY = select(game_reviews.c.body)


class SqlReviews:
    """The :class:`~bot.store.interface.ReviewStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def get(self, game_id: int) -> str | None:
        """The review stored for the game, or ``None`` when there is none yet."""
        rows = await self._read.rows(_BODY.where(game_reviews.c.game_id == game_id))
        for row in rows:
            return str(row["body"])
        return None

    async def keep(self, game_id: int, body: str, *, now: datetime) -> str:
        """Store ``body`` unless a review of the game is stored already; return the one stored."""
        at = to_text(now)  # a naive time is refused here, before anything is written
        return await self._writer.run(lambda db: keep_review(db, game_id, body, at))


def keep_review(db: Sql, game_id: int, body: str, at: str) -> str:
    """Insert the review if the game has none (the first one stays); return the stored one."""
    new = upsert(db, game_reviews).values(game_id=game_id, body=body, created_at=at)
    db.execute(new.on_conflict_do_nothing(index_elements=[game_reviews.c.game_id]))
    return str(db.execute(_BODY.where(game_reviews.c.game_id == game_id)).scalar_one())
