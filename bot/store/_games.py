"""Loading games: checked by replay, or trusted when this process already checked or wrote them."""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Executable,
    UnaryExpression,
    bindparam,
    literal_column,
    select,
    union_all,
)

from bot.jarmo import Game
from bot.store import _rows
from bot.store._replay import Mismatch, StoredGame, read_snapshot, verify
from bot.store._rows import GAME_COLUMNS, MATCH_PREFIX, PREFIXED_MATCH_COLUMNS
from bot.store._sql import Hot, Reader, inline
from bot.store.errors import CorruptGame
from bot.store.records import DamagedGame, GameRecord
from bot.store.schema import actions, games, matches

log = logging.getLogger(__name__)
# Games whose checked snapshot is remembered (about 250 bytes each): the ones loaded or written
# most recently. Another is replayed once more when it is next loaded.
TRUSTED_GAMES = 20_000

# Each game with its match, so that nothing reads the match again for the same game.
_SELECT_GAMES = select(*GAME_COLUMNS, *PREFIXED_MATCH_COLUMNS).join(
    matches, matches.c.id == games.c.match_id
)
Condition = ColumnElement[bool]
Order = ColumnElement[Any] | UnaryExpression[Any]


_GAME = Hot(_SELECT_GAMES.where(games.c.id == bindparam("game_id")))
_ACTIVE_GAME = Hot(
    _SELECT_GAMES.where(
        games.c.channel_id == bindparam("channel_id"), games.c.status == inline("active")
    )
)
# A player's active games in every server: a UNION ALL of one lookup per side in the partial
# indexes games_active_by_white and games_active_by_black. PostgreSQL would serve
# `white_id = ? OR black_id = ?` from both indexes too, but SQLite scans every game for it.
_ACTIVE_OF_PLAYER = Hot(
    union_all(
        *(
            _SELECT_GAMES.where(
                games.c[f"{side}_id"] == bindparam("user_id"), games.c.status == inline("active")
            )
            for side in ("white", "black")
        )
    ).order_by(literal_column("1"))  # the game's id: SQLite orders a compound by position
)
# Up to the snapshot's ply count: a move committed after the game's row was read must not count
# against it.
_PLAYED = Hot(
    select(actions.c.ply, actions.c.player_id, actions.c.move)
    .where(actions.c.game_id == bindparam("game_id"), actions.c.ply <= bindparam("plies"))
    .order_by(actions.c.ply)
)


def _games_where(conditions: tuple[Condition, ...], order_by: tuple[Order, ...]) -> Executable:
    return _SELECT_GAMES.where(*conditions).order_by(*order_by)


def dump(game: Game) -> str:
    """The snapshot text stored for ``game``."""
    return json.dumps(game.to_dict(), separators=(",", ":"))


class GameLoader:
    """Reads games and checks each against its action list before handing it out.

    Replaying up to a few hundred actions costs far more than reading a snapshot, so a game is
    replayed the first time this process loads it; afterwards the snapshot is trusted as long as
    its (version, text) is one this process verified or wrote itself. Any other change (another
    process, a hand edit) makes it replay again.
    """

    def __init__(self, reader: Reader) -> None:
        self._db = reader
        # id -> (version, hash(snapshot)), least recently used first
        self._trusted: OrderedDict[int, tuple[int, int]] = OrderedDict()
        self._reported: set[int] = set()  # damaged games already logged at ERROR

    def trust(self, game_id: int, version: int, snapshot: str) -> None:
        """Remember a committed (version, snapshot) of a game as correct."""
        self._remember(game_id, (version, hash(snapshot)))

    def _remember(self, game_id: int, seen: tuple[int, int]) -> None:
        self._trusted[game_id] = seen
        self._trusted.move_to_end(game_id)
        if len(self._trusted) > TRUSTED_GAMES:
            self._trusted.popitem(last=False)

    async def game(self, game_id: int) -> GameRecord | None:
        """The game with this id, checked, if there is one. Raises ``CorruptGame``."""
        return await self._first(_GAME, {"game_id": game_id})

    async def active(self, channel_id: int) -> GameRecord | None:
        """The channel's active game, checked, if it has one. Raises ``CorruptGame``."""
        return await self._first(_ACTIVE_GAME, {"channel_id": channel_id})

    async def _first(self, statement: Hot, parameters: dict[str, int]) -> GameRecord | None:
        for row in await self._db.rows(statement, parameters):
            return await self._load(row)
        return None

    async def load_where(
        self, *conditions: Condition, order_by: tuple[Order, ...] = ()
    ) -> list[GameRecord]:
        """The games matching ``conditions`` (over ``games`` and its match), in ``order_by``,
        checked. Raises ``CorruptGame`` for the first one that fails its check.
        """
        rows = await self._db.rows(_games_where(conditions, order_by))
        return [await self._load(row) for row in rows]

    async def load_sound(
        self, *conditions: Condition, order_by: tuple[Order, ...] = ()
    ) -> tuple[list[GameRecord], list[DamagedGame]]:
        """Like :meth:`load_where`, but a damaged game is set aside instead of stopping the
        rest: the games that load, and what is wrong with the others."""
        return await self._sound(await self._db.rows(_games_where(conditions, order_by)))

    async def active_of_player(self, user_id: int) -> tuple[list[GameRecord], list[DamagedGame]]:
        """The player's active games in every server, by id, split as :meth:`load_sound`
        splits them."""
        return await self._sound(await self._db.rows(_ACTIVE_OF_PLAYER, {"user_id": user_id}))

    async def _sound(self, rows: Sequence[Any]) -> tuple[list[GameRecord], list[DamagedGame]]:
        sound: list[GameRecord] = []
        damaged: list[DamagedGame] = []
        for row in rows:
            try:
                sound.append(await self._load(row))
            except CorruptGame as exc:
                where = (row["guild_id"], row["channel_id"], row["status"])
                damaged.append(DamagedGame(exc.game_id, *where, exc.reason))
        return sound, damaged

    def report_damaged(self, game_id: int, reason: str) -> CorruptGame:
        """The error for a damaged game, logged at ERROR the first time only: a background job
        meets the same damaged game on every pass, and one log line says it all."""
        if game_id in self._reported:
            log.debug("game %d is still damaged: %s", game_id, reason)
        else:
            self._reported.add(game_id)
            log.error(
                "game %d is damaged and is left out until it is aborted "
                "(/jarmo abort, or jarmo-bot doctor --quarantine): %s",
                game_id,
                reason,
            )
        return CorruptGame(game_id, reason)

    async def _load(self, row: Any) -> GameRecord:
        game_id, version, snapshot = row["id"], row["version"], row["snapshot"]
        seen = (version, hash(snapshot))
        try:
            if self._trusted.get(game_id) == seen:
                live = read_snapshot(snapshot)
            else:
                live = verify(await self._stored(row))
            record = _rows.game(row, live, _rows.match(row, MATCH_PREFIX))
        except (Mismatch, ValueError, TypeError) as exc:  # the latter two: a damaged column
            raise self.report_damaged(game_id, str(exc)) from exc
        self._remember(game_id, seen)
        return record

    async def _stored(self, row: Any) -> StoredGame:
        # Read once more by ``verify``: only a game not trusted yet is replayed.
        plies = len(read_snapshot(row["snapshot"]).history)
        played = await self._db.rows(_PLAYED, {"game_id": row["id"], "plies": plies})
        return StoredGame(
            ruleset=row[MATCH_PREFIX + "ruleset"],
            layout=row[MATCH_PREFIX + "layout"],
            max_plies=row[MATCH_PREFIX + "max_plies"],
            white_id=row["white_id"],
            black_id=row["black_id"],
            version=row["version"],
            snapshot=row["snapshot"],
            actions=[(action["ply"], action["player_id"], action["move"]) for action in played],
        )
