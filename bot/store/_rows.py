"""Column lists and row -> record conversion, kept next to each other so they stay in step."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Label, RowMapping, literal_column, select

from bot.store.clocks import GameClock
from bot.store.errors import NotFound
from bot.store.records import (
    ActionRecord,
    ChallengeOptions,
    ChallengeRecord,
    GameRecord,
    MatchRecord,
    PlayerRecord,
    RatingRange,
    TurnPingSetting,
)
from bot.store.schema import actions, challenges, games, matches, players, turn_pings

if TYPE_CHECKING:
    from bot.jarmo import Game

CHALLENGE_COLUMNS = tuple(challenges.c)
MATCH_COLUMNS = tuple(matches.c)


def _turn_ping(side: str, column: str) -> Label[Any]:
    # A subquery, not a join: it reads the same in a SELECT of games and in the RETURNING of
    # a game's UPDATE or INSERT, where SQLite joins nothing. The game's column is named in
    # text because SQLAlchemy correlates no subquery with an INSERT's table. NULL: the player
    # never chose.
    player = literal_column(f"games.{side}_id", games.c[f"{side}_id"].type)
    chosen = select(turn_pings.c[column]).where(turn_pings.c.user_id == player)
    return chosen.scalar_subquery().label(f"{side}_ping_{column}")


# What a game record is read from: every column but the one only ratings read, and both
# players' turn pings, so that a move knows how to ping without another read.
GAME_COLUMNS = (
    *(c for c in games.c if c.name != "rated"),
    *(_turn_ping(side, column) for side in ("white", "black") for column in ("mode", "dm_refused")),
)
# What ``game`` reads: every game column but the snapshot, for a write whose caller holds the
# game already (a move's snapshot is several kB it has just sent).
RECORD_COLUMNS = tuple(c for c in GAME_COLUMNS if c.name != "snapshot")
PLAYER_COLUMNS = tuple(players.c)
ACTION_COLUMNS = tuple(actions.c)


def only_row(rows: Iterable[RowMapping], kind: str, key: object) -> RowMapping:
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


def challenge(row: RowMapping) -> ChallengeRecord:
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
        rating_range=_rating_range(row["min_rating"], row["max_rating"]),
    )


def _rating_range(lowest: int | None, highest: int | None) -> RatingRange | None:
    if lowest is None or highest is None:
        return None
    return RatingRange(lowest, highest)


def match(row: Mapping[Any, Any], prefix: str = "") -> MatchRecord:
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
PREFIXED_MATCH_COLUMNS = tuple(c.label(MATCH_PREFIX + c.name) for c in matches.c)


def game(row: Mapping[Any, Any], live: Game, of_match: MatchRecord) -> GameRecord:
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
        engine=live,
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
        turn_pings=(_turn_ping_setting(row, "white"), _turn_ping_setting(row, "black")),
    )


def _turn_ping_setting(row: Mapping[Any, Any], side: str) -> TurnPingSetting:
    mode = row[f"{side}_ping_mode"]
    if mode is None:
        return TurnPingSetting()
    return TurnPingSetting(mode, bool(row[f"{side}_ping_dm_refused"]))


def player(row: RowMapping) -> PlayerRecord:
    """A player row (``PLAYER_COLUMNS``) as a record."""
    return PlayerRecord(**row)


def action(row: RowMapping) -> ActionRecord:
    """An action row (``ACTION_COLUMNS``) as a record."""
    return ActionRecord(
        game_id=row["game_id"],
        ply=row["ply"],
        player_id=row["player_id"],
        move=row["move"],
        played_at=_at(row["played_at"]),
        deadline_before=from_text(row["deadline_before"]),
        reminders_before=row["reminders_before"],
    )
