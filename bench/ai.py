"""The computer opponent: search speed against a baseline commit, variety, and the ladder.

1. Speed: nodes per second at a fixed depth on fixed positions (random openings from fixed
   seeds, every ruleset): the baseline's ``bot/ai`` + ``bot/jarmo`` (exported with
   ``git archive``), the working tree's as pure Python (its ``.py`` files copied) and the working
   tree as installed, compiled by mypyc (setup.py; it says if it is not), each run in its own
   child process, taking turns.
2. Variety: ``--variety-games`` games of medium against medium from the start (in each
   ``--ruleset``), each with its own seed (as the bot seeds each game), and how many of them
   differ.
3. The ladder on ``--layout`` (default the published board) in ``--ruleset`` (default classic;
   ``all`` plays each in turn): for each pair ``A:B``, ``--games`` games with sides swapped
   (games 2k and 2k+1 start from the same random opening), on ``--workers`` processes; prints
   each side's wins by colour, A's score and the longest time any move took. The openings are
   quiet: no piece taken and none to take. A player is a level with a limit, ``hard@2``
   (seconds), ``hard#60000`` (nodes: the same games under any load), ``greedy`` (takes the most
   valuable piece it can, else makes the longest step forward) or ``random``; ``old-`` plays
   the ``--baseline`` commit's search, in a child process of its own. That
   search runs from its ``.py`` files, uncompiled, at about half the speed its own install had,
   so the ladder sets it against today's hard at equal nodes, not in real time.
   An opening is ``--opening`` random plies, four by default: two plies give only 48 quiet
   openings, 11 of them worth a point or more to one side by a deep search, so 20 pairs would
   repeat them; from four-ply openings (3,263 of them) the same players score further apart
   (``hard#120000:hard#30000``, 120 games: 57.5% from two plies, 63.7% from four).

Run: ``python bench/ai.py [--games 40] [--pair hard@2:medium ...] [--ruleset ludos]
[--skip-speed] [--skip-variety] [--skip-ladder]``. Targets: nodes/s no lower than the
baseline's at the same depth; at least 20 different games of 30; in the ladder, the stronger
level scores >= 85% (easy:medium from medium's side, hard@2:medium), hard@2:hard@0.5 >= 65% and
hard#60000:old-hard#60000 >= 75%, every move within its level's time; against the greedy
player (``--pair medium:greedy --pair hard#300000:greedy``, in every ruleset), medium scores
>= 75% and hard >= 95%.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BASELINE = "49bd0b4"  # the computer before the quiet ladder openings and the stronger hard
RULESET_NAMES = ("classic", "jasir", "ludos")
SIMPLE_PLAYERS = ("greedy", "random")  # no search: a rule of thumb, or any legal move
BASELINE_PATHS = ("bot/__init__.py", "bot/jarmo", "bot/ai")


# ---------------------------------------------------------------------- positions


def opening(
    ruleset: str, seed: int, plies: int, layout: str = "traditional", *, quiet: bool = False
) -> list[str]:
    """The moves of a random opening (replayed by either engine in the children).

    ``quiet`` draws again until no piece has been taken and the side to move can take none: a
    random move often leaves a piece to be taken for nothing, and a ladder game that starts a
    piece down measures the opening, not the players (the pair's other game, with sides
    swapped, does not make up for it: it is won by either player).
    """
    from bot.jarmo import Game

    rng = random.Random(f"{ruleset}/{seed}")
    while True:
        game = Game.new(ruleset=ruleset, layout=layout)
        for _ in range(plies):
            moves = game.legal_moves()
            if len(moves) < 2:
                break
            game.play(rng.choice(moves))
        if not quiet or not any("x" in move for move in game.history + game.legal_moves()):
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
    """``bot/__init__.py``, ``bot/jarmo`` and ``bot/ai`` of ``commit``, unpacked under ``into``;
    or, where ``commit`` is a folder (a tree exported beforehand, for a machine without the
    repository's history), that folder."""
    if Path(commit).is_dir():
        return Path(commit).resolve()
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


# ---------------------------------------------------------------------- players


@dataclass(frozen=True)
class Player:
    """A level with a thinking limit, from the working tree or from the baseline commit.

    Written ``level``, ``level@seconds`` (a time limit), ``level#nodes`` (a node limit: the
    same games on any machine and under any load) with ``old-`` in front for the baseline's
    ``bot/ai`` (``--baseline``), e.g. ``hard@2``, ``old-hard@2``, ``hard#60000``; or one of
    :data:`SIMPLE_PLAYERS`, which search nothing.
    """

    level: str
    seconds: float | None = None
    nodes: int | None = None
    old: bool = False

    @classmethod
    def parse(cls, text: str) -> Player:
        old = text.startswith("old-")
        body = text.removeprefix("old-")
        if body in SIMPLE_PLAYERS:
            if old:
                raise ValueError(f"{body} has no baseline version: write {body}")
            return cls(body)
        if "@" in body:
            level, seconds = body.split("@")
            return cls(level, seconds=float(seconds), old=old)
        if "#" in body:
            level, nodes = body.split("#")
            return cls(level, nodes=int(nodes), old=old)
        return cls(body, old=old)

    def __str__(self) -> str:
        limit = f"@{self.seconds:g}" if self.seconds else f"#{self.nodes}" if self.nodes else ""
        return f"{'old-' if self.old else ''}{self.level}{limit}"


_OLD_ENGINE: subprocess.Popen[str] | None = None


def _old_engine(root: str) -> subprocess.Popen[str]:
    """This worker's child process running the baseline's search (started on first use)."""
    global _OLD_ENGINE
    if _OLD_ENGINE is None:
        _OLD_ENGINE = subprocess.Popen(
            [sys.executable, __file__, "--engine", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=root,
        )
    return _OLD_ENGINE


def serve_engine() -> None:
    """Child process: answer one JSON search request a line with the move of the ``bot.ai`` on
    ``sys.path`` (the baseline's)."""
    from bot.ai import analyse
    from bot.jarmo import Game

    for line in sys.stdin:
        job = json.loads(line)
        result = analyse(
            Game.from_dict(job["game"]),
            level=job["level"],
            seed=job["seed"],
            time_limit=job["seconds"],
            node_limit=job["nodes"],
        )
        print(json.dumps({"move": result.move}), flush=True)


def greedy_move(game: Any, rng: random.Random) -> str:
    """Take the most valuable piece if possible, else make the longest step forward (a
    redeploy or a placing counts as no progress); ties are broken by ``rng``."""
    from bot.jarmo.board import POINT_INDEX, row_of

    ahead = 1 if game.turn == "white" else -1
    own_camp_row = 0 if game.turn == "white" else 4

    def value(move: str) -> float:
        step, _, place = move.partition("@")
        if not step:
            return 0.0
        p, q = POINT_INDEX[step[:2]], POINT_INDEX[step[3:5]]
        if step[2] == "x":
            # A victim standing in our camp (its enemy camp) is worth 2 points, any other 1.
            return 100.0 + (2 if row_of(q) == own_camp_row else 1)
        return (row_of(q) - row_of(p)) * ahead + (0.5 if place else 0.0)

    moves = game.legal_moves()
    rng.shuffle(moves)
    return str(max(moves, key=value))


def think(player: Player, game: Any, seed: int, baseline_root: str) -> str:
    """``player``'s move in ``game``."""
    from bot.ai import analyse

    if player.level == "greedy":
        return greedy_move(game, random.Random(seed))
    if player.level == "random":
        return str(random.Random(seed).choice(game.legal_moves()))

    # A node limit decides alone: the clock is only a safety net then.
    seconds = player.seconds if player.seconds else 60.0 if player.nodes else None
    if not player.old:
        return analyse(
            game, level=player.level, seed=seed, time_limit=seconds, node_limit=player.nodes
        ).move
    engine = _old_engine(baseline_root)
    assert engine.stdin is not None and engine.stdout is not None
    job = {
        "game": game.to_dict(),
        "level": player.level,
        "seed": seed,
        "seconds": seconds,
        "nodes": player.nodes,
    }
    engine.stdin.write(json.dumps(job) + "\n")
    engine.stdin.flush()
    return str(json.loads(engine.stdout.readline())["move"])


# ---------------------------------------------------------------------- the ladder


def play_game(
    a: Player,
    b: Player,
    index: int,
    opening_plies: int,
    ruleset: str,
    layout: str,
    baseline_root: str,
) -> dict[str, Any]:
    """Game ``index`` of ``a`` against ``b`` in ``ruleset``: ``a`` is White in even games;
    games 2k and 2k+1 start from the same random opening. Each move's seed is the game's own."""
    from bot.jarmo import Game

    game = Game.new(ruleset=ruleset, layout=layout)
    for move in opening(ruleset, index // 2, opening_plies, layout, quiet=True):
        game.play(move)
    a_side = "white" if index % 2 == 0 else "black"
    longest = [0.0, 0.0]
    while not game.over:
        mover = 0 if game.turn == a_side else 1
        start = time.perf_counter()
        move = think((a, b)[mover], game, index << 16 | game.ply, baseline_root)
        longest[mover] = max(longest[mover], time.perf_counter() - start)
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    b_side = "black" if a_side == "white" else "white"
    score = 0.5 if outcome.winner is None else float(outcome.winner == a_side)
    return {
        "a_white": a_side == "white",
        "score": score,
        "points": (outcome.points[a_side], outcome.points[b_side]),
        "plies": game.ply,
        "longest": longest,
        "moves": game.history,
    }


def _play(args: tuple[Player, Player, int, int, str, str, str]) -> dict[str, Any]:
    return play_game(*args)


def run_pair(
    a: Player, b: Player, ruleset: str, args: argparse.Namespace, baseline_root: str
) -> list[dict[str, Any]]:
    jobs = [(a, b, i, args.opening, ruleset, args.layout, baseline_root) for i in range(args.games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(_play, jobs, chunksize=1))
    print(
        f"\n{a} against {b}, {ruleset}/{args.layout}, {args.games} games, sides swapped, "
        f"{args.opening} random opening plies, {args.workers} workers, "
        f"{time.perf_counter() - start:.0f} s, load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'A as':6} {'games':>5} {'A won':>5} {'drawn':>5} {'B won':>5} {'A score':>7} "
        f"{'points A:B':>10} {'plies':>5}"
    )
    for label, chosen in (
        ("White", [g for g in games if g["a_white"]]),
        ("Black", [g for g in games if not g["a_white"]]),
        ("either", games),
    ):
        if chosen:
            print(_row(label, chosen))
    for i, player in enumerate((a, b)):
        print(f"longest move, {player}: {max(g['longest'][i] for g in games):.2f} s")
    print(f"different games: {len({tuple(g['moves']) for g in games})} of {len(games)}")
    return games


def _row(label: str, games: list[dict[str, Any]]) -> str:
    won = sum(g["score"] == 1.0 for g in games)
    drawn = sum(g["score"] == 0.5 for g in games)
    share = sum(g["score"] for g in games) / len(games)
    mine = sum(g["points"][0] for g in games)
    theirs = sum(g["points"][1] for g in games)
    plies = statistics.mean(g["plies"] for g in games)
    return (
        f"{label:6} {len(games):5} {won:5} {drawn:5} {len(games) - won - drawn:5} "
        f"{share:7.1%} {mine:5}:{theirs:<4} {plies:5.1f}"
    )


def run_ladder(args: argparse.Namespace, ruleset: str) -> None:
    pairs = [
        tuple(Player.parse(text) for text in pair.split(":"))
        for pair in args.pair or DEFAULT_LADDER
    ]
    with tempfile.TemporaryDirectory() as tmp:
        root = ""
        if any(player.old for pair in pairs for player in pair):
            root = str(export_baseline(args.baseline, Path(tmp, "old")))
        for a, b in pairs:
            run_pair(a, b, ruleset, args, root)


def run_variety(args: argparse.Namespace, ruleset: str) -> None:
    """Medium against medium from the start, each game with its own seed: how many differ."""
    medium = Player("medium")
    jobs = [(medium, medium, i, 0, ruleset, args.layout, "") for i in range(args.variety_games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(_play, jobs, chunksize=1))
    distinct = len({tuple(g["moves"]) for g in games})
    white = sum(g["score"] == 1.0 for g in games if g["a_white"]) + sum(
        g["score"] == 0.0 for g in games if not g["a_white"]
    )
    drawn = sum(g["score"] == 0.5 for g in games)
    print(
        f"\nvariety: medium against medium from the start, {ruleset}/{args.layout}, "
        f"{len(games)} games (a seed each): {distinct} different games; "
        f"White won {white}, Black {len(games) - white - drawn}, drawn {drawn}"
    )


#: The ladder on the published board (A:B, each A's score printed): each level against the
#: next, more time against less, and today's hard against the baseline's.
DEFAULT_LADDER = ("easy:medium", "hard@2:medium", "hard@2:hard@0.5", "hard#60000:old-hard#60000")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4, help="search depth for the speed test")
    parser.add_argument("--positions", type=int, default=6, help="speed positions per ruleset")
    parser.add_argument("--runs", type=int, default=3, help="speed runs of each version")
    parser.add_argument(
        "--baseline",
        default=BASELINE,
        help="commit to compare with, or a folder holding its bot/ (from git archive)",
    )
    parser.add_argument("--layout", default="traditional", help="board of the games")
    parser.add_argument(
        "--ruleset",
        default="classic",
        choices=(*RULESET_NAMES, "all"),
        help="rules of the variety and ladder games ('all': each in turn; default classic)",
    )
    parser.add_argument("--games", type=int, default=40, help="games per ladder pair")
    parser.add_argument(
        "--pair",
        action="append",
        help="a ladder pair A:B such as hard@2:old-hard@2 or medium:greedy (repeatable; default: "
        + ", ".join(DEFAULT_LADDER)
        + ")",
    )
    parser.add_argument("--opening", type=int, default=4, help="random plies before play")
    parser.add_argument("--variety-games", type=int, default=30)
    parser.add_argument(
        "--workers", type=int, default=2, help="game processes (2 on the 2-core machine)"
    )
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-variety", action="store_true")
    parser.add_argument("--skip-ladder", action="store_true")
    args = parser.parse_args()
    for text in (part for pair in args.pair or () for part in pair.split(":")):
        try:
            Player.parse(text)
        except ValueError as exc:
            parser.error(f"--pair: {exc}")
    rulesets = RULESET_NAMES if args.ruleset == "all" else (args.ruleset,)
    if not args.skip_speed:
        run_speed(args)
    for ruleset in rulesets:
        if not args.skip_variety:
            run_variety(args, ruleset)
        if not args.skip_ladder:
            run_ladder(args, ruleset)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.path.insert(0, sys.argv[2])
        job = json.loads(sys.stdin.read())
        print(json.dumps(search_speed(job["positions"], job["depth"])))
    elif len(sys.argv) == 3 and sys.argv[1] == "--engine":
        sys.path.insert(0, sys.argv[2])
        serve_engine()
    else:
        main()
