"""Recording moves and game endings, each one optimistic-concurrency transaction."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from bot.jarmo import Game
from bot.store import _rows
from bot.store._deadline_sql import restart_clock
from bot.store._game_sql import append_action, end_match, fetch_match, insert_game, update_game
from bot.store._games import GameLoader, dump
from bot.store._outbox_sql import add_announcement
from bot.store._ratings_sql import apply_ratings, count_match_win
from bot.store._rows import to_text
from bot.store._writer import Writer
from bot.store.outbox import Announcement
from bot.store.rating_records import RatingUpdate
from bot.store.records import EndedGameStatus, EndedMatchState, GameEnd, GameRecord, Side

_ENDED_GAME = ("finished", "resigned", "timeout", "stopped", "aborted")
_ENDED_MATCH = ("finished", "forfeited", "aborted")


class GameWrites:
    """``record_move`` and ``end_game``. Every committed snapshot is handed to the loader as
    trusted, so loading that version again needs no replay."""

    def __init__(self, writer: Writer, loader: GameLoader) -> None:
        self._writer = writer
        self._loader = loader

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: int,
        move: str,
        game: Game,
        now: datetime,
        announce: Announcement | None = None,
    ) -> GameRecord:
        """See ``Store.record_move``."""
        check_played(game, expected_version + 1, move)
        if game.over:
            raise ValueError(f"{move} ends the game: record it with end_game")
        snapshot, at = dump(game), to_text(now)

        def work(db: sqlite3.Connection) -> GameRecord:
            sets = {"version": expected_version + 1, "snapshot": snapshot, "last_activity": at}
            row = update_game(db, game_id, expected_version, sets | restart_clock(db, game_id, now))
            record = _rows.game(row, game)
            # The engine has already passed the turn on, so the mover is the side not to move.
            mover = record.black_id if game.turn == "white" else record.white_id
            if player_id != mover:
                raise ValueError(f"{move} was played by {mover}, not by {player_id}")
            append_action(db, game_id, record.version, player_id, move, at)
            if announce is not None:
                add_announcement(db, game_id, announce, now)
            return record

        record = await self._writer.run(work)
        self._loader.trust(game_id, record.version, snapshot)
        return record

    async def end_game(
        self,
        game_id: int,
        *,
        expected_version: int,
        status: EndedGameStatus,
        winner: Side | None,
        points: dict[Side, int],
        termination: str,
        game: Game,
        move: tuple[int, str] | None,
        next_game: Game | None,
        match_state: EndedMatchState | None,
        match_winner_id: int | None,
        ratings: RatingUpdate | None,
        now: datetime,
        announce: Announcement | None = None,
    ) -> GameEnd:
        """See ``Store.end_game``."""
        _check_end(status, winner, points, next_game, match_state, match_winner_id)
        version = expected_version + (move is not None)
        check_played(game, version, move[1] if move else None)
        snapshot, at = dump(game), to_text(now)
        next_snapshot = dump(next_game) if next_game is not None else ""
        sets = {
            "version": version, "snapshot": snapshot, "status": status, "winner": winner,
            "points_white": points["white"], "points_black": points["black"],
            "termination": termination, "last_activity": at, "finished_at": at,
        }  # fmt: skip
        if ratings is not None:  # only committed if apply_ratings accepts them below
            sets["rated"] = 1

        def work(db: sqlite3.Connection) -> GameEnd:
            ended = _rows.game(update_game(db, game_id, expected_version, sets), game)
            if move is not None:
                if move[0] not in (ended.white_id, ended.black_id):
                    raise ValueError(f"user {move[0]} does not play in game {game_id}")
                append_action(db, game_id, version, move[0], move[1], at)
            if announce is not None:
                add_announcement(db, game_id, announce, now)
            match = fetch_match(db, ended.match_id)
            if ratings is not None:  # rejects an aborted game
                apply_ratings(db, ended, match, ratings, at)
            if next_game is not None:
                following = insert_game(db, match, ended.index + 1, next_game, next_snapshot, at)
                return GameEnd(game=ended, match=match, next_game=following)
            assert match_state is not None  # _check_end: one of the two is given
            match = end_match(db, match, match_state, match_winner_id, at)
            if ratings is not None and match_winner_id is not None:
                count_match_win(db, match, ratings, match_winner_id)
            return GameEnd(game=ended, match=match, next_game=None)

        end = await self._writer.run(work)
        self._loader.trust(game_id, version, snapshot)
        if end.next_game is not None:
            self._loader.trust(end.next_game.id, 0, next_snapshot)
        return end


def check_played(game: Game, plies: int, move: str | None) -> None:
    """Raise ``ValueError`` unless ``game`` has ``plies`` actions, the last one ``move``."""
    history = game.history
    if len(history) != plies:
        raise ValueError(f"the game has {len(history)} actions, expected {plies}")
    if move is not None and history[-1] != move:
        raise ValueError(f"the game's last action is {history[-1]!r}, not {move!r}")


def _check_end(
    status: str,
    winner: str | None,
    points: dict[Side, int],
    next_game: Game | None,
    match_state: str | None,
    match_winner_id: int | None,
) -> None:
    if status not in _ENDED_GAME:
        raise ValueError(f"a game cannot end as {status!r}")
    if winner not in ("white", "black", None):
        raise ValueError(f"the winner is a side or None, not {winner!r}")
    if set(points) != {"white", "black"}:
        raise ValueError(f"points need a white and a black entry, got {points!r}")
    if (next_game is None) == (match_state is None):
        raise ValueError("give exactly one of next_game and match_state")
    if match_state is not None and match_state not in _ENDED_MATCH:
        raise ValueError(f"a match cannot end as {match_state!r}")
    if match_state == "aborted" and match_winner_id is not None:
        raise ValueError("an aborted match has no winner")
