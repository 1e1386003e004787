"""Players' names and the bot's own bookkeeping."""

from __future__ import annotations

from sqlalchemy import select

from bot.store import _rows
from bot.store._rows import only_row
from bot.store._sql import Reader, Sql, Transactions, keyed_by_place, upsert
from bot.store.records import PlayerRecord
from bot.store.schema import bot_state, players


class SqlPlayers:
    """The :class:`~bot.store.interface.PlayerStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def upsert(self, guild_id: int | None, user_id: int, display_name: str) -> None:
        """Create the player if new, and remember ``display_name``."""

        def work(db: Sql) -> None:
            new = upsert(db, players).values(
                guild_id=guild_id, user_id=user_id, display_name=display_name
            )
            db.execute(
                new.on_conflict_do_update(
                    **keyed_by_place(players, guild_id, players.c.user_id),
                    set_={"display_name": new.excluded.display_name},
                )
            )

        await self._writer.run(work)

    async def get(self, guild_id: int | None, user_id: int) -> PlayerRecord:
        """The player's name record in this guild (``None``: outside servers). Raises
        ``NotFound``."""
        rows = await self._read.rows(
            select(*_rows.PLAYER_COLUMNS).where(
                players.c.guild_id == guild_id, players.c.user_id == user_id
            )
        )
        return _rows.player(only_row(rows, "player", (guild_id, user_id)))


class SqlBotState:
    """The :class:`~bot.store.interface.BotStateStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def get(self, key: str) -> str | None:
        """The value under ``key``, or ``None`` when never set."""
        rows = await self._read.rows(select(bot_state.c.value).where(bot_state.c.key == key))
        for row in rows:
            return str(row["value"])
        return None

    async def set(self, key: str, value: str) -> None:
        """Set (replace) the value under ``key``."""

        def work(db: Sql) -> None:
            new = upsert(db, bot_state).values(key=key, value=value)
            db.execute(
                new.on_conflict_do_update(
                    index_elements=[bot_state.c.key], set_={"value": new.excluded.value}
                )
            )

        await self._writer.run(work)

    async def set_default(self, key: str, value: str) -> str:
        """Set ``value`` under ``key`` unless a value is there already; the value kept."""

        def work(db: Sql) -> str:
            db.execute(
                upsert(db, bot_state)
                .values(key=key, value=value)
                .on_conflict_do_nothing(index_elements=[bot_state.c.key])
            )
            kept = db.execute(select(bot_state.c.value).where(bot_state.c.key == key)).scalar_one()
            return str(kept)

        return await self._writer.run(work)
