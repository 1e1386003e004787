"""Regenerate the sample board images in ``docs/images/`` from seeded random games.

Run with ``.venv/bin/python bench/make_samples.py``; the output is deterministic.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.jarmo import Game, Position  # noqa: E402
from bot.render import ResultBanner, render_board  # noqa: E402
from bot.render._theme import WIDTH  # noqa: E402

OUT = ROOT / "docs" / "images"
PLAYERS = ("Aigül", "Timur Ğäliev")
WORLD = ("李小龙 🐉 Дмитрий ❤️", "مرحبا 🇫🇷 Ἀλέξανδρος")  # CJK, emoji, Cyrillic; Arabic, Greek


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
        "classic-midgame.png": first_game(
            "classic",
            lambda g, p: (
                not g.over
                and g.ply >= 16
                and kinds(p, "marked") >= 2
                and bool(p.last)
                and p.last.capture
                and min(p.captured.values()) >= 1
            ),
        ),
        "ludos-midgame.png": first_game(
            "ludos",
            lambda g, p: (
                not g.over
                and g.ply >= 14
                and kinds(p, "guard") >= 2
                and bool(p.last)
                and bool(p.last.placed)
            ),
        ),
        "finished.png": first_game(
            "classic",
            lambda g, p: (
                g.over and p.outcome is not None and p.outcome.winner == "black" and g.ply >= 30
            ),
        ),
    }
    for name, game in samples.items():
        perspective = "black" if name == "finished.png" else "white"
        save(name, render_board(game, perspective=perspective, players=PLAYERS), game)
    stopped = {
        "finished-resigned.png": ("classic", "resigned"),
        "finished-timeout.png": ("ludos", "timeout"),
    }
    for name, (ruleset, reason) in stopped.items():
        game = first_game(ruleset, lambda g, p: not g.over and g.ply >= 20 and bool(p.last))
        banner = ResultBanner(reason, "white" if game.turn == "black" else "black", game.points())
        save(name, render_board(game, players=PLAYERS, result=banner), game)
    game = first_game("classic", lambda g, p: not g.over and g.ply >= 12 and bool(p.last))
    save("names.png", render_board(game, players=WORLD), game)
    empty_board()


def empty_board() -> None:
    """The published board alone, with its coordinates: the picture of the rules page."""
    from bot.jarmo import get_layout
    from bot.render._board import background
    from bot.render._theme import BOARD_H, BOARD_TOP, CLASSIC

    lines = get_layout("traditional").lines
    image = background(CLASSIC, lines, "white").crop((0, BOARD_TOP, WIDTH, BOARD_TOP + BOARD_H))
    stream = io.BytesIO()
    image.save(stream, format="PNG", optimize=True)
    (OUT / "board.png").write_bytes(stream.getvalue())
    print(f"board.png: {len(lines)} lines, {len(stream.getvalue()) / 1024:.1f} KB")


def save(name: str, data: bytes, game: Game) -> None:
    """Write one sample and say what it is."""
    (OUT / name).write_bytes(data)
    print(f"{name}: ply {game.ply}, {len(data) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
