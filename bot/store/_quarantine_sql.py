"""Damaged games. Setting one aside: its raw record is copied, byte for byte, to
``quarantined_games``, and the game is reset to an empty one that loads again. An active game is
aborted with its match (nothing counts); an ended game keeps its recorded result."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import RowMapping, delete, select, true, update

from bot.jarmo import Game
from bot.store._changes import tell_changed
from bot.store._games import GameLoader, dump
from bot.store._rows import to_text
from bot.store._sql import Sql, Transactions, inline, one, upsert
from bot.store.errors import NotFound
from bot.store.records import DamagedGame
from bot.store.schema import actions, game_reviews, games, matches, outbox, quarantined_games

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
        _, damaged = await self._loader.load_sound(
            true(), order_by=(games.c.status != inline("active"), games.c.id)
        )
        return damaged

    async def set_aside(self, game_id: int, *, reason: str, now: datetime) -> str:
        """Set a damaged game aside; see ``QuarantineStore.set_aside``."""
        return await self._writer.run(lambda db: quarantine(db, game_id, reason, now))


def quarantine(db: Sql, game_id: int, reason: str, now: datetime) -> str:
    """Keep the game's raw record and make the game loadable; returns its status afterwards
    (``"aborted"`` for a game that was active). Raises ``NotFound``."""
    row = one(db, select(games).where(games.c.id == game_id))
    if row is None:
        raise NotFound("game", game_id)
    played = db.execute(
        select(actions).where(actions.c.game_id == game_id).order_by(actions.c.ply)
    ).mappings()
    at = to_text(now)
    kept = upsert(db, quarantined_games).values(
        game_id=game_id, reason=reason, game_row=_json_row(row),
        actions=json.dumps([_plain(a) for a in played]), quarantined_at=at,
    )  # fmt: skip
    db.execute(kept.on_conflict_do_nothing(index_elements=[quarantined_games.c.game_id]))
    fresh = _fresh_game(db, row["match_id"])
    # The version goes on, never back: a view of the game from before is stale.
    sets: dict[str, object] = {"version": games.c.version + 1, "snapshot": dump(fresh)}
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
            update(matches)
            .where(matches.c.id == row["match_id"], matches.c.state == inline("running"))
            .values(state="aborted", winner_id=None, finished_at=at)
        )
    db.execute(delete(actions).where(actions.c.game_id == game_id))
    # Its review is of moves that are now gone.
    db.execute(delete(game_reviews).where(game_reviews.c.game_id == game_id))
    fresh_version = db.execute(
        update(games).where(games.c.id == game_id).values(sets).returning(games.c.version)
    ).scalar_one()
    tell_changed(db, game_id, fresh_version)
    db.execute(
        update(outbox)
        .where(outbox.c.game_id == game_id, outbox.c.status == inline("pending"))
        .values(status="dropped", last_error="the game was quarantined", settled_at=at)
    )
    return str(status)


def _fresh_game(db: Sql, match_id: int) -> Game:
    match = one(
        db,
        select(matches.c.ruleset, matches.c.layout, matches.c.max_plies).where(
            matches.c.id == match_id
        ),
    )
    if match is None:
        return Game.new()
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


def _plain(row: RowMapping) -> dict[str, object]:
    return {key: _jsonable(value) for key, value in row.items()}


def _json_row(row: RowMapping) -> str:
    return json.dumps(_plain(row))


def _jsonable(value: object) -> object:
    # A damaged column can hold bytes (a BLOB); keep them, readable, as hex.
    return {"hex": value.hex()} if isinstance(value, bytes) else value
