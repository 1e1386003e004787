"""Constants and small helpers shared by the store tests (fixtures are in conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.jarmo import Game
from bot.store import (
    ChallengeOptions,
    GameRecord,
    MatchRecord,
    NewChallenge,
    SqliteStore,
    Store,
)
from bot.store._connection import connect_reader
from bot.store._writer import SqliteWriter

GUILD = 1
CHANNEL = 10
ALICE = 101
BOB = 202
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

# For a test about SQLite's own machinery (the file, its writer thread, its locks).
only_sqlite = pytest.mark.parametrize("store_target", ["sqlite"], indirect=True)

StartMatch = Callable[..., Awaitable[tuple[MatchRecord, GameRecord]]]


def challenge(
    *, channel: int = CHANNEL, game_count: int = 1, expires_in: float = 300, **options: object
) -> NewChallenge:
    """ALICE challenges BOB in ``channel``."""
    return NewChallenge(
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=ALICE,
        challenged_id=BOB,
        options=ChallengeOptions(game_count=game_count, **options),  # type: ignore[arg-type]  # the caller's options
        expires_at=T0 + timedelta(seconds=expires_in),
    )


def new_game(max_plies: int = 200) -> Game:
    """A fresh classic game on the default layout."""
    return Game.new(ruleset="classic", max_plies=max_plies)


def random_move(game: Game, rng: random.Random) -> str:
    """Play a random legal move on ``game`` and return it."""
    return game.play(rng.choice(game.legal_moves()))


def fork(game: Game) -> Game:
    """An independent copy of ``game``."""
    return Game.from_dict(game.to_dict())


def quiet_move(game: Game, rng: random.Random) -> str:
    """Play a random legal move that does not end the game, and return it."""
    moves = game.legal_moves()
    rng.shuffle(moves)
    for move in moves:
        trial = fork(game)
        trial.play(move)
        if not trial.over:
            return game.play(move)
    raise AssertionError("every legal move ends the game")


async def play_quiet(
    store: Store, record: GameRecord, count: int, rng: random.Random, *, now: datetime = T0
) -> GameRecord:
    """Record ``count`` random moves that do not end the game; return the latest record."""
    for _ in range(count):
        game = fork(record.engine)
        mover = record.player_id(game.turn)
        move = quiet_move(game, rng)
        record = await store.games.record_move(
            record.id,
            expected_version=record.version,
            player_id=mover,
            move=move,
            game=game,
            now=now,
        )
    return record


@dataclass(frozen=True)
class FinalMove:
    """A game one move from its end: the last stored record and the final move, played."""

    before: GameRecord  # as stored before the final move
    game: Game  # with the final move played
    mover: int
    move: str


async def play_to_end(store: Store, record: GameRecord, rng: random.Random) -> FinalMove:
    """Record random moves until the next one ends the game; play that one but do not store it."""
    while True:
        game = fork(record.engine)
        mover = record.player_id(game.turn)
        move = random_move(game, rng)
        if game.over:
            return FinalMove(record, game, mover, move)
        record = await store.games.record_move(
            record.id,
            expected_version=record.version,
            player_id=mover,
            move=move,
            game=game,
            now=T0,
        )


async def open_without_process_lock(path: Path) -> SqliteStore:
    """A second set of connections on a file another store holds: what a second process (or an
    operator's tool) would have, which the process lock does not stop at the SQLite level."""
    writer = SqliteWriter()
    await writer.open(path)
    return SqliteStore(writer, connect_reader(path))
