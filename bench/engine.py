"""Random-playout speed of the rules engine, today's against a baseline commit, in one run.

One ply is ``legal_moves()`` + ``play()`` (the text API the service uses); the new engine is also
timed through its integer API, ``legal_codes()`` + ``push()``, which the search uses. The
baseline's ``bot/jarmo`` is exported with ``git archive`` into a temporary directory. Every
measurement runs in its own child process, old and new taking turns, with the same seeds.

Run: ``python bench/engine.py [--games N] [--runs R] [--baseline COMMIT]``. Prints, per ruleset,
the median plies/second over R runs and the ratios to the baseline. A playout is timed by the
child's CPU time (``time.process_time``), so that other work on a shared machine disturbs the
figures less than it would a wall clock.
Target (issue 16): at least twice the baseline's plies/s for every ruleset.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BASELINE = "fe86cb6"
RULESET_NAMES = ("classic", "jasir", "ludos")


def playout_text(ruleset: str, layout: str, games: int, seed: int) -> tuple[float, int]:
    """Plies per second through ``legal_moves`` + ``play`` (any engine version)."""
    from bot.jarmo import Game

    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    start = time.process_time()
    for _ in range(games):
        game = Game.new(ruleset=ruleset, layout=layout)
        while True:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(choice(moves))
            plies += 1
    return plies / (time.process_time() - start), plies


def playout_codes(ruleset: str, layout: str, games: int, seed: int) -> tuple[float, int]:
    """Plies per second through ``legal_codes`` + ``push`` (the new engine only)."""
    from bot.jarmo import Game

    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    start = time.process_time()
    for _ in range(games):
        game = Game.new(ruleset=ruleset, layout=layout)
        while True:
            codes = game.legal_codes()
            if not codes:
                break
            game.push(choice(codes))
            plies += 1
    return plies / (time.process_time() - start), plies


MODES = {"text": playout_text, "codes": playout_codes}


def worker(root: str, mode: str, ruleset: str, layout: str, games: int, seed: int) -> None:
    """Child process: import the engine under ``root`` and print one measurement as JSON."""
    sys.path.insert(0, root)
    speed, plies = MODES[mode](ruleset, layout, games, seed)
    print(json.dumps({"speed": speed, "plies": plies}))


def measure(root: Path, mode: str, ruleset: str, layout: str, games: int, seed: int) -> float:
    """One measurement in a fresh child process."""
    args = [sys.executable, __file__, "--worker", str(root), mode, ruleset, layout]
    out = subprocess.run(
        [*args, str(games), str(seed)], check=True, capture_output=True, text=True, cwd=root
    )
    return float(json.loads(out.stdout)["speed"])


def export_baseline(commit: str, into: Path) -> Path:
    """``bot/__init__.py`` and ``bot/jarmo`` of ``commit``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, "bot/__init__.py", "bot/jarmo"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--layout", default="bow")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_root = export_baseline(args.baseline, Path(tmp))
        print(
            f"random playouts, layout {args.layout}, {args.games} games x {args.runs} runs; "
            f"old = {args.baseline}, new = working tree; plies/s, median (min-max)"
        )
        print(
            f"{'ruleset':8} {'old text':>22} {'new text':>22} {'ratio':>6} "
            f"{'new codes':>22} {'ratio':>6}"
        )
        for ruleset in RULESET_NAMES:
            runs: dict[str, list[float]] = {"old": [], "new": [], "codes": []}
            for seed in range(args.runs):  # interleaved, so that load spikes hit all alike
                runs["old"].append(
                    measure(old_root, "text", ruleset, args.layout, args.games, seed)
                )
                runs["new"].append(measure(REPO, "text", ruleset, args.layout, args.games, seed))
                runs["codes"].append(measure(REPO, "codes", ruleset, args.layout, args.games, seed))
            old = statistics.median(runs["old"])
            print(
                f"{ruleset:8} {_cell(runs['old'])} {_cell(runs['new'])} "
                f"{statistics.median(runs['new']) / old:5.2f}x {_cell(runs['codes'])} "
                f"{statistics.median(runs['codes']) / old:5.2f}x",
                flush=True,
            )


def _cell(speeds: list[float]) -> str:
    return (
        f"{statistics.median(speeds):>9,.0f} ({min(speeds) / 1000:,.0f}-{max(speeds) / 1000:,.0f}k)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "--worker":
        root, mode, ruleset, layout, games, seed = sys.argv[2:]
        worker(root, mode, ruleset, layout, int(games), int(seed))
    else:
        main()
