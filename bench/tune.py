"""Fits the computer's evaluation weights to self-play results (Texel tuning), reproducibly.

Two steps, each deterministic for its arguments:

1. ``generate``: fast self-play games on ``--layout`` (default ``traditional``) for one ruleset:
   the first 2-7 plies random, then each side plays a four-ply search with ``--nodes`` nodes a
   move (medium's search when the weights were fitted; with the hand-set weights of before,
   without variety), and with probability ``--random`` a random legal move instead (so that
   the games, and the mistakes in them, vary). Game ``i`` depends only on ``--seed`` and
   ``i``, so the file does not depend on the number of ``--workers``. Writes one JSON line per
   game: ruleset, layout, moves and White's result (1, 0.5 or 0).
2. ``fit``: replays the games, takes every position after the random opening in which the side
   to move has no capture (a quiet position: its static value means something), and fits the
   evaluation's weights by logistic regression of the game's result on the evaluation's
   features (``bot/ai/_features.py``): P(White wins) = 1 / (1 + exp(-value / scale)). The scale
   is first fitted for the hand-set weights of before and then held, so that the weights stay in
   hundredths of a game point, the unit of the search's scores; the piece values are then
   refitted with every other term. Writes ``bot/ai/_weights.py`` (a generated module: data
   only) with the weights of every ruleset it was given, keeping the others.

``fit`` needs numpy (not a dependency of the bot: ``pip install numpy``, or run it with a Python
that has numpy and ``PYTHONPATH`` at the repository).

Run (the committed weights: classic from 6,000 games, jasir and ludos from 1,500 each)::

    python bench/tune.py generate --ruleset classic --games 6000 --out /tmp/classic.jsonl
    python bench/tune.py generate --ruleset jasir --games 1500 --out /tmp/jasir.jsonl
    python bench/tune.py generate --ruleset ludos --games 1500 --out /tmp/ludos.jsonl
    python bench/tune.py fit /tmp/classic.jsonl /tmp/jasir.jsonl /tmp/ludos.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.ai._eval import PLACE_BLACK, PLACE_WHITE, WEIGHT_COUNT
from bot.ai._features import features
from bot.ai._search import Budget, Searcher
from bot.ai._weights import WEIGHTS
from bot.jarmo import Game
from bot.jarmo.board import IN_ENEMY_CAMP, POINT_COUNT, POINT_NAMES, row_of
from bot.jarmo.codes import NOTATION

REPO = Path(__file__).resolve().parent.parent
WEIGHTS_FILE = REPO / "bot" / "ai" / "_weights.py"
TERM_NAMES = (
    "mobility",
    "attack",
    "defend",
    "redeploy right",
    "runner",
    "reserve piece",
    "tempo",
)

OPENING_PLIES = (2, 7)  # random plies before the search plays, at least and at most
# The search of the games: four plies, the result bonus of the lower levels and no variety (what
# medium played when the committed weights were fitted), so that old files can be made again.
GAME_SEARCH = Budget(max_depth=4, node_limit=None, time_limit=None)


# ---------------------------------------------------------------------- generate


def play_one(job: tuple[int, int, str, str, int, float]) -> dict[str, Any]:
    """Self-play game ``index``: its moves, White's result and where the random opening ends."""
    index, seed, ruleset, layout, nodes, random_share = job
    _play_with_hand_weights()
    rng = random.Random(f"{seed}/{ruleset}/{layout}/{index}")
    game = Game.new(ruleset=ruleset, layout=layout)
    opening = rng.randint(*OPENING_PLIES)
    while not game.over:
        if game.ply < opening or rng.random() < random_share:
            move = rng.choice(game.legal_moves())
        else:
            seed_of_move = rng.randrange(1 << 30)
            search = Searcher(game.copy(), replace(GAME_SEARCH, node_limit=nodes), seed_of_move)
            move = NOTATION[search.run().move]
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    result = 0.5 if outcome.winner is None else float(outcome.winner == "white")
    return {
        "ruleset": ruleset,
        "layout": layout,
        "opening": opening,
        "moves": game.history,
        "result": result,
    }


def _play_with_hand_weights() -> None:
    """The games are played with the hand-set weights (``hand_weights``), not whatever
    ``_weights.py`` holds, and without variety (the random moves vary the games): so the same
    arguments give the same games at any later commit whose search is the same."""
    for ruleset in WEIGHTS:
        WEIGHTS[ruleset] = hand_weights(ruleset)


def generate(args: argparse.Namespace) -> None:
    jobs = [
        (i, args.seed, args.ruleset, args.layout, args.nodes, args.random)
        for i in range(args.games)
    ]
    start = time.perf_counter()
    results = {"white": 0, "black": 0, "draw": 0}
    with (
        ProcessPoolExecutor(max_workers=args.workers) as pool,
        open(args.out, "w", encoding="utf-8") as out,
    ):
        for done, game in enumerate(pool.map(play_one, jobs, chunksize=8), 1):
            out.write(json.dumps(game) + "\n")
            key = {1.0: "white", 0.0: "black"}.get(game["result"], "draw")
            results[key] += 1
            if done % 250 == 0:
                print(f"  {done} games, {time.perf_counter() - start:.0f} s", flush=True)
    print(
        f"{args.games} games of {args.ruleset}/{args.layout} in {time.perf_counter() - start:.0f} s"
        f": White {results['white']}, Black {results['black']}, drawn {results['draw']}"
    )


# ---------------------------------------------------------------------- fit


HOLD_OUT = 10  # every tenth game is kept out of the fit, to check it on unseen games


def positions(path: str) -> tuple[str, list[list[int]], list[float], list[bool]]:
    """The quiet positions of the games in ``path``: the ruleset, their feature counts (White's
    view), White's result, and whether the position's game is held out of the fit."""
    rows: list[list[int]] = []
    results: list[float] = []
    held: list[bool] = []
    rulesets = set()
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            record = json.loads(line)
            rulesets.add(record["ruleset"])
            game = Game.new(ruleset=record["ruleset"], layout=record["layout"])
            for move in record["moves"]:
                if game.ply >= record["opening"] and not game.capture_codes():
                    rows.append(features(game))
                    results.append(record["result"])
                    held.append(number % HOLD_OUT == HOLD_OUT - 1)
                game.play(move)
    if len(rulesets) != 1:
        raise SystemExit(f"{path}: one ruleset per file, found {sorted(rulesets)}")
    return rulesets.pop(), rows, results, held


def fit_ruleset(path: str, steps: int, prior: float) -> tuple[str, tuple[int, ...]]:
    """Fits one ruleset's weights; prints the fit and White's edge found in the data."""
    import numpy as np

    ruleset, rows, results, held = positions(path)
    mask = np.array(held)
    x_all = np.array(rows, dtype=np.float64)
    y_all = np.array(results, dtype=np.float64)
    # Does White stand better than the terms explain? A constant of White's, fitted alongside
    # the weights but not kept (the search needs no constant), answers it.
    x_all = np.hstack([x_all, np.ones((len(x_all), 1))])
    x, y = x_all[~mask], y_all[~mask]
    start = np.array(hand_weights(ruleset), dtype=np.float64)
    w0 = np.append(start, 0.0)

    def loss(w: Any, scale: float, x: Any = x, y: Any = y) -> float:
        p = 1 / (1 + np.exp(-(x @ w) / scale))
        p = np.clip(p, 1e-9, 1 - 1e-9)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    # The scale that suits today's weights: it ties the fitted weights to the same unit.
    scale = min((loss(w0, s), s) for s in range(40, 2001, 10))[1]
    w = w0.copy()
    # Adam on the log loss, with a light pull towards the starting weights so that rare terms
    # (a point a piece seldom reaches) keep a sensible value.
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate = 2.0
    for t in range(1, steps + 1):
        p = 1 / (1 + np.exp(-(x @ w) / scale))
        grad = x.T @ (p - y) / (len(y) * scale)
        grad[:-1] += prior * (w[:-1] - start)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-12)
    held_x, held_y = x_all[mask], y_all[mask]
    before, after = loss(w0, scale, held_x, held_y), loss(w, scale, held_x, held_y)
    weights = tuple(round(float(value)) for value in w[:-1])
    white_edge = w[-1]
    print(
        f"{ruleset}: {len(y):,} quiet positions from {path} ({len(held_y):,} more held out); "
        f"scale {scale}; log loss on the held-out games {before:.4f} -> {after:.4f}; "
        f"White's own edge, beyond the terms: {white_edge:+.0f} "
        f"(P(White wins) at an even value: {1 / (1 + np.exp(-white_edge / scale)):.1%}); "
        f"White's score over the positions: {y_all.mean():.1%}"
    )
    print_weights(weights)
    return ruleset, weights


def hand_weights(ruleset: str) -> tuple[int, ...]:
    """Where the fit starts, and the unit it keeps: the hand-set weights the evaluation had
    before it was fitted (a point per piece, two in the enemy camp, a little more the nearer the
    camp), so that a fit gives the same weights whatever ``_weights.py`` holds now."""
    advance = {4: 0, 3: 10, 2: 22, 1: 40, 0: 0}  # by rows still to go before the enemy camp

    def place(side: int, p: int) -> int:
        to_go = 4 - row_of(p) if side == 0 else row_of(p)
        return 100 + advance[to_go] + (100 if IN_ENEMY_CAMP[side][p] else 0)

    places = [place(side, p) for side in (0, 1) for p in range(POINT_COUNT)]
    runner = 20 if ruleset == "ludos" else 12
    # mobility, attack, defend, redeploy right, runner, reserve piece, tempo
    return (*places, 2, 6, 0, 90, runner, 75, 8)


def print_weights(weights: tuple[int, ...]) -> None:
    for label, base in (("White", PLACE_WHITE), ("Black", PLACE_BLACK)):
        print(f"  a {label} piece on each point (rows 5 to 1):")
        for row in range(4, -1, -1):
            cells = [
                f"{POINT_NAMES[c * 5 + row]} {weights[base + c * 5 + row]:4}" for c in range(5)
            ]
            print("    " + "  ".join(cells))
    terms = weights[WEIGHT_COUNT - len(TERM_NAMES) :]
    print("  " + ", ".join(f"{n} {v}" for n, v in zip(TERM_NAMES, terms, strict=True)))


def write_weights(fitted: dict[str, tuple[int, ...]], command: str) -> None:
    """``bot/ai/_weights.py`` with ``fitted`` replacing those rulesets' weights."""
    table = {**WEIGHTS, **fitted}
    lines = [
        '"""The evaluation\'s weights by ruleset (see ``_eval.py`` for their places): data only,',
        "do not edit by hand. Generated by",
        f'``{command}``."""',
        "",
        "from typing import Final",
        "",
        "# fmt: off",
        "WEIGHTS: Final[dict[str, tuple[int, ...]]] = {",
    ]
    for ruleset, weights in table.items():
        lines.append(f'    "{ruleset}": (')
        for i in range(0, len(weights), 10):
            lines.append("        " + " ".join(f"{w}," for w in weights[i : i + 10]))
        lines.append("    ),")
    lines.append("}")
    lines.append("# fmt: on")
    WEIGHTS_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


def fit(args: argparse.Namespace) -> None:
    fitted = dict(fit_ruleset(path, args.steps, args.prior) for path in args.games)
    if args.dry_run:
        return
    command = "python bench/tune.py fit " + " ".join(Path(p).name for p in args.games)
    write_weights(fitted, command)
    print(f"wrote {WEIGHTS_FILE.relative_to(REPO)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="write self-play games as JSON lines")
    gen.add_argument("--ruleset", default="classic")
    gen.add_argument("--layout", default="traditional")
    gen.add_argument("--games", type=int, default=3000)
    gen.add_argument("--nodes", type=int, default=600, help="search nodes a move")
    gen.add_argument("--random", type=float, default=0.05, help="share of random moves")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--workers", type=int, default=2)
    gen.add_argument("--out", required=True)
    fitting = sub.add_parser("fit", help="fit the weights and write bot/ai/_weights.py")
    fitting.add_argument("games", nargs="+", help="files from generate, one ruleset each")
    fitting.add_argument("--steps", type=int, default=3000)
    fitting.add_argument("--prior", type=float, default=1e-7, help="pull to today's weights")
    fitting.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
