"""Games on PostgreSQL: the shared :class:`~bot.store._game_store.SqlGames`, with the hot path,
a move that does not end the game, as one statement.

The shared write costs five round trips (``BEGIN``, the match's read, the version-guarded
``UPDATE``, the action's ``INSERT``, ``COMMIT``) and SQLAlchemy's work for each. Here one
statement does it all, built from the shared write's own parts (``_game_sql.guarded_update``,
``restarted_clock``): the ``UPDATE`` is the same optimistic-concurrency check, further guarded
on the mover, the ``INSERT``s of the action and of the move's announcements (a direct message
that pings the player to move, the computer's move held for its writer) happen only if it did,
and the match comes back with the game. Being one statement, it commits or not as a whole. It
is compiled once per dialect and shape and sent straight on one of the ``asyncpg`` connections
the reads hold out of the engine's pool (``_sql.EngineReader``), which keeps it prepared.

The clock's new deadline needs the match's time per move, which never changes once the match
is created: the first move of a game in this process takes the shared write, which reads it,
and later moves reuse it. When the statement changes nothing, the shared write runs instead: it
finds out why and raises the store's error for it (a version never goes back, so what failed
once fails again).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache

from sqlalchemy import bindparam, insert, select, true

from bot.jarmo import Game
from bot.store import _rows
from bot.store._game_sql import (
    ACTION_PARAMETERS,
    CLOCK_BEFORE,
    guarded_update,
    update_parameters,
)
from bot.store._game_store import SqlGames, check_played, restarted_clock
from bot.store._games import GameLoader, dump
from bot.store._outbox_sql import about_written_game, announced
from bot.store._rows import MATCH_PREFIX, PREFIXED_MATCH_COLUMNS, to_text
from bot.store._sql import EngineReader, Hot, Transactions, finish_even_if_cancelled
from bot.store.outbox import Announcement
from bot.store.records import GameRecord
from bot.store.schema import actions, games, matches

# Games whose time per move this process knows: about 100 bytes each, then forgotten and read
# again by the next move of each.
REMEMBERED_PERIODS = 100_000


@cache
def _record_move(columns: frozenset[str], mover: str, to_users: tuple[bool, ...]) -> Hot:
    """The move as one statement: the guarded update setting ``columns``, by the player on the
    side ``mover`` (``white_id`` or ``black_id``), the action it adds, and its announcements
    (``to_users``: whether each is sent to its user, see ``about_written_game``)."""
    guard = games.c[mover] == ACTION_PARAMETERS["player_id"]
    moved = guarded_update(columns).where(guard).cte("moved")
    # Every part of one statement sees the rows as they were before it: the clock the move
    # found, kept with its action.
    before = (
        select(*(column.label(name) for name, column in CLOCK_BEFORE.items()))
        .where(games.c.id == bindparam("game_id"))
        .cte("before")
    )
    played = insert(actions).from_select(
        ["game_id", *ACTION_PARAMETERS, *CLOCK_BEFORE],
        select(moved.c.id, *ACTION_PARAMETERS.values(), *before.c).select_from(
            moved.join(before, true())
        ),
    )
    posts = about_written_game(moved, to_users)
    return Hot(
        select(moved, *PREFIXED_MATCH_COLUMNS)
        .join_from(moved, matches, matches.c.id == moved.c.match_id)
        .add_cte(played.cte("played"), *(post.cte(f"post_{n}") for n, post in enumerate(posts)))
    )


class PgGames(SqlGames):
    """The :class:`~bot.store.interface.GameStore` on PostgreSQL (see the module)."""

    def __init__(self, writer: Transactions, reader: EngineReader, loader: GameLoader) -> None:
        super().__init__(writer, reader, loader)
        self._one_statement = reader
        self._periods: dict[int, int | None] = {}

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: int,
        move: str,
        game: Game,
        now: datetime,
        announce: Sequence[Announcement] = (),
    ) -> GameRecord:
        """Append a move that does not end the game; see ``GameStore.record_move``."""
        if game_id in self._periods:  # else the shared transaction
            period = self._periods[game_id]
            ply = check_played(game, move)
            if game.over:
                raise ValueError(f"{move} ends the game: record it with end")
            snapshot, at = dump(game), to_text(now)
            sets = {"version": expected_version + 1, "snapshot": snapshot, "last_activity": at}
            sets |= restarted_clock(now, period)
            # The engine has already passed the turn on, so the mover is the side not to move.
            mover = "black_id" if game.turn == "white" else "white_id"
            to_users = tuple(announcement.to_user is not None for announcement in announce)
            statement = _record_move(frozenset(sets), mover, to_users)
            parameters = update_parameters(game_id, expected_version, sets)
            parameters |= {"ply": ply, "player_id": player_id, "move": move, "played_at": at}
            parameters |= announced(announce, now)
            row = await finish_even_if_cancelled(self._one_statement.first(statement, parameters))
            if row is not None:
                self._loader.trust(game_id, expected_version + 1, snapshot)
                return _rows.game(row, game, _rows.match(row, MATCH_PREFIX))
        record = await super().record_move(
            game_id, expected_version=expected_version, player_id=player_id, move=move,
            game=game, now=now, announce=announce,
        )  # fmt: skip
        if len(self._periods) >= REMEMBERED_PERIODS:
            self._periods.clear()
        self._periods[game_id] = record.match.time_per_move_seconds
        return record
