"""The outbox's SQL: announcements written inside the transaction of the change they announce,
taken with a lease by the delivery loop, and settled once posted (or given up)."""

from __future__ import annotations

import json
import secrets
import sqlite3
from datetime import UTC, datetime, timedelta

from bot.store._rows import from_text, to_text
from bot.store._sql import Reader, Sql, Transactions
from bot.store.errors import NotFound
from bot.store.outbox import WRITER_LEASE, Announcement, OutboxEntry, Settlement

DELIVERABLE_NOW = datetime.min.replace(tzinfo=UTC)
_ENTRY_COLUMNS = (
    "id, key, kind, guild_id, channel_id, game_id, payload, created_at, attempts, lease_token"
)
_TOKEN_BYTES = 12  # a claim's lease token: random, so no two claims anywhere share one


def add_announcement(db: Sql, game_id: int, announcement: Announcement, now: datetime) -> None:
    """Write ``announcement`` about ``game_id`` (in the caller's transaction). An event that
    is already in the outbox is not written again."""
    db.execute(
        "INSERT INTO outbox (key, kind, guild_id, channel_id, game_id, payload, created_at,"
        " lease_until, lease_token) SELECT ?, ?, guild_id, channel_id, id, ?, ?, ?, ?"
        " FROM games WHERE id = ? ON CONFLICT (key) DO NOTHING",
        (*_values(announcement, now), game_id),
    )


def add_announcement_in(
    db: Sql,
    announcement: Announcement,
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    now: datetime,
) -> None:
    """Write ``announcement`` to be posted in ``channel_id`` (in the caller's transaction):
    for what is not one game's (a tournament's round or table), or a game's post somewhere
    other than its own channel. An event already in the outbox is not written again."""
    db.execute(
        "INSERT INTO outbox (key, kind, payload, created_at, lease_until, lease_token, guild_id,"
        " channel_id, game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
        (*_values(announcement, now), guild_id, channel_id, game_id),
    )


def _values(announcement: Announcement, now: datetime) -> tuple[object, ...]:
    """key, kind, payload, created_at, lease_until and lease_token of a new entry: one held
    for its writer is leased to ``WRITER_LEASE`` until the hold ends."""
    held = announcement.held_seconds > 0
    return (
        announcement.key,
        announcement.kind,
        json.dumps(dict(announcement.payload), separators=(",", ":")),
        to_text(now),
        to_text(now + timedelta(seconds=announcement.held_seconds)) if held else None,
        WRITER_LEASE if held else None,
    )


def _claim(db: Sql, now: str, until: str, token: str, limit: int, lock: str) -> list[sqlite3.Row]:
    return db.execute(
        "UPDATE outbox SET lease_until = ?, lease_token = ?, attempts = attempts + 1"
        " WHERE id IN (SELECT id FROM outbox WHERE status = 'pending'"
        f" AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?{lock})"
        f" RETURNING {_ENTRY_COLUMNS}",
        (until, token, now, limit),
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
        lease=row["lease_token"],
    )


class SqlOutbox:
    """The :class:`~bot.store.interface.OutboxStore`."""

    def __init__(self, writer: Transactions, reader: Reader, *, shared: bool = False) -> None:
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
        token = secrets.token_hex(_TOKEN_BYTES)
        rows = await self._writer.run(lambda db: _claim(db, at, until, token, limit, self._lock))
        return sorted((_entry(row) for row in rows), key=lambda entry: entry.id)

    async def settle(
        self,
        key: str,
        outcome: Settlement,
        *,
        lease: str,
        now: datetime,
        error: str | None = None,
        retry_at: datetime | None = None,
    ) -> bool:
        """See ``OutboxStore.settle``."""
        at = to_text(now)
        if outcome == "retry":
            # Nobody holds it until ``retry_at``; then the next claim takes it with a new lease.
            sql = "UPDATE outbox SET lease_until = ?, lease_token = NULL, last_error = ?"
            params: tuple[object, ...] = (to_text(retry_at or now), error, key, lease)
        else:
            sql = (
                "UPDATE outbox SET status = ?, settled_at = ?, last_error = ?, lease_until = NULL,"
                " lease_token = NULL"
            )
            params = (outcome, at, error, key, lease)
        sql += " WHERE key = ? AND status = 'pending' AND lease_token = ?"
        cursor = await self._writer.run(lambda db: db.execute(sql, params))
        if cursor.rowcount == 0 and not await self._read.execute_fetchall(
            "SELECT 1 FROM outbox WHERE key = ?", (key,)
        ):
            raise NotFound("announcement", key)
        return bool(cursor.rowcount)

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
                "UPDATE outbox SET lease_until = NULL, lease_token = NULL"
                " WHERE status = 'pending' AND lease_until IS NOT NULL"
            )
        )
