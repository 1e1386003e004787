"""Board PNGs and replay GIFs: today's renderer against a baseline commit, in one run.

The baseline's ``bot/`` is exported with ``git archive`` into a temporary directory. Each
version renders in its own child process; they take turns in small batches on the same seeded
games, so that load from elsewhere on the machine hits both alike: read the ratios more than
the absolute figures. Prints the median time of all renders of each side, and the sizes.

Run: ``python bench/render.py [--runs R] [--repeat N] [--replays M] [--baseline COMMIT]
[--only png|gif]``.
Targets: a board PNG in at most 3 ms; a 60-move replay GIF in at most 0.15 s and
300 KB. Issue 3's limits still hold: 8 ms and 100 KB, 0.5 s and 1 MB. Only reports.
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
from collections.abc import Callable
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BASELINE = "8ae14a6"  # main before the published board
MIXED = ("李小龙 the 🐉 dragon", "مرحبا بالعالم 🇫🇷")  # CJK, emoji, Arabic, a flag sequence
CASES = (
    # (label, what, ruleset, plies, perspective, names)
    ("PNG classic ply 24, white", "png", "classic", 24, "white", None),
    ("PNG classic ply 24, black", "png", "classic", 24, "black", None),
    ("PNG ludos ply 24, white", "png", "ludos", 24, "white", None),
    ("PNG classic ply 24, CJK/Arabic/emoji names", "png", "classic", 24, "white", MIXED),
    ("GIF classic replay, 60 plies (61 frames)", "gif", "classic", 60, "white", None),
    ("GIF ludos replay, 60 plies (61 frames)", "gif", "ludos", 60, "white", None),
)


def played(ruleset: str, plies: int, seed: int = 0):  # -> bot.jarmo.Game of either version
    """A game of seeded random legal moves that lasts exactly ``plies`` plies."""
    from bot.jarmo import Game

    for attempt in range(10_000):
        rng = random.Random(seed * 100_003 + attempt)
        game = Game.new(ruleset=ruleset)
        while not game.over and game.ply < plies:
            game.play(rng.choice(game.legal_moves()))
        if game.ply == plies:
            return game
    raise RuntimeError(f"no random {ruleset} game reached {plies} plies")


def timed(call: Callable[[], bytes], repeat: int) -> tuple[list[float], int]:
    """Seconds of each of ``repeat`` calls, and the size of the result."""
    result = b""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return times, len(result)


def serve(root: str) -> None:
    """Child process: import the renderer under ``root``, then answer each request line
    ``case repeat`` with that many renders' times (JSON), until stdin closes."""
    sys.path.insert(0, root)
    import bot.render
    from bot.render import render_board, render_replay

    assert Path(bot.render.__file__).is_relative_to(root), "measured the wrong renderer"
    calls: dict[int, Callable[[], bytes]] = {}
    for line in sys.stdin:
        case, repeat = (int(part) for part in line.split())
        if case not in calls:
            _, what, ruleset, plies, perspective, names = CASES[case]
            game, players = played(ruleset, plies), names or ("White", "Black")
            if what == "png":
                calls[case] = partial(render_board, game, perspective=perspective, players=players)
            else:
                calls[case] = partial(render_replay, game, players=players)
            calls[case]()  # warm the caches: backgrounds, sprites, the palette
        times, size = timed(calls[case], repeat)
        print(json.dumps({"times": times, "size": size}), flush=True)


class Renderer:
    """A child process serving one version's renderer."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=root,
        )

    def measure(self, case: int, repeat: int) -> tuple[list[float], int]:
        """The times of ``repeat`` renders of ``case``, and the image's size."""
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{case} {repeat}\n")
        self.process.stdin.flush()
        found = json.loads(self.process.stdout.readline())
        return found["times"], found["size"]

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


def export_baseline(commit: str, into: Path) -> Path:
    """``bot/`` of ``commit`` (the renderer, its fonts and what it imports), under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, "bot"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def stages(repeat: int) -> None:
    """Where the time of one new PNG goes, and what each zlib level would cost and save."""
    sys.path.insert(0, str(REPO))
    from bot.render import ENGLISH_WORDS
    from bot.render._encode import PNG_COMPRESS_LEVEL
    from bot.render._indexed import indexed_frame

    position = played("classic", 24).position()
    players = ("White", "Black")

    def draw():
        return indexed_frame(position, "white", players, None, ENGLISH_WORDS)

    paletted = draw()  # and the caches are warm
    seconds = statistics.median(timed(lambda: draw().tobytes(), repeat)[0])
    print(f"{'  new: draw on the palette (cached parts)':46} {seconds * 1e3:8.2f}ms")
    for level in range(1, 5):

        def encode(level: int = level) -> bytes:
            buffer = io.BytesIO()
            paletted.save(buffer, "PNG", compress_level=level, optimize=False)
            return buffer.getvalue()

        times, size = timed(encode, repeat)
        seconds = statistics.median(times)
        chosen = "  (used)" if level == PNG_COMPRESS_LEVEL else ""
        print(
            f"{'  new: PNG encode, compress_level ' + str(level):46} {seconds * 1e3:8.2f}ms"
            f" {size / 1024:8.1f}KB{chosen}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="batches per side and case")
    parser.add_argument("--repeat", type=int, default=300, help="PNG renders per side and case")
    parser.add_argument("--replays", type=int, default=20, help="GIF renders per side and case")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare with")
    parser.add_argument("--only", choices=("png", "gif"), help="measure only these images")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_root = export_baseline(args.baseline, Path(tmp))
        sides = {"old": Renderer(old_root), "new": Renderer(REPO)}
        print(f"old = {args.baseline}, new = working tree; median of {args.runs} x N renders")
        print(f"{'what':46} {'old':>9} {'new':>9} {'ratio':>6} {'old size':>9} {'new size':>9}")
        for case, (label, what, *_) in enumerate(CASES):
            if args.only and what != args.only:
                continue
            batch = max(1, (args.repeat if what == "png" else args.replays) // args.runs)
            times: dict[str, list[float]] = {"old": [], "new": []}
            sizes = {}
            for _ in range(args.runs):  # small batches in turn, so load hits both alike
                for side, renderer in sides.items():
                    found, sizes[side] = renderer.measure(case, batch)
                    times[side] += found
            old, new = (statistics.median(times[side]) for side in ("old", "new"))
            print(
                f"{label:46} {old * 1e3:7.2f}ms {new * 1e3:7.2f}ms "
                f"{old / new:5.2f}x {sizes['old'] / 1024:7.1f}KB {sizes['new'] / 1024:7.1f}KB",
                flush=True,
            )
        for renderer in sides.values():
            renderer.close()
    stages(args.repeat)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
    else:
        main()
