"""The SQL of game writes, as plain functions run inside the writer's transaction (own thread)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import NoReturn

from bot.jarmo import Game
from bot.store import _rows
from bot.store._rows import GAME_COLUMNS, MATCH_COLUMNS
from bot.store._sql import UNIQUE_VIOLATIONS, Sql
from bot.store.clocks import deadline_text
from bot.store.errors import ChannelTaken, GameNotActive, NotFound, StaleGame, StoreError
from bot.store.records import GameRecord, MatchRecord


def insert_game(
    db: Sql, match: MatchRecord, index: int, game: Game, snapshot: str, now: str
) -> GameRecord:
    """Create game ``index`` of ``match``, active, sides from the match.

    Raises ``ChannelTaken`` if the channel already has an active game.
    """
    if game.history:
        raise ValueError("a new game must not have any moves yet")
    if not 0 <= index < match.game_count:
        raise ValueError(f"match {match.id} has {match.game_count} games, there is no game {index}")
    deadline = deadline_text(now, match.time_per_move_seconds)  # the clock starts with the game
    # Asked first, because after a failed statement PostgreSQL answers nothing more in the
    # transaction; the unique index still decides a race between two processes.
    holder = db.execute(
        "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (match.channel_id,)
    ).fetchone()
    if holder is not None:
        raise ChannelTaken(match.channel_id, "game", holder[0])
    try:
        row = db.execute(
            "INSERT INTO games (match_id, game_index, guild_id, channel_id, white_id, black_id,"
            " snapshot, started_at, last_activity, deadline_at)"
            f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
            (
                match.id, index, match.guild_id, match.channel_id, match.white_for(index),
                match.black_for(index), snapshot, now, now, deadline,
            ),
        ).fetchone()  # fmt: skip
    except UNIQUE_VIOLATIONS as exc:
        if "channel_id" not in str(exc) and "games_one_active_per_channel" not in str(exc):
            raise
        raise ChannelTaken(match.channel_id, "game") from exc
    return _rows.game(row, game, match)


def update_game(
    db: Sql, game_id: int, expected_version: int, sets: Mapping[str, object]
) -> sqlite3.Row:
    """Apply ``sets`` (constant column names) if the game is still active at
    ``expected_version``, and return the new row: the optimistic-concurrency check.

    Raises ``NotFound``, ``GameNotActive`` or ``StaleGame``.
    """
    assignments = ", ".join(f"{column} = ?" for column in sets)
    row: sqlite3.Row | None = db.execute(
        f"UPDATE games SET {assignments} WHERE id = ? AND version = ? AND status = 'active'"
        f" RETURNING {GAME_COLUMNS}",
        (*sets.values(), game_id, expected_version),
    ).fetchone()
    if row is None:
        _raise_stale(db, game_id, expected_version)
    return row


def _raise_stale(db: Sql, game_id: int, expected_version: int) -> NoReturn:
    row = db.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound("game", game_id)
    version, status = row
    if status != "active":
        raise GameNotActive(game_id, expected_version, version, status)
    raise StaleGame(game_id, expected_version, version)


def append_action(db: Sql, game_id: int, ply: int, player_id: int, move: str, now: str) -> None:
    """Store action number ``ply`` of the game."""
    db.execute(
        "INSERT INTO actions (game_id, ply, player_id, move, played_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, ply, player_id, move, now),
    )


def fetch_match(db: Sql, match_id: int) -> MatchRecord:
    """The match of a game (which must exist: games reference it)."""
    row = db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    return _rows.match(row)


def end_match(
    db: Sql, match: MatchRecord, state: str, winner_id: int | None, now: str
) -> MatchRecord:
    """Give the running match its final state and winner."""
    if winner_id is not None and winner_id not in match.player_ids:
        raise ValueError(f"user {winner_id} does not play in match {match.id}")
    row = db.execute(
        "UPDATE matches SET state = ?, winner_id = ?, finished_at = ?"
        f" WHERE id = ? AND state = 'running' RETURNING {MATCH_COLUMNS}",
        (state, winner_id, now, match.id),
    ).fetchone()
    if row is None:  # its active game was just ended, so this is a broken invariant
        raise StoreError(f"match {match.id} has already ended ({match.state})")
    return _rows.match(row)
