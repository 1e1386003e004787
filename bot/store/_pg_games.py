"""Games on PostgreSQL: the shared :class:`~bot.store._game_store.SqlGames`, with the hot path,
a move that does not end the game, as one statement on the bot's own event loop.

The shared write runs five round trips on a writer thread (``BEGIN``, the clock's read, the
version-guarded ``UPDATE``, the action's ``INSERT``, ``COMMIT``). Here one statement does it all:
its ``UPDATE`` keeps the version check (PostgreSQL's row lock decides a race), restarts a timed
match's clock from the match's own period, and its ``INSERT`` of the action happens only if the
update did. Being one statement, it commits or not as a whole. When it changes nothing, the
shared write runs instead: it finds out why and raises the store's error for it (a version
never goes back, so what failed once fails again).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import asyncpg

from bot.jarmo import Game
from bot.store import _rows
from bot.store._game_store import SqlGames, check_played
from bot.store._games import GameLoader, dump
from bot.store._pg_connection import UNAVAILABLE, unavailable
from bot.store._rows import MATCH_PREFIX, PREFIXED_MATCH_COLUMNS, RECORD_COLUMNS, to_text
from bot.store._sql import Reader, Transactions
from bot.store.outbox import Announcement
from bot.store.records import GameRecord

# $1 game, $2 expected version, $3 snapshot, $4 now (store time text), $5 player, $6 move,
# $7 the mover's side. The deadline text is built like ``clocks.deadline_text``: fixed-width
# ISO 8601 UTC with microseconds. The moved game comes back with its match.
_RECORD_MOVE = f"""
WITH moved AS (
    UPDATE games AS g
    SET version = g.version + 1, snapshot = $3, last_activity = $4::text,
        (deadline_at, reminders_sent, time_left_seconds, paused_at) = (
            SELECT
                CASE WHEN m.time_per_move_seconds IS NULL THEN g.deadline_at
                ELSE to_char(
                    (($4::text)::timestamptz + make_interval(secs => m.time_per_move_seconds))
                        AT TIME ZONE 'UTC',
                    'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')
                END,
                CASE WHEN m.time_per_move_seconds IS NULL THEN g.reminders_sent ELSE 0 END,
                CASE WHEN m.time_per_move_seconds IS NULL THEN g.time_left_seconds END,
                CASE WHEN m.time_per_move_seconds IS NULL THEN g.paused_at END
            FROM matches AS m WHERE m.id = g.match_id
        )
    WHERE g.id = $1 AND g.version = $2 AND g.status = 'active'
        AND $5 = CASE $7::text WHEN 'white' THEN g.white_id ELSE g.black_id END
    RETURNING {RECORD_COLUMNS}
), played AS (
    INSERT INTO actions (game_id, ply, player_id, move, played_at)
    SELECT id, version, $5, $6, $4::text FROM moved
)
SELECT {", ".join(f"moved.{c}" for c in RECORD_COLUMNS.split(", "))}, {PREFIXED_MATCH_COLUMNS}
FROM moved JOIN matches AS m ON m.id = moved.match_id
"""


class PgGames(SqlGames):
    """The :class:`~bot.store.interface.GameStore` on PostgreSQL (see the module)."""

    def __init__(
        self, writer: Transactions, reader: Reader, loader: GameLoader, pool: asyncpg.Pool
    ) -> None:
        super().__init__(writer, reader, loader)
        self._pool = pool

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
        """Append a move that does not end the game; see ``GameStore.record_move``."""
        if announce is not None:  # the announcement's row needs the shared transaction
            return await self._record_shared(
                game_id, expected_version, player_id, move, game, now, announce
            )
        check_played(game, expected_version + 1, move)
        if game.over:
            raise ValueError(f"{move} ends the game: record it with end")
        snapshot, at = dump(game), to_text(now)
        # The engine has already passed the turn on, so the mover is the side not to move.
        side = "black" if game.turn == "white" else "white"
        arguments = (game_id, expected_version, snapshot, at, player_id, move, side)
        row = await _finish_even_if_cancelled(self._one_statement(arguments))
        if row is None:
            return await self._record_shared(
                game_id, expected_version, player_id, move, game, now, None
            )
        self._loader.trust(game_id, expected_version + 1, snapshot)
        return _rows.game(row, game, _rows.match(row, MATCH_PREFIX))

    async def _one_statement(self, arguments: tuple[Any, ...]) -> Any:
        try:
            return await self._pool.fetchrow(_RECORD_MOVE, *arguments)
        except UNAVAILABLE as exc:
            raise unavailable(exc) from exc

    async def _record_shared(
        self,
        game_id: int,
        expected_version: int,
        player_id: int,
        move: str,
        game: Game,
        now: datetime,
        announce: Announcement | None,
    ) -> GameRecord:
        return await super().record_move(
            game_id, expected_version=expected_version, player_id=player_id, move=move,
            game=game, now=now, announce=announce,
        )  # fmt: skip


async def _finish_even_if_cancelled(statement: Any) -> Any:
    """Await ``statement``; if the caller is cancelled meanwhile, let the statement end (it may
    commit) before the ``CancelledError`` goes on (the ``interface`` convention)."""
    running = asyncio.ensure_future(statement)
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        while not running.done():
            try:
                await asyncio.wait([running])
            except asyncio.CancelledError:
                continue
        if not running.cancelled():
            running.exception()  # retrieved: the caller hears only of its cancellation
        raise
