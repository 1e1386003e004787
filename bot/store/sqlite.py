"""The SQLite implementation of :class:`bot.store.interface.Store`."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Self

import aiosqlite

from bot.jarmo import Game
from bot.store import _challenge_sql as challenges
from bot.store import _rows
from bot.store._connection import connect_reader
from bot.store._deadline_sql import ClockStore
from bot.store._game_sql import insert_game
from bot.store._game_writes import GameWrites
from bot.store._games import GameLoader, dump
from bot.store._outbox_sql import OutboxStore
from bot.store._preflight import ProcessLock, check_database
from bot.store._quarantine_sql import quarantine
from bot.store._ratings_sql import replace_ratings
from bot.store._rows import CHALLENGE_COLUMNS, MATCH_COLUMNS, to_text
from bot.store._stats_sql import StatsReads
from bot.store._writer import Writer
from bot.store.clocks import RunningClock
from bot.store.errors import ChallengeClosed, NotFound
from bot.store.outbox import Announcement, OutboxEntry, Settlement
from bot.store.rating_records import (
    GameResultRecord,
    PlayerStatsRecord,
    RankedRating,
    RatedGameRecord,
    RatingHistoryRecord,
    RatingRecord,
    RatingTables,
    RatingUpdate,
    Tally,
)
from bot.store.records import (
    ActionRecord,
    ChallengeRecord,
    ClosedChallengeStatus,
    DamagedGame,
    EndedGameStatus,
    EndedMatchState,
    GameEnd,
    GameRecord,
    GuildSettings,
    MatchRecord,
    NewChallenge,
    PlayerRecord,
    Side,
)

_CLOSED_STATUSES = ("declined", "cancelled", "expired")


class SqliteStore:
    """The store on one SQLite file (WAL). Open with ``await SqliteStore.open(path)`` or
    ``async with open_store(path)``; see :class:`~bot.store.interface.Store` for the methods."""

    def __init__(
        self, writer: Writer, reader: aiosqlite.Connection, lock: ProcessLock | None = None
    ) -> None:
        self._lock = lock
        self._writer = writer
        self._read = reader
        self._loader = GameLoader(reader)
        self._games = GameWrites(self._writer, self._loader)
        self._stats = StatsReads(reader)
        self._clocks = ClockStore(self._writer, reader, self._loader)
        self._outbox = OutboxStore(self._writer, reader)
        self._closed = False

    @classmethod
    async def open(cls, path: str | PathLike[str]) -> Self:
        """Open (creating and migrating as needed) the database file at ``path``.

        Before touching the file it checks that it can be written and was not written by newer
        code, and takes the file for this process alone: raises ``DatabaseReadOnly``,
        ``DatabaseUnusable``, ``SchemaTooNew`` or ``DatabaseInUse``, leaving the file as it was.
        """
        lock = await asyncio.to_thread(_claim, path)
        writer = Writer()
        try:
            await writer.open(path)
            reader = await connect_reader(path)
        except BaseException:
            await writer.close()
            lock.release()
            raise
        store = cls(writer, reader, lock)
        try:
            await store._outbox.release_leases()  # see OutboxStore.release_leases
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Wait for the write in progress, then close the connections. Closing twice is fine."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._read.close()
            await self._writer.close()  # so it is the one that checkpoints and removes the WAL
        finally:
            if self._lock is not None:
                self._lock.release()  # only now: see ProcessLock

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # -- players and settings ------------------------------------------------------------------

    async def upsert_player(self, guild_id: int, user_id: int, display_name: str) -> None:
        """Create the player if new, and remember ``display_name``."""
        await self._writer.run(
            lambda db: db.execute(
                "INSERT INTO players (guild_id, user_id, display_name) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, user_id)"
                " DO UPDATE SET display_name = excluded.display_name",
                (guild_id, user_id, display_name),
            )
        )

    async def get_player(self, guild_id: int, user_id: int) -> PlayerRecord:
        """The player's name record in this guild. Raises ``NotFound``."""
        rows = await self._read.execute_fetchall(
            f"SELECT {_rows.PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return _rows.player(_one(rows, "player", (guild_id, user_id)))

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults when none are stored."""
        rows = await self._read.execute_fetchall(
            f"SELECT {_rows.SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return _rows.settings(rows[0]) if rows else GuildSettings(guild_id)

    async def set_settings(self, settings: GuildSettings) -> None:
        """Store (replace) the guild's settings."""
        await self._writer.run(
            lambda db: db.execute(
                f"INSERT OR REPLACE INTO guild_settings ({_rows.SETTINGS_COLUMNS})"
                " VALUES (?, ?, ?, ?)",
                (
                    settings.guild_id,
                    settings.default_ruleset,
                    settings.default_layout,
                    settings.challenge_expiry_seconds,
                ),
            )
        )

    async def get_state(self, key: str) -> str | None:
        """A value of the bot's own bookkeeping, or ``None`` when never set."""
        rows = await self._read.execute_fetchall(
            "SELECT value FROM bot_state WHERE key = ?", (key,)
        )
        return next(iter(rows))[0] if rows else None

    async def set_state(self, key: str, value: str) -> None:
        """Set (replace) a value of the bot's own bookkeeping."""
        await self._writer.run(
            lambda db: db.execute(
                "INSERT INTO bot_state (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )

    # -- challenges ----------------------------------------------------------------------------

    async def create_challenge(self, new: NewChallenge, *, now: datetime) -> ChallengeRecord:
        """Store a pending challenge (expiring an overdue one in the channel first).

        Raises ``ChannelBusy`` if the channel has a pending challenge or an active game.
        """
        challenges.check_new_challenge(new)
        at = to_text(now)

        def work(db: sqlite3.Connection) -> ChallengeRecord:
            challenges.expire_overdue(db, at, new.channel_id)  # makes way for the new one
            challenges.ensure_channel_free(db, new.channel_id)
            return challenges.insert_challenge(db, new, at)

        return await self._writer.run(work)

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord:
        """The challenge with this id. Raises ``NotFound``."""
        rows = await self._read.execute_fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return _rows.challenge(_one(rows, "challenge", challenge_id))

    async def pending_challenge(self, channel_id: int, *, now: datetime) -> ChallengeRecord | None:
        """The channel's pending challenge that is not overdue at ``now``, if any."""
        rows = await self._read.execute_fetchall(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges"
            " WHERE channel_id = ? AND status = 'pending' AND expires_at > ?",
            (channel_id, to_text(now)),
        )
        return _rows.challenge(rows[0]) if rows else None

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the challenge. Raises ``NotFound``."""
        cursor = await self._writer.run(
            lambda db: db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )
        )
        if cursor.rowcount != 1:
            raise NotFound("challenge", challenge_id)

    async def close_challenge(
        self, challenge_id: int, status: ClosedChallengeStatus, *, now: datetime
    ) -> ChallengeRecord:
        """Move a pending challenge to ``status``.

        Raises ``NotFound``, or ``ChallengeClosed`` if it is no longer pending. A challenge that
        is overdue at ``now`` is stored as expired and ``ChallengeClosed("expired")`` raised.
        """
        if status not in _CLOSED_STATUSES:
            raise ValueError(f"cannot close a challenge as {status!r}")
        at = to_text(now)

        def work(db: sqlite3.Connection) -> ChallengeRecord:
            current = challenges.pending_for_update(db, challenge_id)
            final = "expired" if current.is_overdue(now) else status
            return challenges.set_status(db, challenge_id, final, at)

        closed = await self._writer.run(work)
        if closed.status != status:  # it was overdue: stored as expired, reported as closed
            raise ChallengeClosed(challenge_id, closed.status)
        return closed

    async def expire_challenges(self, *, now: datetime) -> list[ChallengeRecord]:
        """Mark every pending challenge that is overdue at ``now`` expired; return them."""
        at = to_text(now)
        return await self._writer.run(lambda db: challenges.expire_overdue(db, at))

    # -- matches and games ---------------------------------------------------------------------

    async def accept_challenge(
        self, challenge_id: int, *, first_white_id: int, first_game: Game, now: datetime
    ) -> tuple[MatchRecord, GameRecord]:
        """Accept a pending challenge: mark it accepted, create its match and game 0, at once.

        Raises ``NotFound``, ``ChallengeClosed`` (``"expired"`` if overdue at ``now``; it is then
        stored as expired) or ``ChannelBusy``.
        """
        snapshot, at = dump(first_game), to_text(now)

        def work(db: sqlite3.Connection) -> tuple[MatchRecord, GameRecord] | None:
            challenge = challenges.pending_for_update(db, challenge_id)
            if challenge.is_overdue(now):
                challenges.set_status(db, challenge_id, "expired", at)
                return None  # committed as expired; reported below
            challenges.set_status(db, challenge_id, "accepted", at)
            match = challenges.insert_match(db, challenge, first_white_id, at)
            return match, insert_game(db, match, 0, first_game, snapshot, at)

        accepted = await self._writer.run(work)
        if accepted is None:
            raise ChallengeClosed(challenge_id, "expired")
        self._loader.trust(accepted[1].id, 0, snapshot)
        return accepted

    async def get_match(self, match_id: int) -> MatchRecord:
        """The match with this id. Raises ``NotFound``."""
        rows = await self._read.execute_fetchall(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)
        )
        return _rows.match(_one(rows, "match", match_id))

    async def latest_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's most recently created match, if any."""
        rows = await self._read.execute_fetchall(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _rows.match(rows[0]) if rows else None

    async def match_games(self, match_id: int) -> list[GameRecord]:
        """The match's games in index order. Raises ``NotFound`` or ``CorruptGame``."""
        games = await self._loader.load_where("g.match_id = ? ORDER BY g.game_index", (match_id,))
        if not games:
            await self.get_match(match_id)  # raises NotFound for an unknown match
        return games

    async def active_game(self, channel_id: int) -> GameRecord | None:
        """The channel's active game, if any. Raises ``CorruptGame``."""
        games = await self._loader.load_where(
            "g.channel_id = ? AND g.status = 'active'", (channel_id,)
        )
        return games[0] if games else None

    async def get_game(self, game_id: int) -> GameRecord:
        """The game with this id. Raises ``NotFound`` or ``CorruptGame``."""
        games = await self._loader.load_where("g.id = ?", (game_id,))
        if not games:
            raise NotFound("game", game_id)
        return games[0]

    async def game_actions(self, game_id: int) -> list[ActionRecord]:
        """The game's actions in ply order. Raises ``NotFound``."""
        rows = await self._read.execute_fetchall(
            f"SELECT {_rows.ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        if not rows and not await self._read.execute_fetchall(
            "SELECT 1 FROM games WHERE id = ?", (game_id,)
        ):
            raise NotFound("game", game_id)
        return [_rows.action(row) for row in rows]

    async def idle_games(self, *, before: datetime) -> list[GameRecord]:
        """Active games last active before ``before``, oldest first; damaged ones are left
        out (and logged once)."""
        games, _ = await self._loader.load_sound(
            "g.status = 'active' AND g.last_activity < ? ORDER BY g.last_activity, g.id",
            (to_text(before),),
        )
        return games

    async def damaged_games(self) -> list[DamagedGame]:
        """Every game whose stored record cannot be loaded, active ones first."""
        _, damaged = await self._loader.load_sound("1 ORDER BY g.status <> 'active', g.id", ())
        return damaged

    async def quarantine_game(self, game_id: int, *, reason: str, now: datetime) -> str:
        """Set a damaged game aside; see ``Store.quarantine_game``."""
        return await self._writer.run(lambda db: quarantine(db, game_id, reason, now))

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: int,
        move: str,
        game: Game,
        now: datetime,
        announce: Announcement | None = None,
    ) -> GameRecord:
        """Append a move that does not end the game; see ``Store.record_move``."""
        return await self._games.record_move(
            game_id,
            expected_version=expected_version,
            player_id=player_id,
            move=move,
            game=game,
            now=now,
            announce=announce,
        )

    async def end_game(
        self,
        game_id: int,
        *,
        expected_version: int,
        status: EndedGameStatus,
        winner: Side | None,
        points: dict[Side, int],
        termination: str,
        game: Game,
        move: tuple[int, str] | None = None,
        next_game: Game | None = None,
        match_state: EndedMatchState | None = None,
        match_winner_id: int | None = None,
        ratings: RatingUpdate | None = None,
        now: datetime,
        announce: Announcement | None = None,
    ) -> GameEnd:
        """Record everything that happens when a game ends, in one transaction; see
        ``Store.end_game``."""
        return await self._games.end_game(
            game_id,
            expected_version=expected_version,
            status=status,
            winner=winner,
            points=points,
            termination=termination,
            game=game,
            move=move,
            next_game=next_game,
            match_state=match_state,
            match_winner_id=match_winner_id,
            ratings=ratings,
            now=now,
            announce=announce,
        )

    # -- ratings, leaderboards, statistics and history (issue 6) ---------------------------------

    async def leaderboard(
        self, guild_id: int, ruleset: str, *, offset: int, limit: int
    ) -> list[RankedRating]:
        """One page of the server's leaderboard in the ruleset; see ``Store.leaderboard``."""
        return await self._stats.leaderboard(guild_id, ruleset, offset, limit)

    async def leaderboard_size(self, guild_id: int, ruleset: str) -> int:
        """How many players have a rating in the server's ruleset."""
        return await self._stats.leaderboard_size(guild_id, ruleset)

    async def player_rank(self, guild_id: int, ruleset: str, user_id: int) -> RankedRating | None:
        """The player's leaderboard row and rank, or ``None`` without a rating."""
        return await self._stats.player_rank(guild_id, ruleset, user_id)

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        """The player's ratings on the server, most games first."""
        return await self._stats.player_ratings(guild_id, user_id)

    async def rating_history(
        self, guild_id: int, user_id: int, ruleset: str, *, limit: int
    ) -> list[RatingHistoryRecord]:
        """The player's latest ``limit`` rating changes in the ruleset, oldest first."""
        return await self._stats.rating_history(guild_id, user_id, ruleset, limit)

    async def match_rating_changes(self, match_id: int) -> list[RatingHistoryRecord]:
        """The rating changes made by the match's games, in order."""
        return await self._stats.match_rating_changes(match_id)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStatsRecord:
        """The player's results as White and Black, matches and streak on the server."""
        matches, won, lost = await self._stats.match_counts(guild_id, user_id)
        names = await self._read.execute_fetchall(
            "SELECT display_name FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return PlayerStatsRecord(
            guild_id=guild_id,
            user_id=user_id,
            display_name=next(iter(names))[0] if names else None,
            as_white=await self._stats.tally(guild_id, user_id, "white"),
            as_black=await self._stats.tally(guild_id, user_id, "black"),
            matches=matches,
            match_wins=won,
            match_losses=lost,
            streak=await self._stats.streak(guild_id, user_id),
        )

    async def head_to_head(self, guild_id: int, user_id: int, opponent_id: int) -> Tally:
        """The player's results against one opponent on the server."""
        return await self._stats.head_to_head(guild_id, user_id, opponent_id)

    async def recent_games(
        self, guild_id: int, player_id: int, opponent_id: int | None = None, *, limit: int = 10
    ) -> list[GameResultRecord]:
        """The player's latest ended games, newest first; see ``Store.recent_games``."""
        return await self._stats.recent_games(guild_id, player_id, opponent_id, limit)

    async def game_result(self, game_id: int) -> GameResultRecord | None:
        """The game as history shows it, or ``None`` if unknown or without a result."""
        return await self._stats.game_result(game_id)

    async def rated_games(self, guild_id: int | None = None) -> list[RatedGameRecord]:
        """Every rated game in the order its ratings were applied."""
        return await self._stats.rated_games(guild_id)

    async def rating_tables(self, guild_id: int | None = None) -> RatingTables:
        """Every stored rating and rating-history row of the server (all for ``None``)."""
        return await self._stats.rating_tables(guild_id)

    async def replace_ratings(
        self, tables: RatingTables, *, guild_id: int | None = None, expected_games: int
    ) -> None:
        """Replace the server's ratings and history in one transaction; see
        ``Store.replace_ratings``."""
        await self._writer.run(lambda db: replace_ratings(db, tables, guild_id, expected_games))

    # -- correspondence clock (issue 9) --------------------------------------------------------

    async def running_clocks(self) -> list[RunningClock]:
        """Every active game whose clock runs, earliest deadline first."""
        return await self._clocks.running_clocks()

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
        """Claim reminders up to ``count`` for this version and deadline; see
        ``Store.mark_reminders_sent``."""
        return await self._clocks.mark_reminders_sent(
            game_id,
            expected_version=expected_version,
            deadline_at=deadline_at,
            count=count,
            announce=announce,
            now=now,
        )

    async def pause_clock(
        self, game_id: int, *, expected_version: int, now: datetime
    ) -> GameRecord:
        """Stop the running clock, keeping the time left; see ``Store.pause_clock``."""
        return await self._clocks.pause_clock(game_id, expected_version=expected_version, now=now)

    async def resume_clock(
        self, game_id: int, *, expected_version: int, now: datetime
    ) -> GameRecord:
        """Restart a paused clock with the time left; see ``Store.resume_clock``."""
        return await self._clocks.resume_clock(game_id, expected_version=expected_version, now=now)

    # -- announcement outbox (issue 14) --------------------------------------------------------

    async def claim_announcements(
        self, *, now: datetime, lease_seconds: float, limit: int = 20
    ) -> list[OutboxEntry]:
        """Take up to ``limit`` deliverable announcements; see ``Store.claim_announcements``."""
        return await self._outbox.claim(now=now, lease_seconds=lease_seconds, limit=limit)

    async def settle_announcement(
        self,
        key: str,
        outcome: Settlement,
        *,
        now: datetime,
        error: str | None = None,
        retry_at: datetime | None = None,
    ) -> None:
        """Record what became of an announcement; see ``Store.settle_announcement``."""
        await self._outbox.settle(key, outcome, now=now, error=error, retry_at=retry_at)

    async def next_announcement_at(self) -> datetime | None:
        """When the next pending announcement may be taken; see ``Store``."""
        return await self._outbox.next_due()


@asynccontextmanager
async def open_store(path: str | PathLike[str]) -> AsyncIterator[SqliteStore]:
    """``async with open_store(path) as store:`` opens the store and closes it afterwards."""
    store = await SqliteStore.open(path)
    try:
        yield store
    finally:
        await store.close()


def _claim(path: str | PathLike[str]) -> ProcessLock:
    check_database(path)
    Path(path).absolute().parent.mkdir(parents=True, exist_ok=True)
    lock = ProcessLock(path)
    lock.acquire()
    return lock


def _one(rows: object, kind: str, key: object) -> sqlite3.Row:
    rows = list(rows)  # type: ignore[call-overload]
    if not rows:
        raise NotFound(kind, key)
    return rows[0]
