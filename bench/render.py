"""Benchmark of the board renderer: median times and sizes over many renders.

Run with ``.venv/bin/python bench/render.py``. The limits it checks against are the ones in
issue 3: a mid-game PNG in at most 8 ms and 100 KB, a 60-ply replay GIF in at most 0.5 s and
1 MB. It only reports; nothing here fails a build.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.jarmo import Game
from bot.render import render_board, render_replay
from bot.render._compose import compose
from bot.render._encode import PNG_COMPRESS_LEVEL, quantize
from bot.render._theme import theme_for


def played(ruleset: str, plies: int, seed: int = 0) -> Game:
    """A game of uniformly random legal moves that lasts exactly ``plies`` plies (or more)."""
    for attempt in range(10_000):
        rng = random.Random(seed * 100_003 + attempt)
        game = Game.new(ruleset=ruleset)
        while not game.over and game.ply < plies:
            game.play(rng.choice(game.legal_moves()))
        if game.ply == plies:
            return game
    raise RuntimeError(f"no random {ruleset} game reached {plies} plies")


def timed(call, repeat: int) -> tuple[float, int]:
    """Median seconds over ``repeat`` calls, and the size of the last result if it is bytes."""
    call()  # warm the caches: the first call builds backgrounds, sprites and the palette
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(result) if isinstance(result, bytes) else 0


def stages(game: Game, repeat: int) -> None:
    """Where the time of one PNG goes, and what each zlib level would cost and save."""
    position, theme = game.position(), theme_for(game.ruleset)
    image = compose(position, "white", ("White", "Black"))
    paletted = quantize(image, theme)
    seconds = timed(lambda: compose(position, "white", ("White", "Black")), repeat)[0]
    print(f"{'  stage: compose (background copy, sprites, text)':44} {seconds * 1e3:8.2f}ms")
    seconds = timed(lambda: quantize(image, theme), repeat)[0]
    print(f"{'  stage: quantise to the fixed palette':44} {seconds * 1e3:8.2f}ms")
    for level in range(1, 7):
        def encode(level: int = level) -> bytes:
            buffer = io.BytesIO()
            paletted.save(buffer, "PNG", compress_level=level, optimize=False)
            return buffer.getvalue()
        seconds, size = timed(encode, repeat)
        chosen = "  (used)" if level == PNG_COMPRESS_LEVEL else ""
        print(f"{'  stage: PNG encode, compress_level ' + str(level):44} {seconds * 1e3:8.2f}ms"
              f" {size / 1024:8.1f}KB{chosen}")


MIXED = ("李小龙 the 🐉 dragon", "مرحبا بالعالم 🇫🇷")  # CJK, emoji, Arabic, a flag sequence


def names(game: Game, repeat: int) -> None:
    """Names in other scripts and with emoji: drawn before (cached), and seen for the first time."""
    seconds, size = timed(lambda: render_board(game, players=MIXED), repeat)
    print(f"{'PNG classic ply 24, CJK/Arabic/emoji names':44} {seconds * 1000:8.2f}ms"
          f" {size / 1024:8.1f}KB")
    fresh = iter(range(10**9))
    seconds, _ = timed(
        lambda: render_board(game, players=tuple(f"{n} {next(fresh)}" for n in MIXED)), repeat
    )
    print(f"{'  the same with names never seen before':44} {seconds * 1000:8.2f}ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300, help="renders per PNG measurement")
    parser.add_argument("--replays", type=int, default=15, help="renders per GIF measurement")
    args = parser.parse_args()

    print(f"{'what':44} {'median':>10} {'size':>10}  limit")
    for ruleset in ("classic", "ludos"):
        game = played(ruleset, 24)
        for perspective in ("white", "black"):
            seconds, size = timed(lambda g=game, p=perspective: render_board(g, perspective=p),
                                  args.repeat)
            print(f"{'PNG ' + ruleset + ' ply 24, ' + perspective:44} {seconds * 1000:8.2f}ms"
                  f" {size / 1024:8.1f}KB  8 ms, 100 KB")
    stages(played("classic", 24), args.repeat)
    names(played("classic", 24), args.repeat)
    for ruleset in ("classic", "ludos"):
        game = played(ruleset, 60)
        seconds, size = timed(lambda g=game: render_replay(g), args.replays)
        print(f"{'GIF ' + ruleset + ' replay, 60 plies (61 frames)':44} {seconds * 1000:8.1f}ms"
              f" {size / 1024:8.1f}KB  500 ms, 1 MB")


if __name__ == "__main__":
    main()
