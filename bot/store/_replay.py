"""Checking a stored game: its action list, replayed from the start, must give its snapshot."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.jarmo import Game


class Mismatch(Exception):
    """The stored game is inconsistent; the message says how (the caller adds the game id)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """What replaying needs from the games, matches and actions tables."""

    ruleset: str
    layout: str
    max_plies: int
    white_id: int
    black_id: int
    version: int
    snapshot: str
    actions: Sequence[tuple[int, int, str]]  # (ply, player_id, move), in ply order


def read_snapshot(snapshot: str) -> Game:
    """The engine game stored in ``snapshot``; raises ``Mismatch`` if it cannot be read."""
    try:
        return Game.from_dict(json.loads(snapshot))
    except Exception as exc:  # any failure to rebuild means the row is damaged
        raise Mismatch(f"snapshot unreadable ({type(exc).__name__}: {exc})") from exc


def verify(stored: StoredGame) -> Game:
    """Replay ``stored.actions`` and return the game if it equals the snapshot.

    Raises ``Mismatch`` if the plies are not 1..the snapshot's ply count, the version is below
    that count (every action raised it), an action was played out of turn or is not
    canonical, the engine rejects one, or the result differs from the snapshot.
    """
    snapshot = read_snapshot(stored.snapshot)
    count = len(snapshot.history)
    if stored.version < count:
        raise Mismatch(f"version {stored.version} is below the snapshot's {count} plies")
    plies = [ply for ply, _, _ in stored.actions]
    if plies != list(range(1, count + 1)):
        raise Mismatch(f"the snapshot has {count} plies but stored plies {_summary(plies)}")
    replayed = _replay(stored)
    if replayed != snapshot:
        raise Mismatch(f"snapshot differs from the {count} replayed actions")
    return replayed


def _replay(stored: StoredGame) -> Game:
    try:
        game = Game.new(ruleset=stored.ruleset, layout=stored.layout, max_plies=stored.max_plies)
    except Exception as exc:  # e.g. a ruleset name the engine no longer knows
        raise Mismatch(f"cannot start the game ({type(exc).__name__}: {exc})") from exc
    for ply, player_id, move in stored.actions:
        mover = stored.white_id if game.turn == "white" else stored.black_id
        if player_id != mover:
            raise Mismatch(f"ply {ply} ({move}) stored as played by {player_id}, not {mover}")
        try:
            played = game.play(move)
        except Exception as exc:  # IllegalMove, NotationError, or an engine bug: all corrupt
            raise Mismatch(f"ply {ply} ({move}) rejected ({type(exc).__name__}: {exc})") from exc
        if played != move:
            raise Mismatch(f"ply {ply} stored as {move!r}, canonical form is {played!r}")
    return game


def _summary(plies: list[int]) -> str:
    if len(plies) <= 6:
        return repr(plies)
    return f"[{plies[0]}, {plies[1]}, ..., {plies[-1]}] ({len(plies)} rows)"
