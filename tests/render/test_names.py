"""Player names in any script, with emoji: every character drawn by a font that has it."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render import _arabic, _bidi, _emoji, _fonts, _indic, render_position
from bot.render._theme import BAR_H, BOARD_H, BOARD_TOP, WIDTH
from tests.render.render_helpers import position, rgb

NAMES = {
    "Cyrillic": "Дмитрий Ёлкин",
    "Chinese": "李小龙",
    "Japanese": "さくら カタカナ 東京",
    "Korean": "김민준",
    "Arabic": "مرحبا بالعالم",
    "Hebrew": "שלום עולם",
    "Greek": "Ἀλέξανδρος",
    "Thai": "ดาว สมชาย น้ำใจ",
    "Devanagari": "प्रिया शर्मा",
    "Bengali": "অনন্যা কোন",
    "Tamil": "தமிழ் கொடி",
    "Hebrew with points": "שָׁלוֹם",
    "Georgian": "ნინო ᲜᲘᲜᲝ",
    "Armenian": "Արամ Խաչատրյան",
    "Ethiopic": "አበበ ቢቂላ",
    "Khmer": "សុខា ពេជ្រ ស្រី",
    "Korean, rare syllables": "똠똡 쌰",
    "emoji": "🐉 ❤️ ⭐",
    "flag and sequences": "🇫🇷 🏳️‍🌈 👨‍👩‍👧‍👦 1️⃣",
}
NEAR_BAR = (0, BOARD_TOP + BOARD_H, WIDTH, BOARD_TOP + BOARD_H + BAR_H)  # white's, from white


def name_bar(name: str) -> Image.Image:
    """White's bar with ``name`` as White's name."""
    return rgb(render_position(position(), players=(name, "Bob"))).crop(NEAR_BAR)


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_every_character_of_a_name_is_drawn_by_a_font_that_has_it(name: str) -> None:
    shown = _fonts.clean(name)
    assert _fonts.ELLIPSIS not in shown  # nothing was dropped
    for slot, run in _fonts._runs(shown):
        for char in run:
            assert char == " " or _fonts.covers(slot, char), (slot, char, hex(ord(char)))


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_no_character_of_a_name_is_drawn_as_a_question_mark(name: str) -> None:
    drawn = name_bar(name).tobytes()
    for i, char in enumerate(name):
        if unicodedata.category(char) in ("Zs", "Cf", "Mn", "Me"):
            continue  # spaces, joiners and style selectors have no glyph of their own
        assert drawn != name_bar(name[:i] + "?" + name[i + 1 :]).tobytes(), char


def test_emoji_keep_their_colours() -> None:
    bar = name_bar("🐉")  # a green dragon on a dark grey bar
    pixels = [p for p in bar.get_flattened_data() if isinstance(p, tuple)]  # RGB: all of them
    greens = [p for p in pixels if p[1] > p[0] + 50 and p[1] > p[2] + 50]
    assert len(greens) > 20


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("ᚠᚢᚦ Rune", "… Rune"),  # runes: in no bundled font
        ("Ann ᚠᚢᚦ Bob", "Ann … Bob"),
        ("ᚠᚢᚦ", ""),  # nothing left to show: the bar shows the side's name instead
        ("བོད་", ""),  # Tibetan: in no bundled font either
        ("👍🏽 ok", "👍 ok"),  # skin tones are left out of the bundled emoji font
        ("\U000f0000Ann\ue000", "Ann"),  # private-use characters could fake an emoji stand-in
    ],
)
def test_what_no_font_has_is_dropped_and_marked(name: str, shown: str) -> None:
    assert _fonts.clean(name) == shown


def test_a_name_of_nothing_drawable_shows_the_side_name() -> None:
    assert name_bar("ᚠᚢᚦ").tobytes() == name_bar("").tobytes()


@pytest.mark.parametrize("sequence", ["👨‍👩‍👧‍👦", "🇫🇷", "🏳️‍🌈", "1️⃣", "👩🏽‍💻"])
def test_an_emoji_sequence_is_one_glyph(sequence: str) -> None:
    stand_in = _fonts.clean(sequence)
    assert len(stand_in) == 1, stand_in
    assert _emoji.is_stand_in(stand_in) and _fonts.covers("emoji", stand_in)


def test_a_text_symbol_becomes_an_emoji_when_asked() -> None:
    assert _fonts._runs(_fonts.clean("❤️")) == (("emoji", "❤"),)
    assert _fonts._runs(_fonts.clean("❤")) == (("text", "❤"),)  # DejaVu's plain heart
    assert _fonts._runs(_fonts.clean("⭐")) == (("emoji", "⭐"),)  # an emoji by default


@pytest.mark.parametrize(
    ("logical", "joined"),
    [
        ("بيت", "\ufe91\ufef4\ufe96"),  # beh initial, yeh medial, teh final
        ("دار", "\ufea9\ufe8d\ufead"),  # dal and alef never join forwards: all stand alone
        ("لا", "\ufefb"),  # lam-alef is one ligature
        ("سلام", "\ufeb3\ufefc\ufee1"),  # seen initial, lam-alef final, meem isolated
        ("Ann", "Ann"),
    ],
)
def test_arabic_letters_take_their_joined_forms(logical: str, joined: str) -> None:
    assert _arabic.shape(logical, lambda c: True) == joined


def test_a_form_the_font_lacks_keeps_the_plain_letter() -> None:
    assert _arabic.shape("بيت", lambda c: c == "\ufe91") == "\ufe91يت"


@pytest.mark.parametrize(
    ("logical", "shown"),
    [
        ("abc", "abc"),
        ("שלום", "םולש"),
        ("שלום 123", "123 םולש"),  # digits read left to right inside right-to-left text
        ("Ann שלום עולם!", "Ann םלוע םולש!"),
        ("שלום Ann 2", "Ann 2 םולש"),  # a number after a Latin word goes with it
        ("(שלום)", "(םולש)"),  # brackets are mirrored
    ],
)
def test_right_to_left_text_is_put_in_display_order(logical: str, shown: str) -> None:
    order = _bidi.visual_order(logical)
    assert "".join(_bidi.mirrored(logical[i]) if rtl else logical[i] for i, rtl in order) == shown


def test_a_long_mixed_name_is_cut_to_fit() -> None:
    face = _fonts.font(22, bold=True)
    cut = _fonts.fit(_fonts.clean("李小龙🐉" * 20), face, 200)
    assert cut.endswith(_fonts.ELLIPSIS) and _fonts.length(cut, face) <= 200


def test_every_bundled_font_is_named_in_a_licence() -> None:
    fonts = Path(_fonts.__file__).parent / "fonts"
    licences = " ".join(p.read_text() for p in fonts.glob("LICENSE*.txt"))
    for path in [*fonts.glob("*.ttf"), *fonts.glob("*.otf")]:
        assert path.name in licences, path.name


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=24))
def test_any_text_becomes_drawable_runs(text: str) -> None:
    shown = _fonts.clean(text)
    face = _fonts.font(22, bold=True)
    drawn = "".join(run for _, run in _fonts._runs(shown))
    # Joined forms and stand-ins only ever merge characters; only a two-part vowel sign is
    # split, where there is no shaper (its canonical decomposition).
    assert len(drawn) <= len(unicodedata.normalize("NFD", shown))
    for slot, run in _fonts._runs(shown):
        assert all(c == " " or _fonts.covers(slot, c) for c in run), (slot, run)
    cut = _fonts.fit(shown, face, 120)
    assert _fonts.length(cut, face) <= 120
    _fonts._text_layers(cut, face, "ls")


SCRIPT_FONTS = {
    "ดาว": "thai",
    "प्रिया": "devanagari",
    "অনন্যা": "bengali",
    "தமிழ்": "tamil",
    "አበበ": "ethiopic",
    "សុខា": "khmer",
    "ᲜᲘᲜᲝ": "georgian",  # Mtavruli capitals, which DejaVu lacks
    "김민준": "cjk",
}


@pytest.mark.parametrize(("name", "slot"), SCRIPT_FONTS.items())
def test_each_script_is_drawn_by_its_own_font(name: str, slot: str) -> None:
    assert {s for s, _ in _fonts._runs(_fonts.clean(name))} == {slot}


@pytest.mark.parametrize("name", ["ნინო", "Արամ", "שלום"])
def test_dejavu_keeps_the_scripts_it_has(name: str) -> None:
    assert _fonts._runs(_fonts.clean(name))[0][0] == "text"


def test_complex_scripts_are_shaped_where_pillow_can_and_nothing_else_is() -> None:
    from PIL import ImageFont, features

    face = _fonts.font(22, bold=True)
    shaped = ImageFont.Layout.RAQM if features.check_feature("raqm") else ImageFont.Layout.BASIC
    for slot in _fonts.COMPLEX:
        assert _fonts._face_for(slot, face).layout_engine == shaped, slot
    for slot in set(_fonts.CHAIN) - _fonts.COMPLEX - {"text", "emoji"}:
        assert _fonts._face_for(slot, face).layout_engine == ImageFont.Layout.BASIC, slot
    assert face.layout_engine == ImageFont.Layout.BASIC


@pytest.mark.skipif(not _fonts.SHAPING, reason="Pillow has no libraqm here")
def test_a_shaped_conjunct_is_narrower_than_its_letters_side_by_side() -> None:
    face = _fonts._face_for("devanagari", _fonts.font(22, bold=True))
    letters = sum(face.getlength(c) for c in "प्र")
    assert face.getlength("प्र") < letters  # pa, virama and ra form one conjunct


@pytest.mark.parametrize(
    ("written", "drawn"),
    [
        ("कि", "िक"),  # Devanagari i before its consonant
        ("प्रिया", "िप्रया"),  # ... before the whole cluster
        ("কে", "েক"),  # Bengali e
        ("কো", "েকা"),  # Bengali o, in two parts around the consonant
        ("கொ", "ெகா"),  # Tamil o
        ("ពេជ្រ", "េពជ្រ"),  # Khmer e
        ("ि", "ि"),  # a sign with no consonant stays where it is
        ("ดาว", "ดาว"),  # Thai is stored in visual order already
    ],
)
def test_without_a_shaper_pre_base_vowel_signs_move_before_their_cluster(
    written: str, drawn: str
) -> None:
    assert _indic.reorder(written) == drawn
