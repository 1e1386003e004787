"""Damaged games on SQLite. Setting one aside: its raw record is copied, byte for byte, to
``quarantined_games``, and the game is reset to an empty one that loads again. An active game is
aborted with its match (nothing counts); an ended game keeps its recorded result."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from bot.jarmo import Game
from bot.store._games import GameLoader, dump
from bot.store._rows import to_text
from bot.store._sql import Sql, Transactions
from bot.store.errors import NotFound
from bot.store.records import DamagedGame

# Columns the loader parses as times: a damaged one is replaced so the game loads again.
_REQUIRED_TIMES = ("started_at", "last_activity")
_OPTIONAL_TIMES = ("finished_at", "deadline_at", "paused_at")


class SqlQuarantine:
    """The :class:`~bot.store.interface.QuarantineStore`."""

    def __init__(self, writer: Transactions, loader: GameLoader) -> None:
        self._writer = writer
        self._loader = loader

    async def damaged_games(self) -> list[DamagedGame]:
        """Every game whose stored record cannot be loaded, active ones first."""
        _, damaged = await self._loader.load_sound("TRUE ORDER BY g.status <> 'active', g.id", ())
        return damaged

    async def set_aside(self, game_id: int, *, reason: str, now: datetime) -> str:
        """Set a damaged game aside; see ``QuarantineStore.set_aside``."""
        return await self._writer.run(lambda db: quarantine(db, game_id, reason, now))


def quarantine(db: Sql, game_id: int, reason: str, now: datetime) -> str:
    """Keep the game's raw record and make the game loadable; returns its status afterwards
    (``"aborted"`` for a game that was active). Raises ``NotFound``."""
    row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound("game", game_id)
    actions = db.execute(
        "SELECT * FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
    ).fetchall()
    at = to_text(now)
    db.execute(
        "INSERT INTO quarantined_games (game_id, reason, game_row, actions, quarantined_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",  # keep the first copy
        (game_id, reason, _json_row(row), json.dumps([_plain(a) for a in actions]), at),
    )
    fresh = _fresh_game(db, row["match_id"])
    sets: dict[str, object] = {"version": 0, "snapshot": dump(fresh)}
    sets |= {column: at for column in _REQUIRED_TIMES if not _is_time(row[column])}
    sets |= {
        column: None
        for column in _OPTIONAL_TIMES
        if row[column] is not None and not _is_time(row[column])
    }
    status = row["status"]
    if status == "active":
        points = fresh.points()
        status = "aborted"
        sets |= {
            "status": status, "termination": "damaged", "winner": None, "rated": 0,
            "points_white": points["white"], "points_black": points["black"],
            "deadline_at": None, "time_left_seconds": None, "paused_at": None,
            "last_activity": at, "finished_at": at,
        }  # fmt: skip
        db.execute(
            "UPDATE matches SET state = 'aborted', winner_id = NULL, finished_at = ?"
            " WHERE id = ? AND state = 'running'",
            (at, row["match_id"]),
        )
    db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM game_reviews WHERE game_id = ?", (game_id,))  # of moves now gone
    assignments = ", ".join(f"{column} = ?" for column in sets)
    db.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*sets.values(), game_id))
    db.execute(
        "UPDATE outbox SET status = 'dropped', last_error = 'the game was quarantined',"
        " settled_at = ? WHERE game_id = ? AND status = 'pending'",
        (at, game_id),
    )
    return str(status)


def _fresh_game(db: Sql, match_id: int) -> Game:
    match = db.execute(
        "SELECT ruleset, layout, max_plies FROM matches WHERE id = ?", (match_id,)
    ).fetchone()
    try:
        return Game.new(match["ruleset"], match["layout"], match["max_plies"])
    except (TypeError, ValueError):  # the match row is damaged too: an empty default game
        return Game.new()


def _is_time(value: object) -> bool:
    """Whether ``value`` reads as a time the loader accepts (ISO 8601 with a zone)."""
    if not isinstance(value, str):
        return False
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return False
    return moment.utcoffset() is not None


def _plain(row: sqlite3.Row) -> dict[str, object]:
    return {key: _jsonable(row[key]) for key in row.keys()}  # noqa: SIM118 - Row is no dict


def _json_row(row: sqlite3.Row) -> str:
    return json.dumps(_plain(row))


def _jsonable(value: object) -> object:
    # A damaged column can hold bytes (a BLOB); keep them, readable, as hex.
    return {"hex": value.hex()} if isinstance(value, bytes) else value
