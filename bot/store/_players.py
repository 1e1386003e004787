"""Players' names and the bot's own bookkeeping, on SQLite."""

from __future__ import annotations

from bot.store import _rows
from bot.store._rows import only_row
from bot.store._sql import Reader, Transactions
from bot.store.records import PlayerRecord


class SqlPlayers:
    """The :class:`~bot.store.interface.PlayerStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def upsert(self, guild_id: int, user_id: int, display_name: str) -> None:
        """Create the player if new, and remember ``display_name``."""
        await self._writer.run(
            lambda db: db.execute(
                "INSERT INTO players (guild_id, user_id, display_name) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, user_id)"
                " DO UPDATE SET display_name = excluded.display_name",
                (guild_id, user_id, display_name),
            )
        )

    async def get(self, guild_id: int, user_id: int) -> PlayerRecord:
        """The player's name record in this guild. Raises ``NotFound``."""
        rows = await self._read.execute_fetchall(
            f"SELECT {_rows.PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return _rows.player(only_row(rows, "player", (guild_id, user_id)))


class SqlBotState:
    """The :class:`~bot.store.interface.BotStateStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def get(self, key: str) -> str | None:
        """The value under ``key``, or ``None`` when never set."""
        rows = await self._read.execute_fetchall(
            "SELECT value FROM bot_state WHERE key = ?", (key,)
        )
        for row in rows:
            return str(row[0])
        return None

    async def set(self, key: str, value: str) -> None:
        """Set (replace) the value under ``key``."""
        await self._writer.run(
            lambda db: db.execute(
                "INSERT INTO bot_state (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )
