"""The outbox's SQL: announcements written inside the transaction of the change they announce,
taken with a lease by the delivery loop, and settled once posted (or given up)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

from bot.store._rows import from_text, to_text
from bot.store._sql import Reader, Sql, Writer
from bot.store.errors import NotFound
from bot.store.outbox import Announcement, OutboxEntry, Settlement

DELIVERABLE_NOW = datetime.min.replace(tzinfo=UTC)
_ENTRY_COLUMNS = "id, key, kind, guild_id, channel_id, game_id, payload, created_at, attempts"


def add_announcement(db: Sql, game_id: int, announcement: Announcement, now: datetime) -> None:
    """Write ``announcement`` about ``game_id`` (in the caller's transaction). An event that
    is already in the outbox is not written again."""
    held = to_text(now + timedelta(seconds=announcement.held_seconds))
    db.execute(
        "INSERT INTO outbox (key, kind, guild_id, channel_id, game_id, payload, created_at,"
        " lease_until) SELECT ?, ?, guild_id, channel_id, id, ?, ?, ? FROM games WHERE id = ?"
        " ON CONFLICT (key) DO NOTHING",
        (
            announcement.key,
            announcement.kind,
            json.dumps(dict(announcement.payload), separators=(",", ":")),
            to_text(now),
            held if announcement.held_seconds > 0 else None,
            game_id,
        ),
    )


def _claim(db: Sql, now: str, until: str, limit: int, lock: str) -> list[sqlite3.Row]:
    return db.execute(
        f"UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id IN ("
        " SELECT id FROM outbox WHERE status = 'pending'"
        f" AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?{lock})"
        f" RETURNING {_ENTRY_COLUMNS}",
        (until, now, limit),
    ).fetchall()


def _entry(row: sqlite3.Row) -> OutboxEntry:
    return OutboxEntry(
        id=row["id"],
        key=row["key"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        payload=json.loads(row["payload"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        attempts=row["attempts"],
    )


class SqlOutbox:
    """The :class:`~bot.store.interface.OutboxStore`."""

    def __init__(self, writer: Writer, reader: Reader, *, shared: bool = False) -> None:
        """``shared``: the database serves several processes (PostgreSQL), so a claim skips
        the rows another transaction is claiming instead of waiting for them."""
        self._writer = writer
        self._read = reader
        self._lock = " FOR UPDATE SKIP LOCKED" if shared else ""

    async def claim(
        self, *, now: datetime, lease_seconds: float, limit: int = 20
    ) -> list[OutboxEntry]:
        """See ``OutboxStore.claim``."""
        at, until = to_text(now), to_text(now + timedelta(seconds=lease_seconds))
        rows = await self._writer.run(lambda db: _claim(db, at, until, limit, self._lock))
        return sorted((_entry(row) for row in rows), key=lambda entry: entry.id)

    async def settle(
        self,
        key: str,
        outcome: Settlement,
        *,
        now: datetime,
        error: str | None = None,
        retry_at: datetime | None = None,
    ) -> None:
        """See ``OutboxStore.settle``."""
        at = to_text(now)
        if outcome == "retry":
            sql = (
                "UPDATE outbox SET lease_until = ?, last_error = ?"
                " WHERE key = ? AND status = 'pending'"
            )
            params: tuple[object, ...] = (to_text(retry_at or now), error, key)
        else:
            sql = (
                "UPDATE outbox SET status = ?, settled_at = ?, last_error = ?, lease_until = NULL"
                " WHERE key = ? AND status = 'pending'"
            )
            params = (outcome, at, error, key)
        cursor = await self._writer.run(lambda db: db.execute(sql, params))
        if cursor.rowcount == 0 and not await self._read.execute_fetchall(
            "SELECT 1 FROM outbox WHERE key = ?", (key,)
        ):
            raise NotFound("announcement", key)

    async def next_due(self) -> datetime | None:
        """See ``OutboxStore.next_due``."""
        # '' (no lease: deliverable now) sorts before every time text.
        rows = await self._read.execute_fetchall(
            "SELECT MIN(COALESCE(lease_until, '')) FROM outbox WHERE status = 'pending'"
        )
        earliest = next(iter(rows))[0]
        if earliest is None:
            return None
        return DELIVERABLE_NOW if earliest == "" else from_text(earliest)

    async def release_leases(self) -> None:
        """Make every pending announcement deliverable now. Only for a backend one process
        holds alone (SQLite, at start): a lease still held then belongs to a process that has
        died. Not part of the protocol: a shared database lets leases run out instead."""
        await self._writer.run(
            lambda db: db.execute(
                "UPDATE outbox SET lease_until = NULL WHERE status = 'pending'"
                " AND lease_until IS NOT NULL"
            )
        )
