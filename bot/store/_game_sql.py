"""The statements of game writes, as plain functions of a connection inside the caller's
transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NoReturn

from sqlalchemy import RowMapping, insert, select, update

from bot.jarmo import Game
from bot.store import _rows
from bot.store._rows import GAME_COLUMNS, MATCH_COLUMNS, RECORD_COLUMNS
from bot.store._sql import UNIQUE_VIOLATIONS, Sql, one
from bot.store.clocks import deadline_text
from bot.store.errors import ChannelBusy, GameNotActive, NotFound, StaleGame, StoreError
from bot.store.records import GameRecord, MatchRecord
from bot.store.schema import actions, games, matches


def insert_game(
    db: Sql, match: MatchRecord, index: int, game: Game, snapshot: str, now: str
) -> GameRecord:
    """Create game ``index`` of ``match``, active, sides from the match.

    Raises ``ChannelBusy`` if the channel already has an active game.
    """
    if game.history:
        raise ValueError("a new game must not have any moves yet")
    if not 0 <= index < match.game_count:
        raise ValueError(f"match {match.id} has {match.game_count} games, there is no game {index}")
    deadline = deadline_text(now, match.time_per_move_seconds)  # the clock starts with the game
    # Asked first, because after a failed statement PostgreSQL answers nothing more in the
    # transaction; the unique index still decides a race between two processes.
    holder = db.execute(
        select(games.c.id).where(games.c.channel_id == match.channel_id, games.c.status == "active")
    ).scalar()
    if holder is not None:
        raise ChannelBusy(match.channel_id, "game", holder)
    new = insert(games).values(
        match_id=match.id, game_index=index, guild_id=match.guild_id,
        channel_id=match.channel_id, white_id=match.white_for(index),
        black_id=match.black_for(index), snapshot=snapshot, started_at=now, last_activity=now,
        deadline_at=deadline,
    )  # fmt: skip
    try:
        row = db.execute(new.returning(*GAME_COLUMNS)).mappings().one()
    except UNIQUE_VIOLATIONS as exc:
        if "channel_id" not in str(exc) and "games_one_active_per_channel" not in str(exc):
            raise
        raise ChannelBusy(match.channel_id, "game") from exc
    return _rows.game(row, game)


def update_game(
    db: Sql, game_id: int, expected_version: int, sets: Mapping[str, object]
) -> RowMapping:
    """Apply ``sets`` (column names and values) if the game is still active at
    ``expected_version``, and return the new row (without the snapshot): the
    optimistic-concurrency check.

    Raises ``NotFound``, ``GameNotActive`` or ``StaleGame``.
    """
    changed = (
        update(games)
        .where(games.c.id == game_id, games.c.version == expected_version)
        .where(games.c.status == "active")
        .values(sets)
        .returning(*RECORD_COLUMNS)
    )
    row = one(db, changed)
    if row is None:
        _raise_stale(db, game_id, expected_version)
    return row


def _raise_stale(db: Sql, game_id: int, expected_version: int) -> NoReturn:
    row = one(db, select(games.c.version, games.c.status).where(games.c.id == game_id))
    if row is None:
        raise NotFound("game", game_id)
    if row["status"] != "active":
        raise GameNotActive(game_id, expected_version, row["version"], row["status"])
    raise StaleGame(game_id, expected_version, row["version"])


def append_action(db: Sql, game_id: int, ply: int, player_id: int, move: str, now: str) -> None:
    """Store action number ``ply`` of the game."""
    db.execute(
        insert(actions).values(
            game_id=game_id, ply=ply, player_id=player_id, move=move, played_at=now
        )
    )


def fetch_match(db: Sql, match_id: int) -> MatchRecord:
    """The match of a game (which must exist: games reference it)."""
    row = db.execute(select(*MATCH_COLUMNS).where(matches.c.id == match_id)).mappings().one()
    return _rows.match(row)


def end_match(
    db: Sql, match: MatchRecord, state: str, winner_id: int | None, now: str
) -> MatchRecord:
    """Give the running match its final state and winner."""
    if winner_id is not None and winner_id not in match.player_ids:
        raise ValueError(f"user {winner_id} does not play in match {match.id}")
    row = one(
        db,
        update(matches)
        .where(matches.c.id == match.id, matches.c.state == "running")
        .values(state=state, winner_id=winner_id, finished_at=now)
        .returning(*MATCH_COLUMNS),
    )
    if row is None:  # its active game was just ended, so this is a broken invariant
        raise StoreError(f"match {match.id} has already ended ({match.state})")
    return _rows.match(row)
