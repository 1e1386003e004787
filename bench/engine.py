"""Random-playout speed of the rules engine, today's against a baseline commit, in one run.

One ply is ``legal_moves()`` + ``play()`` (the text API the service uses); the new engine is also
timed through its integer API, ``legal_codes()`` + ``push()``, which the search uses. Three
engines: the baseline's ``bot/jarmo`` (exported with ``git archive`` into a temporary
directory), the working tree's as pure Python (its ``.py`` files copied to another one) and the
working tree as installed, compiled by mypyc (setup.py; the header says if it is not). Every
measurement runs in its own child process, the engines taking turns, with the same seeds.

Run: ``python bench/engine.py [--games N] [--runs R] [--baseline COMMIT]``. Prints, per ruleset,
the median plies/second over R runs and each one's ratio to the baseline's text API. A playout
is timed by the child's CPU time (``time.process_time``), so that other work on a shared machine
disturbs the figures less than it would a wall clock; the tables an engine builds on first use
are built before the clock starts.
Target: at least twice the baseline's plies/s for every ruleset.

``--layouts bow,traditional`` instead times the working tree on each layout in one run (the
published board must cost no more a ply than ``bow``).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import io
import json
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BASELINE = "fe86cb6"
RULESET_NAMES = ("classic", "jasir", "ludos")


def playout_text(ruleset: str, layout: str, games: int, seed: int) -> tuple[float, int]:
    """Plies per second through ``legal_moves`` + ``play`` (any engine version)."""
    from bot.jarmo import Game

    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    warm_up(Game, ruleset, layout)
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
    warm_up(Game, ruleset, layout)
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


def warm_up(game_class: Any, ruleset: str, layout: str) -> None:
    """Build the tables an engine makes on first use (once per process), outside the clock: a
    run lasts a fraction of a second, and the figures are of playing, not of starting."""
    game_class.new(ruleset=ruleset, layout=layout).legal_moves()


MODES = {"text": playout_text, "codes": playout_codes}


def worker(root: str, mode: str, ruleset: str, layout: str, games: int, seed: int) -> None:
    """Child process: import the engine under ``root`` and print one measurement as JSON."""
    sys.path.insert(0, root)
    speed, plies = MODES[mode](ruleset, layout, games, seed)
    from bot.jarmo import game

    origin = game.__spec__.origin or ""
    compiled = origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    print(json.dumps({"speed": speed, "plies": plies, "compiled": compiled}))


def measure(
    root: Path, mode: str, ruleset: str, layout: str, games: int, seed: int
) -> tuple[float, bool]:
    """One measurement in a fresh child process: plies/s, and whether the engine was compiled."""
    args = [sys.executable, __file__, "--worker", str(root), mode, ruleset, layout]
    out = subprocess.run(
        [*args, str(games), str(seed)], check=True, capture_output=True, text=True, cwd=root
    )
    result = json.loads(out.stdout)
    return float(result["speed"]), bool(result["compiled"])


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


def copy_sources(into: Path) -> Path:
    """The working tree's engine as pure Python: its ``.py`` files, without compiled modules."""
    (into / "bot").mkdir(parents=True)
    shutil.copy(REPO / "bot" / "__init__.py", into / "bot")
    shutil.copytree(REPO / "bot" / "jarmo", into / "bot" / "jarmo", ignore=_not_source)
    return into


def _not_source(folder: str, names: list[str]) -> set[str]:
    return {name for name in names if not name.endswith(".py")}


# The columns: an engine (its folder) and an API, each printed with its ratio to the first.
COLUMNS = (
    ("old", "text"),
    ("pure", "text"),
    ("compiled", "text"),
    ("pure", "codes"),
    ("compiled", "codes"),
)


def compare_layouts(args: argparse.Namespace) -> None:
    """The working tree's engine (as installed) on each layout of ``--layouts``, in one run:
    plies/s of random playouts through both APIs, and each layout's ratio to the first. A ply
    costs about what a game's length and the board's lines make it; a game played on a board
    with more lines must not cost more a ply."""
    layouts = args.layouts.split(",")
    print(
        f"random playouts, working tree, {args.games} games x {args.runs} runs, layouts "
        f"{' and '.join(layouts)}; plies/s median (min-max), and the ratio to {layouts[0]}"
    )
    print(f"{'ruleset':8} {'api':6}" + "".join(f"{layout:>24} {'ratio':>6}" for layout in layouts))
    for ruleset in RULESET_NAMES:
        for mode in MODES:
            runs: dict[str, list[float]] = {layout: [] for layout in layouts}
            for seed in range(args.runs):  # interleaved, so that load spikes hit all alike
                for layout in layouts:
                    speed, _ = measure(REPO, mode, ruleset, layout, args.games, seed)
                    runs[layout].append(speed)
            first = statistics.median(runs[layouts[0]])
            cells = (
                f"{_cell(runs[layout]):>24} {statistics.median(runs[layout]) / first:5.2f}x"
                for layout in layouts
            )
            print(f"{ruleset:8} {mode:6}" + "".join(cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--layout", default="bow")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare with")
    parser.add_argument(
        "--layouts",
        help="compare the working tree on these layouts instead, e.g. bow,traditional",
    )
    args = parser.parse_args()
    if args.layouts:
        compare_layouts(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        roots = {
            "old": export_baseline(args.baseline, Path(tmp, "old")),
            "pure": copy_sources(Path(tmp, "pure")),
            "compiled": REPO,
        }
        print(
            f"random playouts, layout {args.layout}, {args.games} games x {args.runs} runs; "
            f"old = {args.baseline}, pure and compiled = working tree; plies/s, median "
            "(min-max), and the ratio to old text"
        )
        print(f"{'ruleset':8}" + "".join(f"{f'{e} {m}':>22} {'ratio':>6}" for e, m in COLUMNS))
        compiled = True
        for ruleset in RULESET_NAMES:
            runs: dict[tuple[str, str], list[float]] = {column: [] for column in COLUMNS}
            for seed in range(args.runs):  # interleaved, so that load spikes hit all alike
                for engine, mode in COLUMNS:
                    speed, was_compiled = measure(
                        roots[engine], mode, ruleset, args.layout, args.games, seed
                    )
                    runs[engine, mode].append(speed)
                    compiled &= was_compiled or engine != "compiled"
            old = statistics.median(runs["old", "text"])
            cells = (f"{_cell(runs[c])} {statistics.median(runs[c]) / old:5.2f}x" for c in COLUMNS)
            print(f"{ruleset:8} " + " ".join(cells), flush=True)
        if not compiled:
            print("NOTE: the working tree's engine was NOT compiled (pure Python in both columns):")
            print("      pip install --no-deps --no-build-isolation -e . (a C compiler,")
            print("      JARMO_PURE_PYTHON unset)")


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
