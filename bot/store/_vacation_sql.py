"""The vacation ledger's SQL: a vacation starts and ends in one transaction each, with what it
does to the player's games.

Whoever ends a vacation (the player, or a process's scheduler when the days run out) does it
with ``UPDATE … WHERE ended_at IS NULL``: one of them gets the row, and only that one moves the
deadlines on and writes the announcements. A start changes the version of each game where the
player's clock runs, so that a reminder or timeout worked out from a clock read before it (in
any process) fails its version check; the running clocks leave out the games whose player to
move is away.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, exists, insert, select, update

from bot.store._changes import tell_changed
from bot.store._outbox_sql import add_announcements
from bot.store._rows import from_text, to_text
from bot.store._sql import UNIQUE_VIOLATIONS, Reader, Sql, Transactions, inline
from bot.store.outbox import Announcement
from bot.store.schema import games, matches, vacations
from bot.store.vacations import Vacation

# Announcements about games, each beside the game it is about.
GameAnnouncements = Sequence[tuple[int, Announcement]]
_AWAY = vacations.c.ended_at.is_(None)


def away(player: Any) -> Any:
    """The condition that ``player`` (a column or a value) is away now."""
    return exists().where(vacations.c.user_id == player, _AWAY)


class _AlreadyAway(Exception):
    """The player has a vacation open already (the unique index said so)."""


def _vacation(row: Any) -> Vacation:
    ended = from_text(row["ended_at"])
    return Vacation(
        id=row["id"],
        user_id=row["user_id"],
        started_at=datetime.fromisoformat(row["started_at"]),
        ends_at=datetime.fromisoformat(row["ends_at"]),
        ended_at=ended,
    )


def start_vacation(
    db: Sql, user_id: int, now: datetime, ends_at: datetime, announce: GameAnnouncements
) -> Vacation:
    """Open a vacation for ``user_id`` and move on the version of each game where their clock
    runs. Raises ``_AlreadyAway`` if one is open."""
    # Asked first, because after a failed statement PostgreSQL answers nothing more in the
    # transaction; the unique index still decides a race between two processes.
    if db.execute(select(vacations.c.id).where(vacations.c.user_id == user_id, _AWAY)).first():
        raise _AlreadyAway
    new = {"user_id": user_id, "started_at": to_text(now), "ends_at": to_text(ends_at)}
    try:
        row = db.execute(insert(vacations).values(new).returning(*vacations.c)).mappings().one()
    except UNIQUE_VIOLATIONS as exc:
        raise _AlreadyAway from exc
    for game in _timed_games_of(db, user_id):
        started = (
            update(games)
            .where(games.c.id == game["id"])
            .values(version=games.c.version + 1)
            .returning(games.c.version)
        )
        tell_changed(db, game["id"], db.execute(started).scalar_one())
    for game_id, announcement in announce:
        add_announcements(db, game_id, [announcement], now)
    return _vacation(row)


def end_vacation(
    db: Sql, vacation_id: int, at: datetime, announce: GameAnnouncements
) -> Vacation | None:
    """Close the vacation at ``at`` and move on the deadline of each game where its player is
    to move by the time their clock stood; ``None`` (nothing written) if it was closed
    already."""
    closed = (
        update(vacations)
        .where(vacations.c.id == vacation_id, _AWAY)
        .values(ended_at=to_text(at))
        .returning(*vacations.c)
    )
    row = db.execute(closed).mappings().first()
    if row is None:
        return None
    vacation = _vacation(row)
    for game in _timed_games_of(db, vacation.user_id):
        _move_deadline_on(db, game, vacation, at)
    for game_id, announcement in announce:
        add_announcements(db, game_id, [announcement], at)
    return vacation


def _timed_games_of(db: Sql, user_id: int) -> list[Any]:
    found = []
    for side in ("white", "black"):
        query = (
            select(
                games.c.id, games.c.version, games.c.snapshot, games.c.white_id,
                games.c.deadline_at, games.c.last_activity, matches.c.time_per_move_seconds,
            )
            .join(matches, matches.c.id == games.c.match_id)
            .where(games.c[f"{side}_id"] == user_id, games.c.status == inline("active"))
            .where(games.c.deadline_at.is_not(None), matches.c.time_per_move_seconds.is_not(None))
        )  # fmt: skip
        for game in db.execute(query).mappings():
            turn = json.loads(game["snapshot"])["turn"]
            if (turn == "white") == (game["white_id"] == user_id):
                found.append(game)
    return found


def _move_deadline_on(db: Sql, game: Any, vacation: Vacation, at: datetime) -> None:
    """The player's clock stood from when the vacation began, or from when they came on move
    if that was later; it never gives more than a whole period from ``at``."""
    deadline = datetime.fromisoformat(game["deadline_at"])
    stood_from = max(vacation.started_at, datetime.fromisoformat(game["last_activity"]))
    stood = max(at - stood_from, timedelta(0))
    whole_period = at + timedelta(seconds=game["time_per_move_seconds"])
    moved = max(deadline, min(deadline + stood, whole_period))
    moved_on = db.execute(
        update(games)
        .where(games.c.id == game["id"], games.c.version == game["version"])
        .values(deadline_at=to_text(moved), version=games.c.version + 1)
        .returning(games.c.version)
    ).scalar_one_or_none()
    if moved_on is not None:
        tell_changed(db, game["id"], moved_on)


class SqlVacations:
    """The :class:`~bot.store.interface.VacationStore`."""

    def __init__(self, writer: Transactions, reader: Reader) -> None:
        self._writer = writer
        self._read = reader

    async def current(self, user_id: int) -> Vacation | None:
        """See ``VacationStore.current``."""
        query = select(*vacations.c).where(vacations.c.user_id == user_id, _AWAY)
        rows = await self._read.rows(query)
        return _vacation(rows[0]) if rows else None

    async def of_player(self, user_id: int, *, since: datetime) -> list[Vacation]:
        """See ``VacationStore.of_player``."""
        still = vacations.c.ended_at.is_(None) | (vacations.c.ended_at > to_text(since))
        query = (
            select(*vacations.c)
            .where(and_(vacations.c.user_id == user_id, still))
            .order_by(vacations.c.started_at)
        )
        return [_vacation(row) for row in await self._read.rows(query)]

    async def open(self) -> list[Vacation]:
        """See ``VacationStore.open``."""
        query = select(*vacations.c).where(_AWAY).order_by(vacations.c.ends_at, vacations.c.id)
        return [_vacation(row) for row in await self._read.rows(query)]

    async def start(
        self,
        user_id: int,
        *,
        now: datetime,
        ends_at: datetime,
        announce: Sequence[tuple[int, Announcement]] = (),
    ) -> Vacation | None:
        """See ``VacationStore.start``."""
        if ends_at <= now:
            raise ValueError(f"a vacation must end after it starts ({ends_at} <= {now})")
        try:
            return await self._writer.run(
                lambda db: start_vacation(db, user_id, now, ends_at, announce)
            )
        except _AlreadyAway:
            return None

    async def end(
        self, vacation_id: int, *, at: datetime, announce: Sequence[tuple[int, Announcement]] = ()
    ) -> Vacation | None:
        """See ``VacationStore.end``."""
        to_text(at)
        return await self._writer.run(lambda db: end_vacation(db, vacation_id, at, announce))
