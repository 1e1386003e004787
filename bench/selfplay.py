"""Balance on a board: White / Black / draw in self-play, beside BrainKing's human games.

Each player plays itself from the start position: ``random`` (uniformly random legal moves, the
figures of the rules' §8), then the computer's levels. A level's games differ by their seeds
(each game its own, as the bot seeds them); ``hard`` thinks ``--hard`` (``#nodes``, the same
games under any load, or ``@seconds``) a move. Prints, per player, the games, White's, Black's
and drawn shares and the median and longest game in plies, then BrainKing's real games.

Run: ``python bench/selfplay.py [--ruleset classic] [--layout traditional] [--random 2000]
[--easy 200] [--medium 100] [--hard-games 20] [--hard '#100000'] [--workers 2]``.
Check: random classic games on ``traditional`` last a median of 53 plies (rules §8).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.ai import analyse
from bot.jarmo import Game

# BrainKing's real games of Jarmo (about 8,650), from the rules' §8.
BRAINKING = {"games": 8650, "white": 0.406, "black": 0.489, "draw": 0.105}


def play_one(job: tuple[str, str, str, str, int]) -> tuple[str, int]:
    """One self-play game: who won (``white``, ``black`` or ``draw``) and its length in plies."""
    player, ruleset, layout, hard, index = job
    game = Game.new(ruleset=ruleset, layout=layout)
    rng = random.Random(f"{player}/{ruleset}/{layout}/{index}")
    seconds, nodes = _limits(hard) if player == "hard" else (None, None)
    while not game.over:
        if player == "random":
            game.play(rng.choice(game.legal_moves()))
            continue
        seed = index << 16 | game.ply
        result = analyse(game, level=player, seed=seed, time_limit=seconds, node_limit=nodes)
        game.play(result.move)
    winner = game.winner()
    return (winner if winner is not None else "draw"), game.ply


def _limits(hard: str) -> tuple[float | None, int | None]:
    """``#nodes`` or ``@seconds``; with nodes the clock is only a safety net."""
    if hard.startswith("#"):
        return 60.0, int(hard[1:])
    return float(hard.removeprefix("@")), None


def row(label: str, games: int, shares: dict[str, float], plies: str) -> str:
    return (
        f"{label:22} {games:6,} {shares['white']:7.1%} {shares['black']:7.1%} "
        f"{shares['draw']:7.1%}  {plies}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--layout", default="traditional")
    parser.add_argument("--random", type=int, default=2000, help="random games")
    parser.add_argument("--easy", type=int, default=200, help="easy games")
    parser.add_argument("--medium", type=int, default=100, help="medium games")
    parser.add_argument("--hard-games", type=int, default=20, help="hard games")
    parser.add_argument("--hard", default="#100000", help="hard's limit: #nodes or @seconds")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    counts = {"random": args.random, "easy": args.easy, "medium": args.medium}
    counts["hard"] = args.hard_games
    print(
        f"self-play from the start, {args.ruleset}/{args.layout}, {args.workers} workers; "
        f"hard: {args.hard} a move"
    )
    print(f"{'player':22} {'games':>6} {'White':>7} {'Black':>7} {'draw':>7}  plies median (max)")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for player, games in counts.items():
            if not games:
                continue
            start = time.perf_counter()
            jobs = [(player, args.ruleset, args.layout, args.hard, i) for i in range(games)]
            results: list[tuple[str, int]] = list(pool.map(play_one, jobs, chunksize=4))
            shares: dict[str, Any] = {
                side: sum(r[0] == side for r in results) / games
                for side in ("white", "black", "draw")
            }
            plies = [r[1] for r in results]
            label = f"hard {args.hard}" if player == "hard" else player
            length = f"{statistics.median(plies):5.0f} ({max(plies)})"
            print(
                row(label, games, shares, length)
                + f"   [{time.perf_counter() - start:.0f} s, load {os.getloadavg()[0]:.1f}]",
                flush=True,
            )
    print(row("BrainKing (people)", BRAINKING["games"], BRAINKING, "    -"))


if __name__ == "__main__":
    main()
