"""Column lists and row -> record conversion, kept next to each other so they stay in step."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.store.clocks import GameClock
from bot.store.errors import NotFound
from bot.store.records import (
    ActionRecord,
    ChallengeOptions,
    ChallengeRecord,
    GameRecord,
    MatchRecord,
    PlayerRecord,
)

if TYPE_CHECKING:
    from bot.jarmo import Game

CHALLENGE_COLUMNS = (
    "id, guild_id, channel_id, challenger_id, challenged_id, game_count, ruleset, layout, side,"
    " max_plies, vs_computer_level, status, created_at, expires_at, closed_at, message_id,"
    " time_per_move_seconds"
)
MATCH_COLUMNS = (
    "id, guild_id, channel_id, challenge_id, first_white_id, first_black_id, ruleset, layout,"
    " game_count, max_plies, state, winner_id, created_at, finished_at, time_per_move_seconds"
)
# Unqualified, so the same list serves SELECT and UPDATE/INSERT ... RETURNING.
GAME_COLUMNS = (
    "id, match_id, game_index, guild_id, channel_id, white_id, black_id, status, version,"
    " snapshot, winner, points_white, points_black, termination, started_at, last_activity,"
    " finished_at, deadline_at, reminders_sent, time_left_seconds, paused_at"
)
# What ``game`` reads: every game column but the snapshot, for a write whose caller holds the
# game already (a move's snapshot is several kB it has just sent).
RECORD_COLUMNS = ", ".join(c for c in GAME_COLUMNS.split(", ") if c != "snapshot")
PLAYER_COLUMNS = "guild_id, user_id, display_name"
ACTION_COLUMNS = "game_id, ply, player_id, move, played_at"


def only_row(rows: Iterable[sqlite3.Row], kind: str, key: object) -> sqlite3.Row:
    """The first of ``rows``; raises ``NotFound(kind, key)`` when there is none."""
    for row in rows:
        return row
    raise NotFound(kind, key)


def to_text(moment: datetime) -> str:
    """``moment`` as fixed-width ISO 8601 UTC text, which sorts and compares like the time."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a timezone-aware UTC datetime is required, got {moment!r}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_text(text: str | None) -> datetime | None:
    """The inverse of :func:`to_text` (``None`` stays ``None``)."""
    return None if text is None else datetime.fromisoformat(text)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def challenge(row: sqlite3.Row) -> ChallengeRecord:
    """A challenge row (``CHALLENGE_COLUMNS``) as a record."""
    options = ChallengeOptions(
        game_count=row["game_count"],
        ruleset=row["ruleset"],
        layout=row["layout"],
        side=row["side"],
        max_plies=row["max_plies"],
        vs_computer_level=row["vs_computer_level"],
        time_per_move_seconds=row["time_per_move_seconds"],
    )
    return ChallengeRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        challenged_id=row["challenged_id"],
        options=options,
        status=row["status"],
        created_at=_at(row["created_at"]),
        expires_at=_at(row["expires_at"]),
        closed_at=from_text(row["closed_at"]),
        message_id=row["message_id"],
    )


def match(row: sqlite3.Row, prefix: str = "") -> MatchRecord:
    """A match row (``MATCH_COLUMNS``, each named with ``prefix`` in front) as a record."""
    return MatchRecord(
        id=row[prefix + "id"],
        guild_id=row[prefix + "guild_id"],
        channel_id=row[prefix + "channel_id"],
        challenge_id=row[prefix + "challenge_id"],
        first_white_id=row[prefix + "first_white_id"],
        first_black_id=row[prefix + "first_black_id"],
        ruleset=row[prefix + "ruleset"],
        layout=row[prefix + "layout"],
        game_count=row[prefix + "game_count"],
        max_plies=row[prefix + "max_plies"],
        state=row[prefix + "state"],
        winner_id=row[prefix + "winner_id"],
        created_at=_at(row[prefix + "created_at"]),
        finished_at=from_text(row[prefix + "finished_at"]),
        time_per_move_seconds=row[prefix + "time_per_move_seconds"],
    )


# A game's match beside the game's own columns, each named ``m_<column>``; read back with
# ``match(row, MATCH_PREFIX)``.
MATCH_PREFIX = "m_"
PREFIXED_MATCH_COLUMNS = ", ".join(f"m.{c} AS {MATCH_PREFIX}{c}" for c in MATCH_COLUMNS.split(", "))


def game(row: sqlite3.Row, live: Game, of_match: MatchRecord) -> GameRecord:
    """A game row (``RECORD_COLUMNS``, or all of ``GAME_COLUMNS``) as a record holding the
    already-checked ``live`` game and its match."""
    if row["match_id"] != of_match.id:
        raise ValueError(f"game {row['id']} is of match {row['match_id']}, not {of_match.id}")
    points: Any = None
    if row["points_white"] is not None:
        points = {"white": row["points_white"], "black": row["points_black"]}
    return GameRecord(
        id=row["id"],
        match=of_match,
        index=row["game_index"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        white_id=row["white_id"],
        black_id=row["black_id"],
        status=row["status"],
        version=row["version"],
        game=live,
        winner=row["winner"],
        points=points,
        termination=row["termination"],
        started_at=_at(row["started_at"]),
        last_activity=_at(row["last_activity"]),
        finished_at=from_text(row["finished_at"]),
        clock=GameClock(
            deadline_at=from_text(row["deadline_at"]),
            reminders_sent=row["reminders_sent"],
            time_left_seconds=row["time_left_seconds"],
            paused_at=from_text(row["paused_at"]),
        ),
    )


def player(row: sqlite3.Row) -> PlayerRecord:
    """A player row (``PLAYER_COLUMNS``) as a record."""
    return PlayerRecord(**{key: row[key] for key in row.keys()})  # noqa: SIM118 - Row is no dict


def action(row: sqlite3.Row) -> ActionRecord:
    """An action row (``ACTION_COLUMNS``) as a record."""
    return ActionRecord(
        game_id=row["game_id"],
        ply=row["ply"],
        player_id=row["player_id"],
        move=row["move"],
        played_at=_at(row["played_at"]),
    )
