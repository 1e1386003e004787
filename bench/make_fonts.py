"""Build the fallback fonts in ``bot/render/fonts/`` from Debian's Noto packages.

Player names come in every script and with emoji; DejaVu Sans (bundled whole) covers Latin,
Greek, Cyrillic, Hebrew, Georgian, Armenian and Arabic. This script makes the fallbacks small
enough to ship:

* ``NotoSansCJKsc-Bold.subset.otf``: Noto Sans CJK SC Bold cut to the ideographs of GB 2312
  level 1 (the 3,755 most used simplified Chinese ones) and JIS X 0208 level 1 (the 2,965 most
  used Japanese kanji), both kana, all 11,172 hangul syllables, CJK punctuation and full-width
  forms. Names are drawn bold, so one weight serves.
* ``NotoSans<Script>-Bold.subset.ttf``, one per script DejaVu lacks (Thai, Devanagari, Bengali,
  Tamil, Ethiopic, Khmer): the script's own blocks of Noto Sans <Script> Bold, with their
  OpenType layout tables, which the renderer uses to shape these scripts where Pillow has
  libraqm. ``NotoSansGeorgian``, ``NotoSansArmenian`` and ``NotoSansHebrew`` hold only what
  DejaVu lacks in those scripts (Georgian capitals, a few signs), so a name keeps one style.
* ``NotoColorEmoji.subset.ttf``: Noto Color Emoji with every single emoji, every flag, the
  keycaps and the ZWJ sequences without skin tones; its bitmaps scaled from 109 to 32 pixels
  and cut to 64 colours (the board images are 64-colour anyway). Pillow draws text without
  OpenType shaping, so a sequence cannot reach its glyph through the font's ligatures: each
  one is mapped to a private-use code point instead, listed in
  ``NotoColorEmoji.sequences.txt`` (line ``i`` is U+F0000 + ``i``), and the renderer swaps a
  name's sequences for those code points before drawing.

Run with ``.venv/bin/python bench/make_fonts.py`` after
``apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji`` and
``pip install fonttools``.
The output is deterministic for the same package versions; the tests need only its results.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bot" / "render" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
CJK_FACE = 2  # the collection's fonts: JP, KR, SC, TC, HK, then the monospaced ones
EMOJI_SOURCE = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
EMOJI_PPEM = 32  # enough for names drawn at 22 px and chart titles at 28 px
EMOJI_COLOURS = 64
DEJAVU = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
SEQUENCE_BASE = 0xF0000  # supplementary private use area A: never in a name we draw
ZWJ, VS16, KEYCAP = 0x200D, 0xFE0F, 0x20E3
SKIN_TONES = range(0x1F3FB, 0x1F400)
REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
TAGS = range(0xE0020, 0xE0080)


def double_byte(codec: str, rows: range, cells: Iterable[int] = range(0xA1, 0xFF)) -> set[int]:
    """Code points of the characters ``codec`` encodes as two bytes in these rows and cells."""
    found = set()
    cells = list(cells)
    for row in rows:
        for cell in cells:
            try:
                found.add(ord(bytes((row, cell)).decode(codec)))
            except UnicodeDecodeError:
                continue
    return found


def cjk_characters() -> set[int]:
    """The most used ideographs of Chinese and Japanese, kana, common hangul, punctuation."""
    chosen = double_byte("gb2312", range(0xB0, 0xD8))  # GB 2312 level 1
    chosen |= double_byte("euc_jp", range(0xB0, 0xD0))  # JIS X 0208 level 1
    chosen |= set(range(0xAC00, 0xD7A4))  # every modern hangul syllable
    for low, high in ((0x3000, 0x3100), (0x3130, 0x3190), (0x31F0, 0x3200), (0xFF01, 0xFFA0)):
        chosen |= set(range(low, high))  # punctuation, kana, jamo, full- and half-width forms
    return chosen


# The scripts' Unicode blocks (their extensions included); a name's characters in them are
# drawn by the script's font, or by DejaVu where DejaVu already has them (``gaps_only``).
SCRIPTS: dict[str, tuple[tuple[tuple[int, int], ...], bool]] = {
    "Thai": (((0x0E00, 0x0E7F),), False),
    "Devanagari": (((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF)), False),
    "Bengali": (((0x0980, 0x09FF),), False),
    "Tamil": (((0x0B80, 0x0BFF), (0x11FC0, 0x11FFF)), False),
    "Ethiopic": (((0x1200, 0x139F), (0x2D80, 0x2DDF), (0xAB00, 0xAB2F), (0x1E7E0, 0x1E7FF)), False),
    "Khmer": (((0x1780, 0x17FF), (0x19E0, 0x19FF)), False),
    "Georgian": (((0x10A0, 0x10FF), (0x1C90, 0x1CBF), (0x2D00, 0x2D2F)), True),
    "Armenian": (((0x0530, 0x058F), (0xFB13, 0xFB17)), True),
    "Hebrew": (((0x0590, 0x05FF), (0xFB1D, 0xFB4F)), True),
}
DOTTED_CIRCLE = 0x25CC  # what a shaper shows a mark without a base on


def options(**extra: object) -> subset.Options:
    """Subsetting for a renderer without hinting or OpenType layout: keep only the glyphs."""
    chosen = subset.Options()
    chosen.hinting = False
    chosen.layout_features = []
    chosen.notdef_outline = True  # a missing glyph must differ from an empty one
    chosen.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13]  # copyright, names, version, licence
    for key, value in extra.items():
        setattr(chosen, key, value)
    return chosen


def build_cjk() -> Path:
    """Write the CJK subset and return its path."""
    font = TTCollection(str(CJK_SOURCE)).fonts[CJK_FACE]
    subsetter = subset.Subsetter(options())
    subsetter.populate(unicodes=cjk_characters())
    subsetter.subset(font)
    path = OUT / "NotoSansCJKsc-Bold.subset.otf"
    font.recalcTimestamp = False  # keep the source's date: the same input, the same bytes
    font.save(str(path))
    return path


def dejavu_characters() -> set[int]:
    """What both bundled DejaVu weights draw (the renderer's first font)."""
    regular, bold = (TTFont(str(OUT / name)).getBestCmap() for name in DEJAVU)
    return set(regular) & set(bold)


def build_script(script: str) -> Path:
    """Write the subset of Noto Sans ``script`` Bold and return its path. Its layout tables
    stay (a shaper needs them for the Brahmic scripts and Khmer); hinting goes."""
    blocks, gaps_only = SCRIPTS[script]
    font = TTFont(str(NOTO / f"NotoSans{script}-Bold.ttf"))
    chosen = {c for c in font.getBestCmap() if any(low <= c <= high for low, high in blocks)}
    if gaps_only:
        chosen -= dejavu_characters()
    subsetter = subset.Subsetter(options(layout_features=["*"]))
    subsetter.populate(unicodes=chosen | {DOTTED_CIRCLE})
    subsetter.subset(font)
    path = OUT / f"NotoSans{script}-Bold.subset.ttf"
    font.recalcTimestamp = False
    font.save(str(path))
    return path


def ligature_sequences(font: TTFont) -> dict[tuple[int, ...], str]:
    """Every code point sequence the font's ligatures join, without VS16, to its glyph."""
    by_glyph = {glyph: code for code, glyph in font.getBestCmap().items()}
    found = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            for first, ligatures in getattr(table, "ligatures", {}).items():
                for ligature in ligatures:
                    glyphs = [first, *ligature.Component]
                    if all(g in by_glyph for g in glyphs):
                        found[tuple(by_glyph[g] for g in glyphs)] = ligature.LigGlyph
    return found


def wanted_sequence(sequence: tuple[int, ...]) -> bool:
    """Flags, keycaps and ZWJ sequences; skin tones are left out (the renderer drops them)."""
    if any(code in SKIN_TONES for code in sequence):
        return False
    if sequence[0] in REGIONAL_INDICATORS or KEYCAP in sequence:
        return True
    if sequence[0] == 0x1F3F4 and sequence[1] in TAGS:  # England, Scotland, Wales only
        return "".join(chr(c - 0xE0000) for c in sequence[1:-1]) in ("gbeng", "gbsct", "gbwls")
    return ZWJ in sequence  # the font also joins some written backwards: harmless, same glyph


def wanted_single(code: int) -> bool:
    """Single emoji; not ASCII (digits and # are keycap bases), joiners, tags or lone flags."""
    return (
        code > 0x7F
        and code not in (ZWJ, VS16, KEYCAP)
        and not (code in TAGS or code in REGIONAL_INDICATORS)
    )


def build_emoji() -> tuple[Path, Path]:
    """Write the emoji subset and its sequence list; return both paths."""
    font = TTFont(str(EMOJI_SOURCE))
    singles = {code for code in font.getBestCmap() if wanted_single(code)}
    glyphs = ligature_sequences(font)
    sequences = sorted(s for s in glyphs if wanted_sequence(s))
    cmap = next(t for t in font["cmap"].tables if t.format == 12)
    for i, sequence in enumerate(sequences):
        cmap.cmap[SEQUENCE_BASE + i] = glyphs[sequence]
    subsetter = subset.Subsetter(options())
    subsetter.populate(unicodes=singles | {SEQUENCE_BASE + i for i in range(len(sequences))})
    subsetter.subset(font)
    shrink_bitmaps(font, EMOJI_PPEM)
    path = OUT / "NotoColorEmoji.subset.ttf"
    font.recalcTimestamp = False
    font.save(str(path))
    listing = OUT / "NotoColorEmoji.sequences.txt"
    listing.write_text("".join(" ".join(f"{c:X}" for c in s) + "\n" for s in sequences))
    return path, listing


def shrink_bitmaps(font: TTFont, ppem: int) -> None:
    """Scale the font's one colour strike to ``ppem`` pixels and fewer colours, in place."""
    strike = font["CBLC"].strikes[0]
    size = strike.bitmapSizeTable
    scale = ppem / size.ppemX
    for glyph in font["CBDT"].strikeData[0].values():
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        width, height = max(1, round(image.width * scale)), max(1, round(image.height * scale))
        image = image.resize((width, height), Image.Resampling.LANCZOS)
        image = image.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        glyph.imageData = buffer.getvalue()
        metrics = glyph.metrics
        metrics.width, metrics.height = width, height
        metrics.BearingX = round(metrics.BearingX * scale)
        metrics.BearingY = round(metrics.BearingY * scale)
        metrics.Advance = round(metrics.Advance * scale)
    size.ppemX = size.ppemY = ppem
    for lines in (size.hori, size.vert):
        for name in ("ascender", "descender", "widthMax"):
            setattr(lines, name, round(getattr(lines, name) * scale))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    scripts = [build_script(script) for script in SCRIPTS]
    for path in (build_cjk(), *build_emoji(), *scripts):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
