"""What the bundled fonts cost and what they draw: each font file's size as shipped and as a
wheel compresses it, then one board per script's sample name (PNG size and the median time of
several cold renders), and optionally a sheet of those names' bars to look at.

Run: ``python bench/fonts.py [--runs N] [--sheet names.png]``. Only reports. Whether the
complex scripts were shaped (Pillow with libraqm and FriBiDi) is printed first: the pictures
differ where it was not.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
import zipfile
from pathlib import Path

from PIL import Image

from bot.jarmo import Game
from bot.render import _fonts, render_position
from bot.render._theme import BAR_H, BOARD_H, BOARD_TOP, WIDTH

FONTS = Path(_fonts.__file__).parent / "fonts"
SAMPLES = {
    "Latin": "Ann",
    "Thai": "ดาว สมชาย",
    "Devanagari": "प्रिया शर्मा",
    "Bengali": "অনন্যা",
    "Tamil": "தமிழ் கொடி",
    "Hebrew": "שָׁלוֹם",
    "Georgian": "ნინო ᲜᲘᲜᲝ",
    "Armenian": "Արամ",
    "Ethiopic": "አበበ ቢቂላ",
    "Khmer": "សុខា ពេជ្រ",
    "Hangul": "김민준 똠",
    "no font (runes)": "ᚠᚢᚦ Rune",
}
NEAR_BAR = (0, BOARD_TOP + BOARD_H, WIDTH, BOARD_TOP + BOARD_H + BAR_H)


def deflated(path: Path) -> int:
    """Bytes ``path`` takes in a zip (a wheel) with the usual deflate."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(path, path.name)
    return len(buffer.getvalue())


def cold_render_ms(name: str, runs: int) -> float:
    """Median milliseconds of a board with ``name``, the text caches emptied before each."""
    position = Game.new().position()
    times = []
    for _ in range(runs):
        for cached in (_fonts._text_layers, _fonts.length, _fonts._runs, _fonts.clean):
            cached.cache_clear()
        start = time.perf_counter()
        render_position(position, players=(name, "Bob"))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sheet", type=Path, help="write the sample names' bars to this PNG")
    options = parser.parse_args()
    print(f"complex scripts shaped (libraqm): {_fonts.SHAPING}")
    files = sorted(p for p in FONTS.iterdir() if p.suffix in (".ttf", ".otf"))
    for path in files:
        raw, zipped = path.stat().st_size / 1024, deflated(path) / 1024
        print(f"{path.name:40} {raw:7.0f} KiB {zipped:7.0f} KiB zipped")
    total = sum(deflated(p) for p in FONTS.iterdir())
    print(f"{'all of bot/render/fonts':40} {'':11} {total / 1024:7.0f} KiB zipped")
    position = Game.new().position()
    bars = []
    for script, name in SAMPLES.items():
        png = render_position(position, players=(name, "Bob"))
        shown = _fonts.clean(name)
        print(
            f"{script:16} {shown!r:24} {len(png):6} bytes, "
            f"median {cold_render_ms(name, options.runs):5.1f} ms cold"
        )
        bars.append(Image.open(io.BytesIO(png)).convert("RGB").crop(NEAR_BAR))
    if options.sheet:
        sheet = Image.new("RGB", (WIDTH, BAR_H * len(bars)))
        for index, bar in enumerate(bars):
            sheet.paste(bar, (0, index * BAR_H))
        sheet.save(options.sheet)
        print(f"wrote {options.sheet}")


if __name__ == "__main__":
    main()
