"""Tournaments: the SQL of tournament writes as plain functions run inside a writer's
transaction, and :class:`SqlTournaments`, the tournament role built on them, for either
backend (see ``_sql``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.store._outbox_sql import add_announcement, add_announcement_in
from bot.store._rows import from_text, only_row, to_text
from bot.store._sql import UNIQUE_VIOLATIONS, Reader, Sql, Transactions
from bot.store.errors import NotFound
from bot.store.outbox import Announcement
from bot.store.tournament_records import (
    ChannelHasTournament,
    EntryRecord,
    NewPairing,
    NewTournament,
    PairingRecord,
    PairingResult,
    StaleTournament,
    TournamentClosed,
    TournamentRecord,
)

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, format, rounds, game_count, ruleset, layout,"
    " max_plies, time_per_move_seconds, status, current_round, message_id, created_at,"
    " finished_at"
)
ENTRY_COLUMNS = "user_id, seed, withdrawn"
PAIRING_COLUMNS = (
    "tournament_id, round_number, board, first_id, second_id, match_id, decided, winner_id,"
    " first_points, second_points, forfeit"
)


# Ids are the highest plus one (portable SQL has no common way to generate them); two writers
# may pick the same one at once, and the loser tries again with the next.
_CREATE_ATTEMPTS = 5


def tournament_row(row: Any) -> TournamentRecord:
    """A ``tournaments`` row as a record."""
    created = from_text(row["created_at"])
    assert created is not None  # NOT NULL in the schema
    return TournamentRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        format=row["format"],
        rounds=row["rounds"],
        game_count=row["game_count"],
        ruleset=row["ruleset"],
        layout=row["layout"],
        max_plies=row["max_plies"],
        time_per_move_seconds=row["time_per_move_seconds"],
        status=row["status"],
        current_round=row["current_round"],
        message_id=row["message_id"],
        created_at=created,
        finished_at=from_text(row["finished_at"]),
    )


def entry_row(row: Any) -> EntryRecord:
    """A ``tournament_entries`` row as a record."""
    return EntryRecord(user_id=row["user_id"], seed=row["seed"], withdrawn=bool(row["withdrawn"]))


def pairing_row(row: Any) -> PairingRecord:
    """A ``tournament_pairings`` row as a record."""
    return PairingRecord(
        tournament_id=row["tournament_id"],
        round=row["round_number"],
        board=row["board"],
        first_id=row["first_id"],
        second_id=row["second_id"],
        match_id=row["match_id"],
        decided=bool(row["decided"]),
        winner_id=row["winner_id"],
        first_points=row["first_points"],
        second_points=row["second_points"],
        forfeit=bool(row["forfeit"]),
    )


def insert_tournament(db: Sql, new: NewTournament, now: str) -> TournamentRecord:
    """Insert ``new`` with the next id; ``ChannelHasTournament`` if the channel has an open one."""
    busy = db.execute(
        "SELECT 1 FROM tournaments WHERE channel_id = ? AND status <> 'finished'",
        (new.channel_id,),
    ).fetchone()
    if busy is not None:
        raise ChannelHasTournament(new.channel_id)
    row = db.execute(
        "INSERT INTO tournaments (id, guild_id, channel_id, organiser_id, name, format, rounds,"
        " game_count, ruleset, layout, max_plies, time_per_move_seconds, created_at)"
        " SELECT COALESCE(MAX(id), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM tournaments"
        f" RETURNING {TOURNAMENT_COLUMNS}",
        (
            new.guild_id,
            new.channel_id,
            new.organiser_id,
            new.name,
            new.format,
            new.rounds,
            new.game_count,
            new.ruleset,
            new.layout,
            new.max_plies,
            new.time_per_move_seconds,
            now,
        ),
    ).fetchone()
    return tournament_row(row)


def _status(db: Sql, tournament_id: int) -> str:
    row = db.execute("SELECT status FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None:
        raise NotFound("tournament", tournament_id)
    return str(row["status"])


def _entries(db: Sql, tournament_id: int) -> list[EntryRecord]:
    rows = db.execute(
        f"SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = ? ORDER BY seed",
        (tournament_id,),
    ).fetchall()
    return [entry_row(row) for row in rows]


def join(db: Sql, tournament_id: int, user_id: int) -> list[EntryRecord]:
    """Enter a player at the end of the seed order, during sign-up only."""
    status = _status(db, tournament_id)
    if status != "signup":
        raise TournamentClosed(tournament_id, status)
    db.execute(
        "INSERT INTO tournament_entries (tournament_id, user_id, seed)"
        " SELECT ?1, ?2, COALESCE(MAX(seed), 0) + 1 FROM tournament_entries"
        " WHERE tournament_id = ?1"
        " ON CONFLICT (tournament_id, user_id) DO NOTHING",
        (tournament_id, user_id),
    )
    return _entries(db, tournament_id)


def leave(db: Sql, tournament_id: int, user_id: int) -> list[EntryRecord]:
    """Take a player off the list, during sign-up only."""
    status = _status(db, tournament_id)
    if status != "signup":
        raise TournamentClosed(tournament_id, status)
    db.execute(
        "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )
    return _entries(db, tournament_id)


def withdraw(db: Sql, tournament_id: int, user_id: int) -> None:
    """Mark an entered player withdrawn."""
    changed = db.execute(
        "UPDATE tournament_entries SET withdrawn = 1 WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    ).rowcount
    if changed == 0:
        raise NotFound("tournament entry", (tournament_id, user_id))


def start_round(
    db: Sql,
    tournament_id: int,
    expected_round: int,
    pairings: Sequence[NewPairing],
    announce: tuple[Announcement, datetime] | None = None,
) -> TournamentRecord:
    """Move the tournament from ``expected_round`` to the next and store that round's boards;
    ``announce`` (with its time) goes to the tournament's channel."""
    _status(db, tournament_id)  # NotFound for an unknown id
    expected_status = "signup" if expected_round == 0 else "running"
    row = db.execute(
        "UPDATE tournaments SET status = 'running', current_round = current_round + 1"
        " WHERE id = ? AND current_round = ? AND status = ?"
        f" RETURNING {TOURNAMENT_COLUMNS}",
        (tournament_id, expected_round, expected_status),
    ).fetchone()
    if row is None:
        raise StaleTournament(tournament_id, expected_round)
    db.executemany(
        "INSERT INTO tournament_pairings (tournament_id, round_number, board, first_id,"
        " second_id, decided, winner_id, forfeit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                tournament_id,
                expected_round + 1,
                board,
                p.first_id,
                p.second_id,
                int(p.decided),
                p.winner_id,
                int(p.forfeit),
            )
            for board, p in enumerate(pairings, 1)
        ],
    )
    record = tournament_row(row)
    _announce_in_channel(db, record, announce)
    return record


def _announce_in_channel(
    db: Sql, record: TournamentRecord, announce: tuple[Announcement, datetime] | None
) -> None:
    if announce is not None:
        announcement, now = announce
        add_announcement_in(
            db,
            announcement,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            game_id=None,
            now=now,
        )


def finish(
    db: Sql,
    tournament_id: int,
    expected_round: int,
    now: datetime,
    announce: Announcement | None = None,
) -> TournamentRecord:
    """Mark a running tournament at ``expected_round`` finished; ``announce`` goes to the
    tournament's channel."""
    row = db.execute(
        "UPDATE tournaments SET status = 'finished', finished_at = ?"
        " WHERE id = ? AND current_round = ? AND status = 'running'"
        f" RETURNING {TOURNAMENT_COLUMNS}",
        (to_text(now), tournament_id, expected_round),
    ).fetchone()
    if row is None:
        _status(db, tournament_id)  # NotFound for an unknown id
        raise StaleTournament(tournament_id, expected_round)
    record = tournament_row(row)
    _announce_in_channel(db, record, None if announce is None else (announce, now))
    return record


def attach_match(
    db: Sql,
    tournament_id: int,
    round_number: int,
    board: int,
    match_id: int,
    announce: tuple[Announcement, datetime] | None = None,
) -> bool:
    """Record the match a pairing is played as, unless it has one; whether it was recorded.
    ``announce`` (with its time) goes to the match's channel, about its first game, only with
    the match it is about."""
    key = (tournament_id, round_number, board)
    changed = db.execute(
        "UPDATE tournament_pairings SET match_id = ?"
        " WHERE tournament_id = ? AND round_number = ? AND board = ? AND match_id IS NULL",
        (match_id, *key),
    ).rowcount
    if changed == 0:
        found = db.execute(
            "SELECT 1 FROM tournament_pairings WHERE tournament_id = ? AND round_number = ?"
            " AND board = ?",
            key,
        ).fetchone()
        if found is None:
            raise NotFound("pairing", key)
        return False
    if announce is None:
        return True
    first = db.execute(
        "SELECT id FROM games WHERE match_id = ? ORDER BY game_index LIMIT 1", (match_id,)
    ).fetchone()
    if first is None:
        raise NotFound("match", match_id)
    announcement, now = announce
    add_announcement(db, first["id"], announcement, now)  # in the game's (the match's) channel
    return True


def _with_time(
    announce: Announcement | None, now: datetime | None
) -> tuple[Announcement, datetime] | None:
    """``announce`` with the time it is written at; an announcement needs one."""
    if announce is None:
        return None
    if now is None:
        raise ValueError(f"announcement {announce.key} without a time")
    return announce, now


def decide(
    db: Sql,
    tournament_id: int,
    round_number: int,
    board: int,
    result: PairingResult,
) -> bool:
    """Record a pairing's result unless it has one; whether it was recorded."""
    changed = db.execute(
        "UPDATE tournament_pairings SET decided = 1, winner_id = ?, first_points = ?,"
        " second_points = ?, forfeit = ?"
        " WHERE tournament_id = ? AND round_number = ? AND board = ? AND decided = 0",
        (
            result.winner_id,
            result.first_points,
            result.second_points,
            int(result.forfeit),
            tournament_id,
            round_number,
            board,
        ),
    ).rowcount
    if changed:
        return True
    exists = db.execute(
        "SELECT 1 FROM tournament_pairings"
        " WHERE tournament_id = ? AND round_number = ? AND board = ?",
        (tournament_id, round_number, board),
    ).fetchone()
    if exists is None:
        raise NotFound("pairing", (tournament_id, round_number, board))
    return False


class SqlTournaments:
    """The :class:`~bot.store.interface.TournamentStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def create(self, new: NewTournament, *, now: datetime) -> TournamentRecord:
        """See :meth:`TournamentStore.create`."""
        at = to_text(now)
        for _ in range(_CREATE_ATTEMPTS):
            try:
                return await self._writer.run(lambda db: insert_tournament(db, new, at))
            except UNIQUE_VIOLATIONS:
                # Another writer got in first: with this channel (the partial unique index),
                # or with the same new id (on PostgreSQL, where writers run at once): try again.
                pass
        raise ChannelHasTournament(new.channel_id)

    async def get(self, tournament_id: int) -> TournamentRecord:
        """See :meth:`TournamentStore.get`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return tournament_row(only_row(rows, "tournament", tournament_id))

    async def latest_in(self, channel_id: int) -> TournamentRecord | None:
        """See :meth:`TournamentStore.latest_in`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE channel_id = ?"
            " ORDER BY status = 'finished', id DESC LIMIT 1",
            (channel_id,),
        )
        return next((tournament_row(row) for row in rows), None)

    async def last_finished_in(self, channel_id: int) -> TournamentRecord | None:
        """See :meth:`TournamentStore.last_finished_in`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments"
            " WHERE channel_id = ? AND status = 'finished'"
            " ORDER BY finished_at DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return next((tournament_row(row) for row in rows), None)

    async def finished_with(
        self, guild_id: int, user_id: int, *, limit: int
    ) -> list[TournamentRecord]:
        """See :meth:`TournamentStore.finished_with`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments"
            " WHERE guild_id = ? AND status = 'finished' AND id IN"
            " (SELECT tournament_id FROM tournament_entries WHERE user_id = ?)"
            " ORDER BY finished_at DESC, id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [tournament_row(row) for row in rows]

    async def running(self) -> list[TournamentRecord]:
        """See :meth:`TournamentStore.running`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = 'running' ORDER BY id"
        )
        return [tournament_row(row) for row in rows]

    async def attach_message(self, tournament_id: int, message_id: int) -> None:
        """See :meth:`TournamentStore.attach_message`."""

        def attach(db: Sql) -> None:
            changed = db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            ).rowcount
            if changed == 0:
                raise NotFound("tournament", tournament_id)

        await self._writer.run(attach)

    async def join(self, tournament_id: int, user_id: int) -> list[EntryRecord]:
        """See :meth:`TournamentStore.join`."""
        return await self._writer.run(lambda db: join(db, tournament_id, user_id))

    async def leave(self, tournament_id: int, user_id: int) -> list[EntryRecord]:
        """See :meth:`TournamentStore.leave`."""
        return await self._writer.run(lambda db: leave(db, tournament_id, user_id))

    async def entries(self, tournament_id: int) -> list[EntryRecord]:
        """See :meth:`TournamentStore.entries`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = ? ORDER BY seed",
            (tournament_id,),
        )
        return [entry_row(row) for row in rows]

    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        """See :meth:`TournamentStore.withdraw`."""
        await self._writer.run(lambda db: withdraw(db, tournament_id, user_id))

    async def start_round(
        self,
        tournament_id: int,
        *,
        expected_round: int,
        pairings: Sequence[NewPairing],
        announce: Announcement | None = None,
        now: datetime | None = None,
    ) -> TournamentRecord:
        """See :meth:`TournamentStore.start_round`."""
        timed = _with_time(announce, now)
        return await self._writer.run(
            lambda db: start_round(db, tournament_id, expected_round, pairings, timed)
        )

    async def finish(
        self,
        tournament_id: int,
        *,
        expected_round: int,
        now: datetime,
        announce: Announcement | None = None,
    ) -> TournamentRecord:
        """See :meth:`TournamentStore.finish`."""
        return await self._writer.run(
            lambda db: finish(db, tournament_id, expected_round, now, announce)
        )

    async def pairings(self, tournament_id: int) -> list[PairingRecord]:
        """See :meth:`TournamentStore.pairings`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament_id = ?"
            " ORDER BY round_number, board",
            (tournament_id,),
        )
        return [pairing_row(row) for row in rows]

    async def pairing_of_match(self, match_id: int) -> PairingRecord | None:
        """See :meth:`TournamentStore.pairing_of_match`."""
        rows = await self._read.execute_fetchall(
            f"SELECT {PAIRING_COLUMNS} FROM tournament_pairings WHERE match_id = ?", (match_id,)
        )
        return next((pairing_row(row) for row in rows), None)

    async def attach_match(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        match_id: int,
        *,
        announce: Announcement | None = None,
        now: datetime | None = None,
    ) -> bool:
        """See :meth:`TournamentStore.attach_match`."""
        timed = _with_time(announce, now)
        return await self._writer.run(
            lambda db: attach_match(db, tournament_id, round_number, board, match_id, timed)
        )

    async def decide(
        self, tournament_id: int, round_number: int, board: int, result: PairingResult
    ) -> bool:
        """See :meth:`TournamentStore.decide`."""
        return await self._writer.run(
            lambda db: decide(db, tournament_id, round_number, board, result)
        )
