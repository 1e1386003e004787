"""The correspondence clock on SQLite: pausing and resuming it, marking reminders sent, and
listing the running clocks for the deadline scheduler (a move restarts it: ``_game_store``).

Every write is guarded like a move: it applies only to the active game at the version (and, for
reminders, the deadline) the caller saw, so a reminder or a pause that lost a race to a move
changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from sqlalchemy import BigInteger, RowMapping, bindparam, case, literal, or_, select, update

from bot.store._game_sql import update_game
from bot.store._games import GameLoader
from bot.store._outbox_sql import add_announcements
from bot.store._rows import from_text, to_text
from bot.store._sql import Reader, Sql, Transactions, inline
from bot.store._vacation_sql import away
from bot.store.clocks import RunningClock
from bot.store.errors import NotFound
from bot.store.outbox import Announcement
from bot.store.records import GameRecord
from bot.store.schema import games, matches

_CLOCK_OF_GAME = (
    select(
        games.c.version,
        games.c.status,
        games.c.deadline_at,
        games.c.time_left_seconds,
        matches.c.time_per_move_seconds,
    )
    .join(matches, matches.c.id == games.c.match_id)
    .where(games.c.id == bindparam("game_id"))
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
    announce: Sequence[Announcement] = (),
    now: datetime | None = None,
) -> bool:
    """Raise the game's reminder count to ``count`` if it is lower and the game is still active
    at ``expected_version`` with ``deadline_at``; whether this call changed it. ``announce``
    (written at ``now``) is written only if it did."""
    marked = (
        update(games)
        .where(games.c.id == game_id, games.c.status == inline("active"))
        .where(games.c.version == expected_version, games.c.deadline_at == deadline_at)
        .where(games.c.reminders_sent < count)
        .values(reminders_sent=count)
    )
    claimed = db.execute(marked).rowcount == 1
    if claimed and announce and now is not None:
        add_announcements(db, game_id, announce, now)
    return claimed


def _clock_row(db: Sql, game_id: int) -> RowMapping:
    row = db.execute(_CLOCK_OF_GAME, {"game_id": game_id}).mappings().first()
    if row is None:
        raise NotFound("game", game_id)
    return row


def _mover_away(row: RowMapping) -> bool:
    """Whether the player to move is away, so that their clock stands."""
    if row["held"] is None:
        return False
    mover = json.loads(row["held"])["turn"]
    return bool(row["white_away"] if mover == "white" else row["black_away"])


def _running_clock(row: RowMapping) -> RunningClock:
    deadline = datetime.fromisoformat(row["deadline_at"])
    if deadline.utcoffset() is None:
        raise ValueError(f"deadline {row['deadline_at']!r} has no time zone")
    return RunningClock(
        game_id=row["id"], match_id=row["match_id"], guild_id=row["guild_id"],
        channel_id=row["channel_id"], version=row["version"], deadline_at=deadline,
        reminders_sent=int(row["reminders_sent"]),
        time_per_move_seconds=int(row["time_per_move_seconds"]),
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
        query = (
            select(
                games.c.id, games.c.match_id, games.c.guild_id, games.c.channel_id,
                games.c.version, games.c.deadline_at, games.c.reminders_sent,
                matches.c.time_per_move_seconds,
                # Only a game with a player away needs its turn (in the snapshot): its clock
                # stands if that player is to move.
                case(
                    (or_(away(games.c.white_id), away(games.c.black_id)), games.c.snapshot)
                ).label("held"),
                away(games.c.white_id).label("white_away"),
                away(games.c.black_id).label("black_away"),
            )
            .join(matches, matches.c.id == games.c.match_id)
            .where(games.c.status == inline("active"), games.c.deadline_at.is_not(None))
            .where(matches.c.time_per_move_seconds.is_not(None))
            # Outside servers only an interaction can post: a clock there is checked when a
            # player next acts, never by the background job.
            .where(games.c.guild_id.is_not(None))
            .order_by(games.c.deadline_at, games.c.id)
        )  # fmt: skip
        if len(ids) != shard_count:
            # Discord's shard of a server; the same arithmetic on both backends (64-bit).
            shard = games.c.guild_id.op(">>", return_type=BigInteger())(literal(22)) % shard_count
            query = query.where(shard.in_(ids))
        clocks = []
        for row in await self._read.rows(query):
            try:
                if _mover_away(row):
                    continue
                clocks.append(_running_clock(row))
            except (TypeError, ValueError) as exc:
                self._loader.report_damaged(row["id"], f"unreadable clock ({exc})")
        return clocks

    async def mark_reminders_sent(
        self,
        game_id: int,
        *,
        expected_version: int,
        deadline_at: datetime,
        count: int,
        announce: Sequence[Announcement] = (),
        now: datetime | None = None,
    ) -> bool:
        """See ``ClockStore.mark_reminders_sent``."""
        if count < 1:
            raise ValueError(f"count must be positive, not {count}")
        if announce and now is None:
            raise ValueError("an announcement needs the time it is written at (now)")
        at = to_text(deadline_at)
        return await self._writer.run(
            lambda db: mark_reminders(db, game_id, expected_version, at, count, announce, now)
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
        found = await self._loader.game(game_id)
        if found is None:
            raise NotFound("game", game_id)
        return found
