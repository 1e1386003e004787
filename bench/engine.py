"""Random-playout speed of the rules engine: one ply = ``legal_moves()`` + ``play()``.

Run: ``python bench/engine.py [--games N] [--runs R]``. Prints, per ruleset, the median
plies/second over R runs on one core, and the median and longest game length.
Target (issue 2): at least 250,000 plies/s for ``classic`` on layout ``bow``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.jarmo import RULESETS, Game


def playout_run(ruleset: str, layout: str, games: int, seed: int) -> tuple[float, list[int]]:
    rng = random.Random(seed)
    choice = rng.choice
    lengths = []
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Game.new(ruleset=ruleset, layout=layout)
        while True:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(choice(moves))
            plies += 1
        lengths.append(game.ply)
    return plies / (time.perf_counter() - start), lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--layout", default="bow")
    args = parser.parse_args()
    print(f"random playouts, layout {args.layout}, {args.games} games x {args.runs} runs")
    for ruleset in RULESETS:
        speeds, lengths = [], []
        for run in range(args.runs):
            speed, run_lengths = playout_run(ruleset, args.layout, args.games, seed=run)
            speeds.append(speed)
            lengths.extend(run_lengths)
        print(
            f"{ruleset:8} median {statistics.median(speeds):>9,.0f} plies/s "
            f"(min {min(speeds):,.0f}, max {max(speeds):,.0f}); "
            f"game length median {statistics.median(lengths):.0f}, longest {max(lengths)}"
        )


if __name__ == "__main__":
    main()
