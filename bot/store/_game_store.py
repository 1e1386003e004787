"""Games: reading matches and games, and recording moves and endings, each write one
optimistic-concurrency transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select

from bot.jarmo import Game
from bot.store import _rows
from bot.store._game_sql import (
    append_action,
    end_match,
    fetch_match,
    insert_game,
    match_of_game,
    update_game,
)
from bot.store._games import GameLoader, dump
from bot.store._outbox_sql import add_announcements
from bot.store._ratings_sql import apply_ratings, count_match_win
from bot.store._rows import MATCH_COLUMNS, only_row, to_text
from bot.store._sql import Reader, Sql, Transactions, inline
from bot.store.clocks import deadline_after
from bot.store.endings import GameEnding, NextGame
from bot.store.errors import NotFound
from bot.store.outbox import Announcement
from bot.store.records import ActionRecord, GameEnd, GameRecord, MatchRecord, TakenBackRecord
from bot.store.schema import actions, games, matches, taken_back


class SqlGames:
    """The :class:`~bot.store.interface.GameStore`. Every committed snapshot is handed to
    the loader as trusted, so loading that version again needs no replay."""

    def __init__(self, writer: Transactions, reader: Reader, loader: GameLoader) -> None:
        self._writer = writer
        self._read = reader
        self._loader = loader

    async def match(self, match_id: int) -> MatchRecord:
        """The match with this id. Raises ``NotFound``."""
        rows = await self._read.rows(select(*MATCH_COLUMNS).where(matches.c.id == match_id))
        return _rows.match(only_row(rows, "match", match_id))

    async def latest_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's most recently created match, if any."""
        rows = await self._read.rows(
            select(*MATCH_COLUMNS)
            .where(matches.c.channel_id == channel_id)
            .order_by(matches.c.id.desc())
            .limit(1)
        )
        for row in rows:
            return _rows.match(row)
        return None

    async def match_games(self, match_id: int) -> list[GameRecord]:
        """The match's games in index order. Raises ``NotFound`` or ``CorruptGame``."""
        found = await self._loader.load_where(
            games.c.match_id == match_id, order_by=(games.c.game_index,)
        )
        if not found:
            await self.match(match_id)  # raises NotFound for an unknown match
        return found

    async def active(self, channel_id: int) -> GameRecord | None:
        """The channel's active game, if any. Raises ``CorruptGame``."""
        return await self._loader.active(channel_id)

    async def get(self, game_id: int) -> GameRecord:
        """The game with this id. Raises ``NotFound`` or ``CorruptGame``."""
        found = await self._loader.game(game_id)
        if found is None:
            raise NotFound("game", game_id)
        return found

    async def actions(self, game_id: int) -> list[ActionRecord]:
        """The game's actions in ply order. Raises ``NotFound``."""
        rows = await self._read.rows(
            select(*_rows.ACTION_COLUMNS)
            .where(actions.c.game_id == game_id)
            .order_by(actions.c.ply)
        )
        if not rows and not await self._read.rows(select(games.c.id).where(games.c.id == game_id)):
            raise NotFound("game", game_id)
        return [_rows.action(row) for row in rows]

    async def active_of_player(self, user_id: int) -> list[GameRecord]:
        """The player's active games in every server, by id; damaged ones are left out (and
        logged once)."""
        found, _ = await self._loader.active_of_player(user_id)
        return found

    async def idle(self, *, before: datetime) -> list[GameRecord]:
        """Active games in servers last active before ``before``, oldest first; damaged ones
        are left out (and logged once). Games outside servers are left to their players'
        interactions: nothing can be posted there in the background."""
        found, _ = await self._loader.load_sound(
            games.c.status == inline("active"),
            games.c.last_activity < to_text(before),
            games.c.guild_id.is_not(None),
            order_by=(games.c.last_activity, games.c.id),
        )
        return found

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
        ply = check_played(game, move)
        if game.over:
            raise ValueError(f"{move} ends the game: record it with end")
        snapshot, at = dump(game), to_text(now)

        def work(db: Sql) -> GameRecord:
            # Its match is read in the transaction: it gives the clock's period, and the
            # record handed back carries it.
            match, clock_before = match_of_game(db, game_id)
            sets = {"version": expected_version + 1, "snapshot": snapshot, "last_activity": at}
            clock = restarted_clock(now, match.time_per_move_seconds)
            row = update_game(db, game_id, expected_version, sets | clock)
            record = _rows.game(row, game, match)
            # The engine has already passed the turn on, so the mover is the side not to move.
            mover = record.black_id if game.turn == "white" else record.white_id
            if player_id != mover:
                raise ValueError(f"{move} was played by {mover}, not by {player_id}")
            append_action(db, game_id, ply, player_id, move, at, clock_before)
            add_announcements(db, game_id, announce, now)
            return record

        record = await self._writer.run(work)
        self._loader.trust(game_id, record.version, snapshot)
        return record

    async def take_back(
        self, game_id: int, *, expected_version: int, game: Game, now: datetime
    ) -> GameRecord:
        """Remove the actions after ``game``'s last one; see ``GameStore.take_back``."""
        if game.over:
            raise ValueError("a game taken back to its end is not active")
        kept, snapshot, at = len(game.history), dump(game), to_text(now)

        def work(db: Sql) -> GameRecord:
            match, _ = match_of_game(db, game_id)
            rows = (
                db.execute(
                    select(*_rows.ACTION_COLUMNS)
                    .where(actions.c.game_id == game_id)
                    .order_by(actions.c.ply)
                )
                .mappings()
                .all()
            )
            stored = [_rows.action(row) for row in rows]
            if [a.move for a in stored[:kept]] != game.history or len(stored) <= kept:
                raise ValueError(f"game {game_id} does not begin with the kept {kept} actions")
            sets: dict[str, object] = {
                "version": expected_version + 1,
                "snapshot": snapshot,
                "last_activity": at,
            }
            period, first_removed = match.time_per_move_seconds, stored[kept]
            if period is not None:
                # The clock as the first action taken back found it; for an action stored
                # before actions kept it, rebuilt: the mover's turn began with the last kept
                # action, or with the game.
                deadline = first_removed.deadline_before
                if deadline is None:
                    began = stored[kept - 1].played_at if kept else _started_at(db, game_id)
                    deadline = began + timedelta(seconds=period)
                reminders = first_removed.reminders_before or 0
                sets |= {"deadline_at": to_text(deadline), "reminders_sent": reminders}
                sets |= {"time_left_seconds": None, "paused_at": None}
            # Every write of actions moves the version on in its own transaction, so if this
            # update finds the version expected, the actions read above are still the game's.
            row = update_game(db, game_id, expected_version, sets)
            removed = [
                {
                    "game_id": game_id,
                    "version": expected_version + 1,
                    "ply": a.ply,
                    "player_id": a.player_id,
                    "move": a.move,
                    "played_at": to_text(a.played_at),
                    "taken_back_at": at,
                }
                for a in stored[kept:]
            ]
            db.execute(insert(taken_back), removed)
            db.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.ply > kept))
            return _rows.game(row, game, match)

        record = await self._writer.run(work)
        self._loader.trust(game_id, record.version, snapshot)
        return record

    async def taken_back(self, game_id: int) -> list[TakenBackRecord]:
        """The game's actions taken back, in the order they were; see ``GameStore``."""
        rows = await self._read.rows(
            select(taken_back)
            .where(taken_back.c.game_id == game_id)
            .order_by(taken_back.c.version, taken_back.c.ply)
        )
        return [
            TakenBackRecord(
                game_id=row["game_id"],
                version=row["version"],
                ply=row["ply"],
                player_id=row["player_id"],
                move=row["move"],
                played_at=datetime.fromisoformat(row["played_at"]),
                taken_back_at=datetime.fromisoformat(row["taken_back_at"]),
            )
            for row in rows
        ]

    async def end(
        self, game_id: int, ending: GameEnding, *, expected_version: int, now: datetime
    ) -> GameEnd:
        """Record ``ending`` in one transaction; see ``GameStore.end``."""
        version = expected_version + 1  # an ending changes the game even without a move
        final = ending.final_move
        ply = check_played(ending.game, final.move) if final is not None else 0
        snapshot, at = dump(ending.game), to_text(now)
        then = ending.then
        next_snapshot = dump(then.game) if isinstance(then, NextGame) else ""
        sets = {
            "version": version, "snapshot": snapshot, "status": ending.status,
            "winner": ending.winner, "points_white": ending.points["white"],
            "points_black": ending.points["black"], "termination": ending.termination,
            "last_activity": at, "finished_at": at,
        }  # fmt: skip
        if ending.ratings is not None:  # only committed if apply_ratings accepts them below
            sets["rated"] = 1

        def work(db: Sql) -> GameEnd:
            row = update_game(db, game_id, expected_version, sets)
            match = fetch_match(db, row["match_id"])
            ended = _rows.game(row, ending.game, match)
            if final is not None:
                if final.player_id not in (ended.white_id, ended.black_id):
                    raise ValueError(f"user {final.player_id} does not play in game {game_id}")
                # An ending leaves the clock's columns as they were.
                clock_before = {"deadline_before": row["deadline_at"]}
                clock_before["reminders_before"] = row["reminders_sent"]
                append_action(db, game_id, ply, final.player_id, final.move, at, clock_before)
            add_announcements(db, game_id, ending.announce, now)
            if ending.ratings is not None:  # rejects an aborted game
                apply_ratings(db, ended, match, ending.ratings, at)
            if isinstance(then, NextGame):
                following = insert_game(db, match, ended.index + 1, then.game, next_snapshot, at)
                return GameEnd(game=ended, match=match, next_game=following)
            match = end_match(db, match, then.state, then.winner_id, at)
            if ending.ratings is not None and then.winner_id is not None:
                count_match_win(db, match, ending.ratings, then.winner_id)
            return GameEnd(game=replace(ended, match=match), match=match, next_game=None)

        end = await self._writer.run(work)
        self._loader.trust(game_id, version, snapshot)
        if end.next_game is not None:
            self._loader.trust(end.next_game.id, 0, next_snapshot)
        return end


def _started_at(db: Sql, game_id: int) -> datetime:
    row = db.execute(select(games.c.started_at).where(games.c.id == game_id)).mappings().one()
    return datetime.fromisoformat(row["started_at"])


def restarted_clock(now: datetime, time_per_move_seconds: int | None) -> dict[str, object]:
    """The game columns that give the player to move a full period from ``now``: to merge into
    the move's own (version-guarded) update. Empty for a match without a time limit."""
    deadline = deadline_after(now, time_per_move_seconds)
    if deadline is None:
        return {}
    return {
        "deadline_at": to_text(deadline),
        "reminders_sent": 0,
        "time_left_seconds": None,
        "paused_at": None,
    }


def check_played(game: Game, move: str) -> int:
    """The ply of ``move``, the last action of ``game``; raises ``ValueError`` if it is not."""
    history = game.history
    if not history or history[-1] != move:
        last = history[-1] if history else None
        raise ValueError(f"the game's last action is {last!r}, not {move!r}")
    return len(history)
