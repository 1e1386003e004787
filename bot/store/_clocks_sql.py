"""The correspondence clock on SQLite: pausing and resuming it, marking reminders sent, and
listing the running clocks for the deadline scheduler (a move restarts it: ``_game_store``).

Every write is guarded like a move: it applies only to the active game at the version (and, for
reminders, the deadline) the caller saw, so a reminder or a pause that lost a race to a move
changes nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from datetime import datetime, timedelta

from bot.store._game_sql import update_game
from bot.store._games import GameLoader
from bot.store._outbox_sql import add_announcement
from bot.store._rows import from_text, to_text
from bot.store._sql import Reader, Sql, Transactions
from bot.store.clocks import RunningClock
from bot.store.errors import NotFound
from bot.store.outbox import Announcement
from bot.store.records import GameRecord

_CLOCK_OF_GAME = (
    "SELECT g.version, g.status, g.deadline_at, g.time_left_seconds, m.time_per_move_seconds"
    " FROM games AS g JOIN matches AS m ON m.id = g.match_id WHERE g.id = ?"
)


def pause(db: Sql, game_id: int, expected_version: int, now: datetime) -> None:
    """Stop the running clock, keeping the time left. Raises ``NotFound``, ``StaleGame``,
    ``GameNotActive``, or ``ValueError`` if the clock is not running."""
    row = _clock_row(db, game_id)
    deadline = from_text(row["deadline_at"])
    if deadline is None and row["status"] == "active" and row["version"] == expected_version:
        raise ValueError(f"game {game_id} has no running clock to pause")
    left = max((deadline - now).total_seconds(), 0.0) if deadline is not None else 0.0
    sets = {"deadline_at": None, "time_left_seconds": left, "paused_at": to_text(now)}
    update_game(db, game_id, expected_version, sets)


def resume(db: Sql, game_id: int, expected_version: int, now: datetime) -> None:
    """Restart a paused clock with the time that was left. Raises ``NotFound``, ``StaleGame``,
    ``GameNotActive``, or ``ValueError`` if the clock is not paused."""
    row = _clock_row(db, game_id)
    left = row["time_left_seconds"]
    if left is None and row["status"] == "active" and row["version"] == expected_version:
        raise ValueError(f"game {game_id} is not paused")
    deadline = to_text(now + timedelta(seconds=left or 0.0))
    sets = {"deadline_at": deadline, "time_left_seconds": None, "paused_at": None}
    update_game(db, game_id, expected_version, sets)


def mark_reminders(
    db: Sql,
    game_id: int,
    expected_version: int,
    deadline_at: str,
    count: int,
    announce: tuple[Announcement, datetime] | None = None,
) -> bool:
    """Raise the game's reminder count to ``count`` if it is lower and the game is still active
    at ``expected_version`` with ``deadline_at``; whether this call changed it. ``announce``
    (with the time it is written at) is written only if it did."""
    cursor = db.execute(
        "UPDATE games SET reminders_sent = ? WHERE id = ? AND status = 'active' AND version = ?"
        " AND deadline_at = ? AND reminders_sent < ?",
        (count, game_id, expected_version, deadline_at, count),
    )
    claimed = cursor.rowcount == 1
    if claimed and announce is not None:
        add_announcement(db, game_id, *announce)
    return claimed


def _clock_row(db: Sql, game_id: int) -> sqlite3.Row:
    row: sqlite3.Row | None = db.execute(_CLOCK_OF_GAME, (game_id,)).fetchone()
    if row is None:
        raise NotFound("game", game_id)
    return row


def _running_clock(row: sqlite3.Row) -> RunningClock:
    deadline = datetime.fromisoformat(row[5])
    if deadline.utcoffset() is None:
        raise ValueError(f"deadline {row[5]!r} has no time zone")
    return RunningClock(
        game_id=row[0], match_id=row[1], guild_id=row[2], channel_id=row[3], version=row[4],
        deadline_at=deadline, reminders_sent=int(row[6]), time_per_move_seconds=int(row[7]),
    )  # fmt: skip


class SqlClocks:
    """The :class:`~bot.store.interface.ClockStore`."""

    def __init__(self, writer: Transactions, reader: Reader, loader: GameLoader) -> None:
        self._writer = writer
        self._read = reader
        self._loader = loader

    async def running(
        self, *, shard_count: int = 1, shard_ids: Collection[int] = (0,)
    ) -> list[RunningClock]:
        """See ``ClockStore.running``: a game whose deadline cannot be read is damaged, and
        left out (logged once) rather than stopping every other clock."""
        ids = sorted(set(shard_ids))
        if not ids or not all(0 <= shard < shard_count for shard in ids):
            raise ValueError(f"shards {ids} do not fit a count of {shard_count}")
        # Discord's shard of a server; the same arithmetic on both backends (64-bit integers).
        in_shards = (
            ""
            if len(ids) == shard_count
            else f" AND (g.guild_id >> 22) % ? IN ({', '.join('?' * len(ids))})"
        )
        rows = await self._read.execute_fetchall(
            "SELECT g.id, g.match_id, g.guild_id, g.channel_id, g.version, g.deadline_at,"
            " g.reminders_sent, m.time_per_move_seconds"
            " FROM games AS g JOIN matches AS m ON m.id = g.match_id"
            " WHERE g.status = 'active' AND g.deadline_at IS NOT NULL"
            f" AND m.time_per_move_seconds IS NOT NULL{in_shards} ORDER BY g.deadline_at, g.id",
            (shard_count, *ids) if in_shards else (),
        )
        clocks = []
        for row in rows:
            try:
                clocks.append(_running_clock(row))
            except (TypeError, ValueError) as exc:
                self._loader.report_damaged(row[0], f"unreadable clock ({exc})")
        return clocks

    async def mark_reminders_sent(
        self,
        game_id: int,
        *,
        expected_version: int,
        deadline_at: datetime,
        count: int,
        announce: Announcement | None = None,
        now: datetime | None = None,
    ) -> bool:
        """See ``ClockStore.mark_reminders_sent``."""
        if count < 1:
            raise ValueError(f"count must be positive, not {count}")
        if announce is not None and now is None:
            raise ValueError("an announcement needs the time it is written at (now)")
        at = to_text(deadline_at)
        written = (announce, now) if announce is not None and now is not None else None
        return await self._writer.run(
            lambda db: mark_reminders(db, game_id, expected_version, at, count, written)
        )

    async def pause(self, game_id: int, *, expected_version: int, now: datetime) -> GameRecord:
        """See ``ClockStore.pause``."""
        to_text(now)  # a naive datetime raises ValueError before anything is written
        await self._writer.run(lambda db: pause(db, game_id, expected_version, now))
        return await self._reload(game_id)

    async def resume(self, game_id: int, *, expected_version: int, now: datetime) -> GameRecord:
        """See ``ClockStore.resume``."""
        to_text(now)
        await self._writer.run(lambda db: resume(db, game_id, expected_version, now))
        return await self._reload(game_id)

    async def _reload(self, game_id: int) -> GameRecord:
        # The snapshot did not change, so the loader trusts it: no replay.
        return (await self._loader.load_where("g.id = ?", (game_id,)))[0]
