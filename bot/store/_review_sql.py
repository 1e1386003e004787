"""Stored reviews of finished games, on either backend (the same SQL)."""

from __future__ import annotations

from datetime import datetime

from bot.store._rows import to_text
from bot.store._sql import Reader, Sql, Transactions


class SqlReviews:
    """The :class:`~bot.store.interface.ReviewStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def get(self, game_id: int) -> str | None:
        """The review stored for the game, or ``None`` when there is none yet."""
        rows = await self._read.execute_fetchall(
            "SELECT body FROM game_reviews WHERE game_id = ?", (game_id,)
        )
        for row in rows:
            return str(row[0])
        return None

    async def keep(self, game_id: int, body: str, *, now: datetime) -> str:
        """Store ``body`` unless a review of the game is stored already; return the one stored."""
        at = to_text(now)  # a naive time is refused here, before anything is written
        return await self._writer.run(lambda db: keep_review(db, game_id, body, at))


def keep_review(db: Sql, game_id: int, body: str, at: str) -> str:
    """Insert the review if the game has none (the first one stays); return the stored one."""
    db.execute(
        "INSERT INTO game_reviews (game_id, body, created_at) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id) DO NOTHING",
        (game_id, body, at),
    )
    row = db.execute("SELECT body FROM game_reviews WHERE game_id = ?", (game_id,)).fetchone()
    return str(row[0])
