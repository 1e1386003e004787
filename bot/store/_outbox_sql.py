"""The outbox's SQL: announcements written inside the transaction of the change they announce,
taken with a lease by the delivery loop, and settled once posted (or given up)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    FromClause,
    Insert,
    RowMapping,
    Text,
    bindparam,
    func,
    literal,
    select,
    update,
)
from sqlalchemy.dialects import postgresql

from bot.store._rows import from_text, to_text
from bot.store._sql import Reader, Sql, Transactions, inline, upsert
from bot.store.errors import NotFound
from bot.store.outbox import (
    WRITER_LEASE,
    Address,
    Announcement,
    ChannelAddress,
    OutboxEntry,
    Settlement,
    UserAddress,
    checked_kind,
)
from bot.store.schema import Id, games, outbox

DELIVERABLE_NOW = datetime.min.replace(tzinfo=UTC)
_ENTRY_COLUMNS = tuple(
    outbox.c[name]
    for name in (
        "id", "key", "kind", "guild_id", "channel_id", "user_id", "game_id", "payload",
        "created_at", "attempts", "lease_token",
    )
)  # fmt: skip
_NEW_ENTRY = ("key", "kind", "payload", "created_at", "lease_until", "lease_token")
_TOKEN_BYTES = 12  # a claim's lease token: random, so no two claims anywhere share one


def add_announcements(
    db: Sql, game_id: int, announcements: Sequence[Announcement], now: datetime
) -> None:
    """Write ``announcements`` about ``game_id`` (in the caller's transaction), each to the
    game's channel or to its user. An event that is already in the outbox is not written
    again, and nothing is posted in a channel outside servers, where the bot only answers
    interactions."""
    for announcement in announcements:
        values = _values(announcement, now)
        in_channel = announcement.to_user is None
        channel = games.c.channel_id if in_channel else literal(None, Id)
        about_game = select(
            *(literal(values[name], Text).label(name) for name in _NEW_ENTRY),
            games.c.guild_id,
            channel.label("channel_id"),
            literal(announcement.to_user, Id).label("user_id"),
            games.c.id,
        ).where(games.c.id == game_id, games.c.guild_id.is_not(None) | (not in_channel))
        columns = [*_NEW_ENTRY, "guild_id", "channel_id", "user_id", "game_id"]
        new = upsert(db, outbox).from_select(columns, about_game)
        db.execute(new.on_conflict_do_nothing(index_elements=[outbox.c.key]))


def about_written_game(game: FromClause, to_users: Sequence[bool]) -> list[Insert]:
    """PostgreSQL's inserts of announcements about the game row that ``game`` returns (the
    game's own write, as a CTE), to run in the same statement as that write: one for each of
    ``to_users`` (whether it is sent to its user rather than posted in the game's channel),
    with the parameters from :func:`announced`. As in :func:`add_announcements`, an event
    already in the outbox is not written again, and nothing is written if ``game`` returns no
    row."""
    inserts: list[Insert] = []
    for number, to_user in enumerate(to_users):
        given = ("user_id", *_NEW_ENTRY)
        values = [bindparam(f"a{number}_{name}", type_=outbox.c[name].type) for name in given]
        channel = literal(None, Id) if to_user else game.c.channel_id
        about_game = select(*values, game.c.guild_id, channel, game.c.id)
        if not to_user:  # never a post in a channel outside servers
            about_game = about_game.where(game.c.guild_id.is_not(None))
        columns = [*given, "guild_id", "channel_id", "game_id"]
        new = postgresql.insert(outbox).from_select(columns, about_game)
        inserts.append(new.on_conflict_do_nothing(index_elements=[outbox.c.key]))
    return inserts


def announced(announcements: Sequence[Announcement], now: datetime) -> dict[str, Any]:
    """The parameters of :func:`about_written_game` for ``announcements``, in order."""
    return {
        f"a{number}_{name}": value
        for number, announcement in enumerate(announcements)
        for name, value in (_values(announcement, now) | {"user_id": announcement.to_user}).items()
    }


def add_announcements_in(
    db: Sql,
    announcements: Sequence[Announcement],
    *,
    guild_id: int,
    channel_id: int,
    game_id: int | None,
    now: datetime,
) -> None:
    """Write ``announcements`` to be posted in ``channel_id`` (in the caller's transaction),
    or sent to their user: for what is not one game's (a tournament's round or table), or a
    game's post somewhere other than its own channel. An event already in the outbox is not
    written again."""
    for announcement in announcements:
        values = _values(announcement, now)
        to_user = announcement.to_user
        new = upsert(db, outbox).values(
            **values,
            guild_id=guild_id,
            channel_id=channel_id if to_user is None else None,
            user_id=to_user,
            game_id=game_id,
        )
        db.execute(new.on_conflict_do_nothing(index_elements=[outbox.c.key]))


def _values(announcement: Announcement, now: datetime) -> dict[str, Any]:
    """key, kind, payload, created_at, lease_until and lease_token of a new entry: one held
    for its writer is leased to ``WRITER_LEASE`` until the hold ends."""
    held = announcement.held_seconds > 0
    return {
        "key": announcement.key,
        "kind": checked_kind(announcement.kind),
        "payload": json.dumps(dict(announcement.payload), separators=(",", ":")),
        "created_at": to_text(now),
        "lease_until": (
            to_text(now + timedelta(seconds=announcement.held_seconds)) if held else None
        ),
        "lease_token": WRITER_LEASE if held else None,
    }


def _claim(
    db: Sql, now: str, until: str, token: str, limit: int, ours: ColumnElement[bool]
) -> list[RowMapping]:
    # SKIP LOCKED: where several processes share the database (PostgreSQL), a claim passes
    # over the rows another is claiming instead of waiting for them. SQLite has no row locks
    # (one process holds the file) and compiles no FOR UPDATE.
    due = (
        select(outbox.c.id)
        .where(outbox.c.status == inline("pending"))
        .where(outbox.c.lease_until.is_(None) | (outbox.c.lease_until <= now))
        .where(ours)
        .order_by(outbox.c.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    claimed = (
        update(outbox)
        .where(outbox.c.id.in_(due.scalar_subquery()))
        .values(lease_until=until, lease_token=token, attempts=outbox.c.attempts + 1)
        .returning(*_ENTRY_COLUMNS)
    )
    return list(db.execute(claimed).mappings().all())


def _deliverable(shard_zero: bool) -> ColumnElement[bool]:
    """The entries a process delivers: every server's (the outbox is shared), and, where it
    runs shard 0, the direct messages sent from outside servers. A post to a channel outside
    servers is nobody's: the bot cannot post there."""
    in_servers: ColumnElement[bool] = outbox.c.guild_id.is_not(None)
    if not shard_zero:
        return in_servers
    return in_servers | outbox.c.user_id.is_not(None)


def _address(row: RowMapping) -> Address:
    # The schema holds exactly one of the two.
    if row["user_id"] is not None:
        return UserAddress(row["user_id"])
    return ChannelAddress(row["channel_id"])


def _entry(row: RowMapping) -> OutboxEntry:
    return OutboxEntry(
        id=row["id"],
        key=row["key"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        address=_address(row),
        game_id=row["game_id"],
        payload=json.loads(row["payload"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        attempts=row["attempts"],
        lease=row["lease_token"],
    )


class SqlOutbox:
    """The :class:`~bot.store.interface.OutboxStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def claim(
        self,
        *,
        now: datetime,
        lease_seconds: float,
        limit: int = 20,
        shard_zero: bool = True,
    ) -> list[OutboxEntry]:
        """See ``OutboxStore.claim``."""
        ours = _deliverable(shard_zero)
        at, until = to_text(now), to_text(now + timedelta(seconds=lease_seconds))
        token = secrets.token_hex(_TOKEN_BYTES)
        rows = await self._writer.run(lambda db: _claim(db, at, until, token, limit, ours))
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
        sets: dict[str, object] = {"last_error": error, "lease_token": None}
        if outcome == "retry":
            # Nobody holds it until ``retry_at``; then the next claim takes it with a new lease.
            sets["lease_until"] = to_text(retry_at or now)
        else:
            sets |= {"status": outcome, "settled_at": to_text(now), "lease_until": None}
        settled = (
            update(outbox)
            .where(outbox.c.key == key, outbox.c.status == inline("pending"))
            .where(outbox.c.lease_token == lease)
            .values(sets)
        )
        count = await self._writer.run(lambda db: db.execute(settled).rowcount)
        if count == 0 and not await self._read.rows(select(outbox.c.id).where(outbox.c.key == key)):
            raise NotFound("announcement", key)
        return bool(count)

    async def next_due(self) -> datetime | None:
        """See ``OutboxStore.next_due``."""
        # '' (no lease: deliverable now) sorts before every time text.
        rows = await self._read.rows(
            select(func.min(func.coalesce(outbox.c.lease_until, "")).label("earliest")).where(
                outbox.c.status == inline("pending")
            )
        )
        earliest = rows[0]["earliest"]
        if earliest is None:
            return None
        return DELIVERABLE_NOW if earliest == "" else from_text(earliest)

    async def release_leases(self) -> None:
        """Make every pending announcement deliverable now. Only for a backend one process
        holds alone (SQLite, at start): a lease still held then belongs to a process that has
        died. Not part of the protocol: a shared database lets leases run out instead."""
        released = (
            update(outbox)
            .where(outbox.c.status == inline("pending"), outbox.c.lease_until.is_not(None))
            .values(lease_until=None, lease_token=None)
        )
        await self._writer.run(lambda db: db.execute(released))
