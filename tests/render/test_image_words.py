"""Every word in an image comes from the catalogue, in the reader's language and script."""

from __future__ import annotations

import dataclasses
import gettext

import pytest

from bot.i18n import Catalogue
from bot.jarmo import Termination
from bot.render import ENGLISH_WORDS, ImageWords, ResultBanner, _fonts, render_position
from bot.render._chart import render_rating_chart
from bot.render._theme import BOARD_H, BOARD_TOP, HEADER_H, WIDTH
from bot.render._words import ENGLISH
from bot.words import shared_catalogue
from bot.words.images import image_words
from tests.render.render_helpers import position, rgb, step

LETTERS = {
    "pl": "ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ",
    "de": "äöüß ÄÖÜ",
    "eo": "ĉĝĥĵŝŭ ĈĜĤĴŜŬ",
}


class Marked(gettext.NullTranslations):
    """A stand-in translation that wraps every message, so untranslated text shows."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"


def strings(words: ImageWords) -> list[str]:
    """Every text of ``words``: its fields, the colours, the endings and a count of games."""
    found = [words.games_count(1), words.games_count(7)]
    for field in dataclasses.fields(words):
        value = getattr(words, field.name)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            found.extend(value.values())
    return found


def test_the_renderers_english_is_the_catalogues_english() -> None:
    english = image_words(shared_catalogue())
    for field in dataclasses.fields(ImageWords):
        if field.name != "games_count":
            assert getattr(english, field.name) == getattr(ENGLISH, field.name), field.name
    assert [english.games_count(n) for n in range(1, 30)] == [
        ENGLISH.games_count(n) for n in range(1, 30)
    ]
    assert set(ENGLISH.board_ends) == set(Termination)


def test_every_word_comes_from_the_catalogue() -> None:
    words = image_words(Catalogue("jarmo", "xx", Marked()))
    texts = strings(words)
    assert len(texts) > 25
    assert [text for text in texts if not text.startswith("«")] == []


def test_the_same_language_gives_the_same_words_value() -> None:
    """The renderer's caches are keyed on the value, so it must not be rebuilt per call."""
    assert image_words(shared_catalogue()) is image_words(shared_catalogue())


def test_the_words_reach_the_image_and_only_where_words_are_drawn() -> None:
    pos = position("C2:w C4:bm", ply=5, turn="black", last=step("A1", "C2"))
    colours = dict(ENGLISH_WORDS.colours, Black="Czarne")
    polish = dataclasses.replace(ENGLISH_WORDS, to_move="Ruch: {side}", colours=colours)
    english, translated = rgb(render_position(pos)), rgb(render_position(pos, words=polish))
    header = (0, 0, WIDTH, HEADER_H)
    board = (0, BOARD_TOP, WIDTH, BOARD_TOP + BOARD_H)
    assert english.crop(header).tobytes() != translated.crop(header).tobytes()
    assert english.crop(board).tobytes() == translated.crop(board).tobytes()


def test_the_result_and_the_chart_are_worded_by_the_words_given() -> None:
    pos = position("C2:w C4:b", ply=30)
    banner = ResultBanner("resigned", "white", {"white": 3, "black": 1})
    german = dataclasses.replace(ENGLISH_WORDS, resigned="{side} hat aufgegeben")
    plain = render_position(pos, result=banner)
    assert render_position(pos, result=banner, words=german) != plain
    values = [1000.0, 1012.0, 1030.0]
    other = dataclasses.replace(ENGLISH_WORDS, chart_older="älter", chart_latest="neueste")
    assert render_rating_chart(values, words=other) != render_rating_chart(values)


@pytest.mark.parametrize("language", sorted(LETTERS))
def test_the_bundled_fonts_draw_every_letter_of_the_languages(language: str) -> None:
    letters = LETTERS[language]
    assert _fonts.clean(letters) == letters  # no letter became an ellipsis
    missing = {
        bold: bytes(_fonts.font(20, bold=bold).getmask("\U0010fffd")) for bold in (False, True)
    }
    for char in letters.replace(" ", ""):
        assert _fonts.covers("text", char), char
        for bold in (False, True):
            glyph = bytes(_fonts.font(20, bold=bold).getmask(char))
            assert glyph != missing[bold], (char, bold)
