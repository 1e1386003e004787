"""The statements of game writes, as plain functions of a connection inside the caller's
transaction."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, NoReturn

from sqlalchemy import Update, bindparam, insert, select, update

from bot.jarmo import Game
from bot.store import _rows
from bot.store._changes import tell_changed
from bot.store._rows import GAME_COLUMNS, MATCH_COLUMNS, RECORD_COLUMNS
from bot.store._sql import UNIQUE_VIOLATIONS, Hot, Sql, inline
from bot.store.clocks import deadline_text
from bot.store.errors import ChannelTaken, GameNotActive, NotFound, StaleGame, StoreError
from bot.store.records import GameRecord, MatchRecord
from bot.store.schema import actions, games, matches

# The statements of a move and a game's end are built once, with named parameters: building a
# statement and its cache key cost more than running it (``bench/store.py``).
_HOLDER = Hot(
    select(games.c.id).where(
        games.c.channel_id == bindparam("channel_id"), games.c.status == inline("active")
    )
)
# Run by SQLAlchemy, which hands a unique index's refusal on as IntegrityError on both backends.
_NEW_GAME = insert(games).returning(*GAME_COLUMNS)
# A move's action, beside its game's ``game_id``. Its ``ply`` is its place in the game's history,
# which is not the game's version: the version counts every change of the game.
ACTION_PARAMETERS = {
    "ply": bindparam("ply", type_=actions.c.ply.type),
    "player_id": bindparam("player_id", type_=actions.c.player_id.type),
    "move": bindparam("move", type_=actions.c.move.type),
    "played_at": bindparam("played_at", type_=actions.c.played_at.type),
}
# The game's clock before the action, kept with it so that a takeback restores it exactly.
CLOCK_BEFORE = {"deadline_before": games.c.deadline_at, "reminders_before": games.c.reminders_sent}
_APPEND_ACTION = Hot(
    insert(actions).values(
        game_id=bindparam("game_id"),
        **ACTION_PARAMETERS,
        **{name: bindparam(name, type_=actions.c[name].type) for name in CLOCK_BEFORE},
    )
)
_MATCH = Hot(select(*MATCH_COLUMNS).where(matches.c.id == bindparam("match_id")))
_MATCH_OF_GAME = Hot(
    select(*MATCH_COLUMNS, *(column.label(name) for name, column in CLOCK_BEFORE.items()))
    .join(games, games.c.match_id == matches.c.id)
    .where(games.c.id == bindparam("game_id"))
)
_GAME_STATE = Hot(select(games.c.version, games.c.status).where(games.c.id == bindparam("game_id")))
_END_MATCH = Hot(
    update(matches)
    .where(matches.c.id == bindparam("match_id"), matches.c.state == inline("running"))
    .values(
        state=bindparam("new_state"),
        winner_id=bindparam("new_winner_id"),
        finished_at=bindparam("new_finished_at"),
    )
    .returning(*MATCH_COLUMNS)
)


def guarded_update(columns: frozenset[str]) -> Update:
    """The update of game ``game_id`` setting ``columns`` (parameters ``new_<column>``) if it
    is still active at ``expected_version``: the optimistic-concurrency check. It returns
    ``RECORD_COLUMNS``."""
    return (
        update(games)
        .where(games.c.id == bindparam("game_id"))
        .where(games.c.version == bindparam("expected_version"), games.c.status == inline("active"))
        .values({column: bindparam(f"new_{column}") for column in sorted(columns)})
        .returning(*RECORD_COLUMNS)
    )


@cache
def _update_game(columns: frozenset[str]) -> Hot:
    return Hot(guarded_update(columns))


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
    holder = _HOLDER.execute(db, {"channel_id": match.channel_id}).first()
    if holder is not None:
        raise ChannelTaken(match.channel_id, "game", holder["id"])
    new = dict(
        match_id=match.id, game_index=index, guild_id=match.guild_id,
        channel_id=match.channel_id, white_id=match.white_for(index),
        black_id=match.black_for(index), snapshot=snapshot, started_at=now, last_activity=now,
        deadline_at=deadline,
    )  # fmt: skip
    try:
        row = db.execute(_NEW_GAME, new).mappings().one()
    except UNIQUE_VIOLATIONS as exc:
        if "channel_id" not in str(exc) and "games_one_active_per_channel" not in str(exc):
            raise
        raise ChannelTaken(match.channel_id, "game") from exc
    return _rows.game(row, game, match)


def update_game(
    db: Sql, game_id: int, expected_version: int, sets: Mapping[str, object]
) -> Mapping[str, Any]:
    """Apply ``sets`` (column names and values) if the game is still active at
    ``expected_version``, and return the new row (without the snapshot): the
    optimistic-concurrency check.

    Raises ``NotFound``, ``GameNotActive`` or ``StaleGame``.
    """
    parameters = update_parameters(game_id, expected_version, sets)
    row: Mapping[str, Any] | None = _update_game(frozenset(sets)).execute(db, parameters).first()
    if row is None:
        _raise_stale(db, game_id, expected_version)
    if "version" in sets:  # a clock's pause or resume leaves it
        tell_changed(db, game_id, row["version"])
    return row


def update_parameters(
    game_id: int, expected_version: int, sets: Mapping[str, object]
) -> dict[str, object]:
    """The parameters of :func:`guarded_update` for ``sets`` (column names and values)."""
    parameters = {f"new_{column}": value for column, value in sets.items()}
    return parameters | {"game_id": game_id, "expected_version": expected_version}


def match_of_game(db: Sql, game_id: int) -> tuple[MatchRecord, dict[str, Any]]:
    """The match of a game, and the game's clock now (``CLOCK_BEFORE``'s names, for the
    action about to be added); raises ``NotFound`` for an unknown game."""
    row = _MATCH_OF_GAME.execute(db, {"game_id": game_id}).first()
    if row is None:
        raise NotFound("game", game_id)
    return _rows.match(row), {name: row[name] for name in CLOCK_BEFORE}


def _raise_stale(db: Sql, game_id: int, expected_version: int) -> NoReturn:
    row = _GAME_STATE.execute(db, {"game_id": game_id}).first()
    if row is None:
        raise NotFound("game", game_id)
    if row["status"] != "active":
        raise GameNotActive(game_id, expected_version, row["version"], row["status"])
    raise StaleGame(game_id, expected_version, row["version"])


def append_action(
    db: Sql,
    game_id: int,
    ply: int,
    player_id: int,
    move: str,
    now: str,
    clock_before: dict[str, Any],
) -> None:
    """Store action number ``ply`` of the game, with the game's clock before it."""
    action = {"game_id": game_id, "ply": ply, "player_id": player_id, "move": move}
    _APPEND_ACTION.execute(db, action | {"played_at": now} | clock_before)


def fetch_match(db: Sql, match_id: int) -> MatchRecord:
    """The match of a game (which must exist: games reference it)."""
    row = _MATCH.execute(db, {"match_id": match_id}).first()
    return _rows.match(row)


def end_match(
    db: Sql, match: MatchRecord, state: str, winner_id: int | None, now: str
) -> MatchRecord:
    """Give the running match its final state and winner."""
    if winner_id is not None and winner_id not in match.player_ids:
        raise ValueError(f"user {winner_id} does not play in match {match.id}")
    ended = {"new_state": state, "new_winner_id": winner_id, "new_finished_at": now}
    row = _END_MATCH.execute(db, ended | {"match_id": match.id}).first()
    if row is None:  # its active game was just ended, so this is a broken invariant
        raise StoreError(f"match {match.id} has already ended ({match.state})")
    return _rows.match(row)
