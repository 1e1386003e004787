"""Strength and speed of the computer opponent (``bot.ai``): a ladder of matches plus speed.

Run ``python bench/ai_ladder.py`` for the full ladder (long: run it in the background), or a
quick look with e.g. ``--games 10 --pairing medium-greedy``. Every pairing plays ``--games``
games with sides alternating; game ``2k`` and ``2k+1`` start from the same ``--opening`` random
plies so each opening is played from both sides. Engine players are the real levels; ``hard``
is given ``--hard-nodes`` nodes (or ``--time`` seconds) per move instead of its 2 s, so that
the result does not depend on machine load. The default, 300,000 nodes, is a little less than
what hard searches in its 2 s on the 2-core reference machine (about 180,000 nodes/s, see
``--speed``); ``--hard-nodes 60000`` gives a quick, weaker look. Up to two worker processes.

Targets: medium beats greedy in >= 75% of games, hard beats greedy in >= 95%, hard
scores >= 70% against medium. ``--speed`` prints nodes per second and the depth reached at
``--speed-time`` seconds per move instead.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.ai import LEVELS, analyse
from bot.jarmo import RULESETS, Game
from bot.jarmo.board import POINT_INDEX, row_of

PAIRINGS = (
    "medium-greedy",
    "hard-greedy",
    "hard-medium",
    "easy-greedy",
    "easy-random",
    "medium-easy",
    "hard-hard",
)


@dataclass(frozen=True)
class Settings:
    """Per-move budgets of the engine players and the game set-up."""

    ruleset: str
    layout: str
    opening: int
    hard_nodes: int | None
    time: float | None


# ---------------------------------------------------------------------- simple opponents


def greedy_move(game: Game, rng: random.Random) -> str:
    """Take the most valuable piece if possible, else make the biggest step forward."""
    ahead = 1 if game.turn == "white" else -1
    own_camp_row = 0 if game.turn == "white" else 4

    def value(move: str) -> float:
        step, _, place = move.partition("@")
        if not step:
            return 0.0  # a redeploy / place: no progress
        p, q = POINT_INDEX[step[:2]], POINT_INDEX[step[3:5]]
        if step[2] == "x":
            # A victim standing in our camp (its enemy camp) is worth 2 points, any other 1.
            return 100.0 + (2 if row_of(q) == own_camp_row else 1)
        return (row_of(q) - row_of(p)) * ahead + (0.5 if place else 0.0)

    moves = game.legal_moves()
    rng.shuffle(moves)
    return max(moves, key=value)


def _player_move(name: str, game: Game, seed: int, rng: random.Random, cfg: Settings) -> tuple:
    """(move, nodes, depth) for player ``name``."""
    if name == "random":
        return rng.choice(game.legal_moves()), 0, 0
    if name == "greedy":
        return greedy_move(game, rng), 0, 0
    node_limit = cfg.hard_nodes if name == "hard" and cfg.time is None else None
    time_limit = cfg.time if name == "hard" and cfg.time is not None else None
    if name == "hard" and node_limit is not None:
        time_limit = 60.0  # the node budget decides; the clock is only a safety net
    result = analyse(game, level=name, seed=seed, node_limit=node_limit, time_limit=time_limit)
    return result.move, result.nodes, result.depth


# ---------------------------------------------------------------------- one game


def balanced_opening(cfg: Settings, key: str) -> Game:
    """A game after ``cfg.opening`` random plies that a shallow search finds about level.

    Random openings vary the games, but one that drops a piece decides the game by itself;
    those are redrawn (deterministically from ``key``).
    """
    rng = random.Random(key)
    while True:
        game = Game.new(ruleset=cfg.ruleset, layout=cfg.layout)
        for _ in range(cfg.opening):
            if not game.over:
                game.play(rng.choice(game.legal_moves()))
        if cfg.opening == 0:
            return game
        if not game.over and abs(analyse(game, level="medium", node_limit=5_000).score) <= 60:
            return game


def play_game(pairing: str, index: int, cfg: Settings) -> dict:
    """Game ``index`` of ``pairing``: player A is White in even games."""
    a, b = pairing.split("-")
    white, black = (a, b) if index % 2 == 0 else (b, a)
    game = balanced_opening(cfg, f"{pairing}/{index // 2}")  # the same for both colours
    rng = random.Random(f"{pairing}/{index}/play")
    nodes: list[int] = []
    depths: list[int] = []
    start = time.perf_counter()
    while not game.over:
        name = white if game.turn == "white" else black
        move, n, d = _player_move(name, game, index * 1000 + game.ply, rng, cfg)
        if name == a and name in LEVELS:
            nodes.append(n)
            depths.append(d)
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    a_side = "white" if white == a else "black"
    b_side = "black" if a_side == "white" else "white"
    result = 0.5 if outcome.winner is None else 1.0 if outcome.winner == a_side else 0.0
    return {
        "pairing": pairing,
        "a_white": a_side == "white",
        "result": result,
        "a_points": outcome.points[a_side],
        "b_points": outcome.points[b_side],
        "white_result": 0.5 if outcome.winner is None else float(outcome.winner == "white"),
        "plies": game.ply,
        "nodes": nodes,
        "depths": depths,
        "seconds": time.perf_counter() - start,
        "termination": outcome.termination.value,
    }


def _play(args: tuple[str, int, Settings]) -> dict:
    return play_game(*args)


# ---------------------------------------------------------------------- reports


def summarise(pairing: str, games: list[dict]) -> str:
    """One table row: A's wins/draws/losses, score share, points share, speed figures."""
    wins = sum(g["result"] == 1.0 for g in games)
    draws = sum(g["result"] == 0.5 for g in games)
    losses = len(games) - wins - draws
    share = sum(g["result"] for g in games) / len(games)
    a_pts = sum(g["a_points"] for g in games)
    b_pts = sum(g["b_points"] for g in games)
    white = sum(g["white_result"] for g in games) / len(games)
    depths = [d for g in games for d in g["depths"]]
    nodes = [n for g in games for n in g["nodes"]]
    depth = f"{statistics.mean(depths):5.1f}" if depths else "    -"
    node = f"{statistics.mean(nodes):8.0f}" if nodes else "       -"
    plies = statistics.mean(g["plies"] for g in games)
    return (
        f"{pairing:14} {len(games):4} {wins:4} {draws:4} {losses:4}  {share:6.1%}  "
        f"{a_pts:5}:{b_pts:<5} {a_pts / max(1, a_pts + b_pts):6.1%}  {white:6.1%}  "
        f"{plies:5.1f} {depth} {node}"
    )


def by_colour(pairing: str, games: list[dict]) -> str:
    """A's score and points share with each colour."""
    parts = []
    for a_white, colour in ((True, "White"), (False, "Black")):
        mine = [g for g in games if g["a_white"] == a_white]
        if not mine:
            continue
        score = sum(g["result"] for g in mine) / len(mine)
        a_pts = sum(g["a_points"] for g in mine)
        b_pts = sum(g["b_points"] for g in mine)
        parts.append(
            f"as {colour}: score {score:6.1%}, points {a_pts}:{b_pts} "
            f"({a_pts / max(1, a_pts + b_pts):.1%})"
        )
    return f"  {pairing:14} A " + "; ".join(parts)


HEADER = (
    f"{'pairing (A-B)':14} {'n':>4} {'W':>4} {'D':>4} {'L':>4}  {'A score':>7} "
    f"{'points A:B':>11} {'A pts':>6}  {'White':>6}  {'plies':>5} {'depth':>5} {'nodes':>8}"
)


def run_ladder(pairings: list[str], games: int, cfg: Settings, workers: int) -> None:
    """Play every pairing and print the summary table."""
    jobs = [(p, i, cfg) for p in pairings for i in range(games)]
    results: dict[str, list[dict]] = {p: [] for p in pairings}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for done in pool.map(_play, jobs, chunksize=1):
            results[done["pairing"]].append(done)
            if len(results[done["pairing"]]) == games:
                print(
                    f"  {done['pairing']} done after {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    print(
        f"\nruleset {cfg.ruleset}, layout {cfg.layout}, opening {cfg.opening} random plies, "
        f"hard: {_hard_budget(cfg)}"
    )
    print(HEADER)
    for pairing in pairings:
        print(summarise(pairing, results[pairing]))
    for pairing in pairings:
        print(by_colour(pairing, results[pairing]))
    print(
        "A score = (W + D/2) / n; A pts = A's share of the game points (rules §5) summed; "
        "White = White's score share; depth/nodes = A's average per move"
    )


def _hard_budget(cfg: Settings) -> str:
    if cfg.time is not None:
        return f"{cfg.time} s per move"
    return f"{cfg.hard_nodes:,} nodes per move"


def run_speed(seconds: float, positions: int, layout: str) -> None:
    """Nodes per second and depth reached with ``seconds`` per move on mid-game positions."""
    print(f"hard, {seconds} s per move, {positions} positions per ruleset, layout {layout}")
    for ruleset in RULESETS:
        rng = random.Random(ruleset)
        rates, depths = [], []
        for _ in range(positions):
            game = Game.new(ruleset=ruleset, layout=layout)
            for _ in range(rng.randrange(0, 16)):
                if game.over:
                    break
                game.play(rng.choice(game.legal_moves()))
            if game.over:
                continue
            start = time.perf_counter()
            result = analyse(game, level="hard", time_limit=seconds)
            rates.append(result.nodes / (time.perf_counter() - start))
            depths.append(result.depth)
        print(
            f"{ruleset:8} {statistics.mean(rates):9,.0f} nodes/s   depth mean "
            f"{statistics.mean(depths):4.1f} (min {min(depths)}, max {max(depths)})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument(
        "--pairing",
        action="append",
        choices=PAIRINGS,
        help="pairing to play (repeatable; default: all)",
    )
    parser.add_argument(
        "--ruleset", default="classic", help="classic, jasir, ludos, or 'all' to run each in turn"
    )
    parser.add_argument("--layout", default="traditional")
    parser.add_argument("--opening", type=int, default=2, help="random plies before play")
    parser.add_argument("--hard-nodes", type=int, default=300_000, help="hard's nodes per move")
    parser.add_argument("--time", type=float, help="hard's seconds per move (replaces nodes)")
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2))
    parser.add_argument("--speed", action="store_true", help="measure speed instead")
    parser.add_argument("--speed-time", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=10)
    args = parser.parse_args()
    if args.speed:
        run_speed(args.speed_time, args.positions, args.layout)
        return
    rulesets = list(RULESETS) if args.ruleset == "all" else [args.ruleset]
    for ruleset in rulesets:
        cfg = Settings(ruleset, args.layout, args.opening, args.hard_nodes, args.time)
        run_ladder(args.pairing or list(PAIRINGS), args.games, cfg, args.workers)


if __name__ == "__main__":
    main()
