"""Regenerate the sample board images in ``docs/images/`` from seeded random games.

Run with ``.venv/bin/python bench/make_samples.py``; the output is deterministic.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.jarmo import Game, Position  # noqa: E402
from bot.render import render_board  # noqa: E402

OUT = ROOT / "docs" / "images"
PLAYERS = ("Aigül", "Timur Ğäliev")


def first_game(ruleset: str, wanted: Callable[[Game, Position], bool], limit: int = 120) -> Game:
    """The first seeded random game that, at some ply, shows what ``wanted`` asks for."""
    for seed in range(5_000):
        rng = random.Random(seed)
        game = Game.new(ruleset=ruleset)
        while not game.over and game.ply < limit:
            game.play(rng.choice(game.legal_moves()))
            if wanted(game, game.position()):
                return game
    raise RuntimeError(f"no {ruleset} game found")


def kinds(position: Position, kind: str) -> int:
    """How many pieces of ``kind`` stand on the board."""
    return sum(piece.kind == kind for piece in position.pieces)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    samples = {
        "start.png": Game.new(),
        "classic-midgame.png": first_game("classic", lambda g, p: (
            not g.over and g.ply >= 16 and kinds(p, "marked") >= 2 and bool(p.last)
            and p.last.capture and min(p.captured.values()) >= 1)),
        "ludos-midgame.png": first_game("ludos", lambda g, p: (
            not g.over and g.ply >= 14 and kinds(p, "guard") >= 2 and bool(p.last)
            and bool(p.last.placed))),
        "finished.png": first_game("classic", lambda g, p: g.over and p.outcome is not None
                                   and p.outcome.winner == "black" and g.ply >= 30),
    }
    for name, game in samples.items():
        perspective = "black" if name == "finished.png" else "white"
        data = render_board(game, perspective=perspective, players=PLAYERS)
        (OUT / name).write_bytes(data)
        print(f"{name}: ply {game.ply}, {perspective}, {len(data) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
