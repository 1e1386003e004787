"""The computer opponent: search speed against a baseline commit, and hard against medium.

1. Speed: nodes per second at a fixed depth on fixed positions (random openings from fixed
   seeds, every ruleset): the baseline's ``bot/ai`` + ``bot/jarmo`` (exported with
   ``git archive``), the working tree's as pure Python (its ``.py`` files copied) and the working
   tree as installed, compiled by mypyc (setup.py; it says if it is not), each run in its own
   child process, taking turns.
2. Strength: ``hard`` against ``medium`` at their real settings (hard thinks up to 2 s a move),
   ``--games`` games with sides swapped (games 2k and 2k+1 start from the same random opening),
   on ``--workers`` processes; prints the table and the longest time any move took.

Run: ``python bench/ai.py [--games 40] [--depth 4] [--runs 3] [--skip-match]``.
Targets (issue 16): at least 2.5x the baseline's nodes/s; hard scores >= 70% against medium,
every move within 2 s.
"""

from __future__ import annotations

import argparse
import importlib
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
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BASELINE = "fe86cb6"
RULESET_NAMES = ("classic", "jasir", "ludos")
BASELINE_PATHS = ("bot/__init__.py", "bot/jarmo", "bot/ai")


# ---------------------------------------------------------------------- positions


def opening(ruleset: str, seed: int, plies: int) -> list[str]:
    """The moves of a random opening (replayed by either engine in the children)."""
    from bot.jarmo import Game

    rng = random.Random(f"{ruleset}/{seed}")
    game = Game.new(ruleset=ruleset)
    for _ in range(plies):
        moves = game.legal_moves()
        if len(moves) < 2:
            break
        game.play(rng.choice(moves))
    return game.history


def fixed_positions(count: int) -> list[tuple[str, list[str]]]:
    """``count`` positions per ruleset: 2 to 14 random plies from the start."""
    return [
        (ruleset, opening(ruleset, seed, 2 + 3 * (seed % 5)))
        for ruleset in RULESET_NAMES
        for seed in range(count)
    ]


# ---------------------------------------------------------------------- speed


def search_speed(positions: list[tuple[str, list[str]]], depth: int) -> dict[str, float]:
    """Child process: search every position to ``depth``; nodes and seconds in total."""
    from bot.ai import _search
    from bot.jarmo import Game

    nodes = 0
    seconds = 0.0
    for ruleset, moves in positions:
        game = Game.new(ruleset=ruleset)
        for move in moves:
            game.play(move)
        budget = _search.Budget(max_depth=depth, node_limit=None, time_limit=None)
        start = time.process_time()  # CPU time: other work on the machine counts less
        root: Any = _baseline_state(game) or game
        nodes += _search.Searcher(root, budget, 0).run().nodes
        seconds += time.process_time() - start
    origin = _search.__spec__.origin or ""
    compiled = origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    return {"nodes": nodes, "seconds": seconds, "compiled": compiled}


def _baseline_state(game: Any) -> Any:
    """The baseline searched a copy of its own (``bot.ai._state``); today's searches the game."""
    try:
        state = importlib.import_module("bot.ai._state")  # only in the baseline
    except ImportError:
        return None
    return state.State(game.to_dict())


def measure_speed(
    root: Path, positions: list[tuple[str, list[str]]], depth: int
) -> tuple[float, int, bool]:
    """Nodes per second, nodes, and whether the search was compiled, in a fresh child process
    importing the code under ``root``."""
    payload = json.dumps({"positions": positions, "depth": depth})
    out = subprocess.run(
        [sys.executable, __file__, "--worker", str(root)],
        input=payload,
        check=True,
        capture_output=True,
        text=True,
        cwd=root,
    )
    result = json.loads(out.stdout)
    return float(result["nodes"] / result["seconds"]), int(result["nodes"]), result["compiled"]


def export_baseline(commit: str, into: Path) -> Path:
    """``bot/__init__.py``, ``bot/jarmo`` and ``bot/ai`` of ``commit``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, *BASELINE_PATHS],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def copy_sources(into: Path) -> Path:
    """The working tree's engine and search as pure Python: their ``.py`` files only."""
    (into / "bot").mkdir(parents=True)
    shutil.copy(REPO / "bot" / "__init__.py", into / "bot")
    for package in ("jarmo", "ai"):
        shutil.copytree(REPO / "bot" / package, into / "bot" / package, ignore=_not_source)
    return into


def _not_source(folder: str, names: list[str]) -> set[str]:
    return {name for name in names if not name.endswith(".py")}


def run_speed(args: argparse.Namespace) -> None:
    positions = fixed_positions(args.positions)
    rates: dict[str, list[float]] = {"old": [], "pure": [], "compiled": []}
    nodes: dict[str, int] = {}
    compiled = True
    with tempfile.TemporaryDirectory() as tmp:
        roots = {
            "old": export_baseline(args.baseline, Path(tmp, "old")),
            "pure": copy_sources(Path(tmp, "pure")),
            "compiled": REPO,
        }
        for _ in range(args.runs):  # interleaved, so that load spikes hit all alike
            for version, root in roots.items():
                rate, nodes[version], was_compiled = measure_speed(root, positions, args.depth)
                rates[version].append(rate)
                compiled &= was_compiled or version != "compiled"
    print(
        f"search speed: depth {args.depth}, {len(positions)} positions "
        f"({args.positions} per ruleset), {args.runs} runs; nodes/s median (min-max)"
    )
    old = statistics.median(rates["old"])
    labels = {
        "old": f"old {args.baseline}",
        "pure": "working tree, pure Python",
        "compiled": "working tree, compiled" if compiled else "working tree, NOT compiled",
    }
    for version, label in labels.items():
        ratio = statistics.median(rates[version]) / old
        print(f"  {label:26} {_cell(rates[version])}, {nodes[version]} nodes, {ratio:.2f}x old")
    speedup = statistics.median(rates["compiled"]) / statistics.median(rates["pure"])
    print(f"  compiled/pure: {speedup:.2f}x", flush=True)


def _cell(rates: list[float]) -> str:
    return f"{statistics.median(rates):9,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"


# ---------------------------------------------------------------------- hard against medium


def play_game(index: int, opening_plies: int) -> dict[str, Any]:
    """Game ``index``: hard is White in even games; both colours share an opening."""
    from bot.ai import analyse
    from bot.jarmo import Game

    game = Game.new()
    for move in opening("classic", index // 2, opening_plies):
        game.play(move)
    hard_side = "white" if index % 2 == 0 else "black"
    longest = {"hard": 0.0, "medium": 0.0}
    while not game.over:
        level = "hard" if game.turn == hard_side else "medium"
        start = time.perf_counter()
        move = analyse(game, level=level, seed=index * 1000 + game.ply).move
        longest[level] = max(longest[level], time.perf_counter() - start)
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    other = "black" if hard_side == "white" else "white"
    score = 0.5 if outcome.winner is None else float(outcome.winner == hard_side)
    return {
        "hard_white": hard_side == "white",
        "score": score,
        "points": (outcome.points[hard_side], outcome.points[other]),
        "plies": game.ply,
        "longest": longest,
        "termination": outcome.termination.value,
    }


def _play(args: tuple[int, int]) -> dict[str, Any]:
    return play_game(*args)


def run_match(args: argparse.Namespace) -> None:
    jobs = [(i, args.opening) for i in range(args.games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(_play, jobs, chunksize=1))
    print(
        f"\nhard against medium, classic/bow, {args.games} games, sides swapped, "
        f"{args.opening} random opening plies, {args.workers} workers, "
        f"{time.perf_counter() - start:.0f} s"
    )
    print(
        f"{'hard as':8} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} {'score':>6} "
        f"{'points':>9} {'plies':>5}"
    )
    for label, chosen in (
        ("White", [g for g in games if g["hard_white"]]),
        ("Black", [g for g in games if not g["hard_white"]]),
        ("either", games),
    ):
        if chosen:
            print(_row(label, chosen))
    for level in ("hard", "medium"):
        print(f"longest move, {level}: {max(g['longest'][level] for g in games):.2f} s")


def _row(label: str, games: list[dict[str, Any]]) -> str:
    won = sum(g["score"] == 1.0 for g in games)
    drawn = sum(g["score"] == 0.5 for g in games)
    share = sum(g["score"] for g in games) / len(games)
    mine = sum(g["points"][0] for g in games)
    theirs = sum(g["points"][1] for g in games)
    plies = statistics.mean(g["plies"] for g in games)
    return (
        f"{label:8} {len(games):5} {won:4} {drawn:5} {len(games) - won - drawn:4} "
        f"{share:6.1%} {mine:4}:{theirs:<4} {plies:5.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4, help="search depth for the speed test")
    parser.add_argument("--positions", type=int, default=6, help="speed positions per ruleset")
    parser.add_argument("--runs", type=int, default=3, help="speed runs of each version")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare speed with")
    parser.add_argument("--games", type=int, default=40, help="games of hard against medium")
    parser.add_argument("--opening", type=int, default=2, help="random plies before play")
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2))
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-match", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        run_speed(args)
    if not args.skip_match:
        run_match(args)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.path.insert(0, sys.argv[2])
        job = json.loads(sys.stdin.read())
        print(json.dumps(search_speed(job["positions"], job["depth"])))
    else:
        main()
