"""Players' turn pings: one row per player who chose, read with each game (``_rows``), so a
move pings without reading them again."""

from __future__ import annotations

from sqlalchemy import update

from bot.store._sql import Sql, Transactions, upsert
from bot.store.records import TURN_PINGS, TurnPing
from bot.store.schema import turn_pings


class SqlTurnPings:
    """The :class:`~bot.store.interface.TurnPingStore`."""

    def __init__(self, writer: Transactions) -> None:
        self._writer = writer

    async def choose(self, user_id: int, mode: TurnPing) -> None:
        """See ``TurnPingStore.choose``."""
        if mode not in TURN_PINGS:
            raise ValueError(f"no turn ping is {mode!r}")

        def work(db: Sql) -> None:
            new = upsert(db, turn_pings).values(user_id=user_id, mode=mode)
            db.execute(
                new.on_conflict_do_update(
                    index_elements=[turn_pings.c.user_id], set_={"mode": new.excluded.mode}
                )
            )

        await self._writer.run(work)

    async def refuse_dm(self, user_id: int) -> None:
        """See ``TurnPingStore.refuse_dm``."""

        def work(db: Sql) -> None:
            new = upsert(db, turn_pings).values(user_id=user_id, mode="dm", dm_refused=1)
            db.execute(
                new.on_conflict_do_update(
                    index_elements=[turn_pings.c.user_id], set_={"dm_refused": 1}
                )
            )

        await self._writer.run(work)

    async def take_dm_refused(self, user_id: int) -> bool:
        """See ``TurnPingStore.take_dm_refused``."""
        taken = (
            update(turn_pings)
            .where(turn_pings.c.user_id == user_id, turn_pings.c.dm_refused == 1)
            .values(dm_refused=0)
        )
        return bool(await self._writer.run(lambda db: db.execute(taken).rowcount))
