"""Tournaments: the statements of tournament writes as plain functions run inside a writer's
transaction, and :class:`SqlTournaments`, the tournament role built on them, for either
backend (see ``_sql``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Table, delete, func, insert, literal, select, update

from bot.store._outbox_sql import add_announcements, add_announcements_in
from bot.store._rows import from_text, only_row, to_text
from bot.store._sql import UNIQUE_VIOLATIONS, Reader, Sql, Transactions, inline, one, upsert
from bot.store.errors import NotFound
from bot.store.outbox import Announcement
from bot.store.schema import games, tournament_entries, tournament_pairings, tournaments
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

TOURNAMENT_COLUMNS = tuple(tournaments.c)
# Announcements with the time they are written at.
Timed = tuple[Sequence[Announcement], datetime]
_ENTRIES = select(
    tournament_entries.c.user_id, tournament_entries.c.seed, tournament_entries.c.withdrawn
)
_PAIRINGS = select(tournament_pairings)
_TOURNAMENTS = select(tournaments)


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
        forced_by=row["forced_by"],
    )


def insert_tournament(db: Sql, new: NewTournament, now: str) -> TournamentRecord:
    """Insert ``new`` with the next id; ``ChannelHasTournament`` if the channel has an open one."""
    busy = one(
        db,
        select(tournaments.c.id).where(
            tournaments.c.channel_id == new.channel_id, tournaments.c.status != inline("finished")
        ),
    )
    if busy is not None:
        raise ChannelHasTournament(new.channel_id)
    values = {
        "guild_id": new.guild_id, "channel_id": new.channel_id,
        "organiser_id": new.organiser_id, "name": new.name, "format": new.format,
        "rounds": new.rounds, "game_count": new.game_count, "ruleset": new.ruleset,
        "layout": new.layout, "max_plies": new.max_plies,
        "time_per_move_seconds": new.time_per_move_seconds, "created_at": now,
    }  # fmt: skip
    next_id = func.coalesce(func.max(tournaments.c.id), 0) + 1
    created = insert(tournaments).from_select(
        ["id", *values], select(next_id, *_literals(tournaments, values))
    )
    return tournament_row(db.execute(created.returning(*TOURNAMENT_COLUMNS)).mappings().one())


def _literals(table: Table, values: dict[str, Any]) -> list[Any]:
    """``values`` as a select list, each typed as its column (PostgreSQL needs the types)."""
    return [literal(value, table.c[name].type).label(name) for name, value in values.items()]


def _status(db: Sql, tournament_id: int) -> str:
    row = one(db, select(tournaments.c.status).where(tournaments.c.id == tournament_id))
    if row is None:
        raise NotFound("tournament", tournament_id)
    return str(row["status"])


def _entries(db: Sql, tournament_id: int) -> list[EntryRecord]:
    rows = db.execute(_entries_of(tournament_id)).mappings()
    return [entry_row(row) for row in rows]


def _entries_of(tournament_id: int) -> Any:
    return _ENTRIES.where(tournament_entries.c.tournament_id == tournament_id).order_by(
        tournament_entries.c.seed
    )


def join(db: Sql, tournament_id: int, user_id: int) -> list[EntryRecord]:
    """Enter a player at the end of the seed order, during sign-up only."""
    status = _status(db, tournament_id)
    if status != "signup":
        raise TournamentClosed(tournament_id, status)
    entries = tournament_entries
    next_seed = func.coalesce(func.max(entries.c.seed), 0) + 1
    last = select(
        *_literals(entries, {"tournament_id": tournament_id, "user_id": user_id}), next_seed
    ).where(entries.c.tournament_id == tournament_id)
    joined = upsert(db, entries).from_select(["tournament_id", "user_id", "seed"], last)
    db.execute(
        joined.on_conflict_do_nothing(index_elements=[entries.c.tournament_id, entries.c.user_id])
    )
    return _entries(db, tournament_id)


def leave(db: Sql, tournament_id: int, user_id: int) -> list[EntryRecord]:
    """Take a player off the list, during sign-up only."""
    status = _status(db, tournament_id)
    if status != "signup":
        raise TournamentClosed(tournament_id, status)
    db.execute(
        delete(tournament_entries).where(
            tournament_entries.c.tournament_id == tournament_id,
            tournament_entries.c.user_id == user_id,
        )
    )
    return _entries(db, tournament_id)


def withdraw(db: Sql, tournament_id: int, user_id: int) -> None:
    """Mark an entered player withdrawn."""
    withdrawn = (
        update(tournament_entries)
        .where(tournament_entries.c.tournament_id == tournament_id)
        .where(tournament_entries.c.user_id == user_id)
        .values(withdrawn=1)
    )
    changed = db.execute(withdrawn).rowcount
    if changed == 0:
        raise NotFound("tournament entry", (tournament_id, user_id))


def start_round(
    db: Sql,
    tournament_id: int,
    expected_round: int,
    pairings: Sequence[NewPairing],
    announce: Timed | None = None,
) -> TournamentRecord:
    """Move the tournament from ``expected_round`` to the next and store that round's boards;
    ``announce`` (with its time) goes to the tournament's channel."""
    _status(db, tournament_id)  # NotFound for an unknown id
    expected_status = "signup" if expected_round == 0 else "running"
    started = (
        update(tournaments)
        .where(tournaments.c.id == tournament_id, tournaments.c.current_round == expected_round)
        .where(tournaments.c.status == expected_status)
        .values(status="running", current_round=tournaments.c.current_round + 1)
        .returning(*TOURNAMENT_COLUMNS)
    )
    row = one(db, started)
    if row is None:
        raise StaleTournament(tournament_id, expected_round)
    boards = [
        {
            "tournament_id": tournament_id, "round_number": expected_round + 1, "board": board,
            "first_id": p.first_id, "second_id": p.second_id, "decided": int(p.decided),
            "winner_id": p.winner_id, "forfeit": int(p.forfeit),
        }
        for board, p in enumerate(pairings, 1)
    ]  # fmt: skip
    if boards:
        db.execute(insert(tournament_pairings), boards)
    record = tournament_row(row)
    _announce_in_channel(db, record, announce)
    return record


def _announce_in_channel(db: Sql, record: TournamentRecord, announce: Timed | None) -> None:
    if announce is not None:
        announcements, now = announce
        add_announcements_in(
            db,
            announcements,
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
    announce: Sequence[Announcement] = (),
) -> TournamentRecord:
    """Mark a running tournament at ``expected_round`` finished; ``announce`` goes to the
    tournament's channel."""
    finished = (
        update(tournaments)
        .where(tournaments.c.id == tournament_id, tournaments.c.current_round == expected_round)
        .where(tournaments.c.status == inline("running"))
        .values(status="finished", finished_at=to_text(now))
        .returning(*TOURNAMENT_COLUMNS)
    )
    row = one(db, finished)
    if row is None:
        _status(db, tournament_id)  # NotFound for an unknown id
        raise StaleTournament(tournament_id, expected_round)
    record = tournament_row(row)
    _announce_in_channel(db, record, (announce, now))
    return record


def attach_match(
    db: Sql,
    tournament_id: int,
    round_number: int,
    board: int,
    match_id: int,
    announce: Timed | None = None,
) -> bool:
    """Record the match a pairing is played as, unless it has one; whether it was recorded.
    ``announce`` (with its time) goes to the match's channel, about its first game, only with
    the match it is about."""
    key = (tournament_id, round_number, board)
    attached = (
        update(tournament_pairings)
        .where(_pairing(*key), tournament_pairings.c.match_id.is_(None))
        .values(match_id=match_id)
    )
    if db.execute(attached).rowcount == 0:
        if one(db, _PAIRINGS.where(_pairing(*key))) is None:
            raise NotFound("pairing", key)
        return False
    if announce is None:
        return True
    first = one(
        db,
        select(games.c.id)
        .where(games.c.match_id == match_id)
        .order_by(games.c.game_index)
        .limit(1),
    )
    if first is None:
        raise NotFound("match", match_id)
    announcements, now = announce
    add_announcements(db, first["id"], announcements, now)  # in the game's (the match's) channel
    return True


def _with_time(announce: Sequence[Announcement], now: datetime | None) -> Timed | None:
    """``announce`` with the time it is written at; an announcement needs one."""
    if not announce:
        return None
    if now is None:
        raise ValueError(f"announcement {announce[0].key} without a time")
    return announce, now


def decide(
    db: Sql,
    tournament_id: int,
    round_number: int,
    board: int,
    result: PairingResult,
) -> bool:
    """Record a pairing's result unless it has one; whether it was recorded."""
    decided = (
        update(tournament_pairings)
        .where(_pairing(tournament_id, round_number, board), tournament_pairings.c.decided == 0)
        .values(
            decided=1, winner_id=result.winner_id, first_points=result.first_points,
            second_points=result.second_points, forfeit=int(result.forfeit),
            forced_by=result.forced_by,
        )
    )  # fmt: skip
    if db.execute(decided).rowcount:
        return True
    if one(db, _PAIRINGS.where(_pairing(tournament_id, round_number, board))) is None:
        raise NotFound("pairing", (tournament_id, round_number, board))
    return False


def _pairing(tournament_id: int, round_number: int, board: int) -> Any:
    p = tournament_pairings.c
    return (
        (p.tournament_id == tournament_id) & (p.round_number == round_number) & (p.board == board)
    )


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
        rows = await self._read.rows(_TOURNAMENTS.where(tournaments.c.id == tournament_id))
        return tournament_row(only_row(rows, "tournament", tournament_id))

    async def latest_in(self, channel_id: int) -> TournamentRecord | None:
        """See :meth:`TournamentStore.latest_in`."""
        rows = await self._read.rows(
            _TOURNAMENTS.where(tournaments.c.channel_id == channel_id)
            .order_by(tournaments.c.status == inline("finished"), tournaments.c.id.desc())
            .limit(1)
        )
        return next((tournament_row(row) for row in rows), None)

    async def last_finished_in(self, channel_id: int) -> TournamentRecord | None:
        """See :meth:`TournamentStore.last_finished_in`."""
        rows = await self._read.rows(
            _TOURNAMENTS.where(tournaments.c.channel_id == channel_id)
            .where(tournaments.c.status == inline("finished"))
            .order_by(tournaments.c.finished_at.desc(), tournaments.c.id.desc())
            .limit(1)
        )
        return next((tournament_row(row) for row in rows), None)

    async def finished_with(
        self, guild_id: int, user_id: int, *, limit: int
    ) -> list[TournamentRecord]:
        """See :meth:`TournamentStore.finished_with`."""
        entered = select(tournament_entries.c.tournament_id).where(
            tournament_entries.c.user_id == user_id
        )
        rows = await self._read.rows(
            _TOURNAMENTS.where(tournaments.c.guild_id == guild_id)
            .where(tournaments.c.status == inline("finished"))
            .where(tournaments.c.id.in_(entered.scalar_subquery()))
            .order_by(tournaments.c.finished_at.desc(), tournaments.c.id.desc())
            .limit(limit)
        )
        return [tournament_row(row) for row in rows]

    async def of_server(self, guild_id: int, *, limit: int) -> list[TournamentRecord]:
        """See :meth:`TournamentStore.of_server`."""
        rows = await self._read.rows(
            _TOURNAMENTS.where(tournaments.c.guild_id == guild_id)
            .order_by(tournaments.c.id.desc())
            .limit(limit)
        )
        return [tournament_row(row) for row in rows]

    async def running(self) -> list[TournamentRecord]:
        """See :meth:`TournamentStore.running`."""
        rows = await self._read.rows(
            _TOURNAMENTS.where(tournaments.c.status == inline("running")).order_by(tournaments.c.id)
        )
        return [tournament_row(row) for row in rows]

    async def attach_message(self, tournament_id: int, message_id: int) -> None:
        """See :meth:`TournamentStore.attach_message`."""

        def attach(db: Sql) -> None:
            attached = (
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(message_id=message_id)
            )
            changed = db.execute(attached).rowcount
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
        rows = await self._read.rows(_entries_of(tournament_id))
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
        announce: Sequence[Announcement] = (),
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
        announce: Sequence[Announcement] = (),
    ) -> TournamentRecord:
        """See :meth:`TournamentStore.finish`."""
        return await self._writer.run(
            lambda db: finish(db, tournament_id, expected_round, now, announce)
        )

    async def pairings(self, tournament_id: int) -> list[PairingRecord]:
        """See :meth:`TournamentStore.pairings`."""
        p = tournament_pairings.c
        rows = await self._read.rows(
            _PAIRINGS.where(p.tournament_id == tournament_id).order_by(p.round_number, p.board)
        )
        return [pairing_row(row) for row in rows]

    async def pairing_of_match(self, match_id: int) -> PairingRecord | None:
        """See :meth:`TournamentStore.pairing_of_match`."""
        rows = await self._read.rows(_PAIRINGS.where(tournament_pairings.c.match_id == match_id))
        return next((pairing_row(row) for row in rows), None)

    async def attach_match(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        match_id: int,
        *,
        announce: Sequence[Announcement] = (),
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
