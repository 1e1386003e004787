"""Spectator counts: how many watch each game, as a web server last reported it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select

from bot.store._rows import to_text
from bot.store._sql import Reader, Sql, Transactions, upsert
from bot.store.schema import spectators


class SqlSpectators:
    """The :class:`~bot.store.interface.SpectatorStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def report(self, game_id: int, watching: int, *, now: datetime) -> None:
        """Keep ``watching`` as the number watching ``game_id`` at ``now`` (nobody: no row, so
        the table holds only the games being watched)."""
        if watching < 0:
            raise ValueError(f"{watching} people cannot watch a game")
        at = to_text(now)

        def work(db: Sql) -> None:
            if watching == 0:
                db.execute(delete(spectators).where(spectators.c.game_id == game_id))
                return
            new = upsert(db, spectators).values(game_id=game_id, watching=watching, updated_at=at)
            db.execute(
                new.on_conflict_do_update(
                    index_elements=[spectators.c.game_id],
                    set_={"watching": watching, "updated_at": at},
                )
            )

        await self._writer.run(work)

    async def count(self, game_id: int, *, since: datetime) -> int:
        """The number last reported for ``game_id``, if reported at ``since`` or later; else 0."""
        rows = await self._read.rows(
            select(spectators.c.watching).where(
                spectators.c.game_id == game_id, spectators.c.updated_at >= to_text(since)
            )
        )
        return int(rows[0]["watching"]) if rows else 0
