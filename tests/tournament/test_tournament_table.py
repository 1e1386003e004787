"""The standings image and its text version: what is drawn, in whose words, and its size."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import ENGLISH
from bot.render import render_standings_table
from bot.render._table import HEAD_H, PAD, RANK_W, ROW_H, TITLE_H
from bot.service.tournaments.draw import Event, Pairing, Standings, forfeit, standings
from bot.words import Voice, shared_catalogue, unchanged
from bot.words.tournaments import table_lines, table_words
from tests.tournament.tournament_helpers import play_event

VOICE = Voice(shared_catalogue(ENGLISH), name=lambda user: f"<@{user}>", strong=unchanged)
NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}


def _three() -> Standings:
    event, _ = play_event("round-robin", 3, 3)
    return standings(event)


def _png(table: Standings, *, rounds: int = 3, title: str = "Club cup") -> Image.Image:
    words = table_words(VOICE, title=title, format="round-robin", played=table.rounds, rounds=3)
    data = render_standings_table(table.rows, names=NAMES, words=words, rounds=rounds)
    return Image.open(io.BytesIO(data)).convert("RGB")


def _row_pixels(image: Image.Image, index: int, left: int, right: int) -> set[tuple[int, int, int]]:
    top = TITLE_H + HEAD_H + index * ROW_H
    strip = image.crop((left, top + 2, right, top + ROW_H - 2))
    colours = set()
    for _, colour in strip.getcolors(10_000) or []:
        assert isinstance(colour, tuple), "an RGB image has a colour per pixel, not a value"
        red, green, blue = colour
        colours.add((red, green, blue))
    return colours


def test_one_row_per_player_and_one_column_per_round() -> None:
    table = _three()
    small, wide = _png(table), _png(table, rounds=7)
    assert wide.width > small.width
    assert small.height > TITLE_H + HEAD_H + 3 * ROW_H
    event, _ = play_event("round-robin", 4, 3)
    assert _png(standings(event)).height == small.height + ROW_H


def test_the_same_table_gives_the_same_bytes_and_words_change_the_picture() -> None:
    table = _three()
    words = table_words(VOICE, title="Cup", format="swiss", played=3, rounds=3)
    once = render_standings_table(table.rows, names=NAMES, words=words, rounds=3)
    again = render_standings_table(table.rows, names=NAMES, words=words, rounds=3)
    assert once == again
    other = table_words(VOICE, title="Pokal", format="swiss", played=3, rounds=3)
    assert render_standings_table(table.rows, names=NAMES, words=other, rounds=3) != once


def test_results_are_coloured_by_outcome() -> None:
    image = _png(_three())
    winner = _row_pixels(image, 0, PAD + RANK_W, image.width)
    last = _row_pixels(image, 2, PAD + RANK_W, image.width)
    greenish = {c for c in winner if c[1] > c[0] + 40 and c[1] > c[2] + 40}
    reddish = {c for c in last if c[0] > c[1] + 60 and c[0] > c[2] + 60}
    assert greenish, "the winner's win over #3 is drawn in green"
    assert reddish, "the last player's loss is drawn in red"


def test_a_table_needs_rows_and_missing_names_show_the_id() -> None:
    words = table_words(VOICE, title="Cup", format="swiss", played=0, rounds=3)
    with pytest.raises(ValueError):
        render_standings_table((), names={}, words=words, rounds=3)
    table = _three()
    assert render_standings_table(table.rows, names={}, words=words, rounds=0)


def test_sixty_four_players_fit_the_size_limit() -> None:
    event, _ = play_event("swiss", 64, 7)
    table = standings(event)
    words = table_words(VOICE, title="Open", format="swiss", played=7, rounds=7)
    names = {p: f"Player with a long name {p}" for p in event.players}
    data = render_standings_table(table.rows, names=names, words=words, rounds=7)
    assert len(data) <= 500 * 1024


def test_the_text_version_reads_every_row_and_round() -> None:
    lines = table_lines(_three(), VOICE, title="Club cup", format="round-robin", rounds=3)
    assert lines == [
        "Club cup · Round robin · final table",
        "1. <@1>: 5 match points, 14 game points, Buchholz 7, Sonneborn-Berger 5. "
        "Round 1: bye. Round 2: drew with <@2>, 6–6, started. "
        "Round 3: won against <@3>, 8–4.",
        "2. <@2>: 4 match points, 12 game points, Buchholz 8, Sonneborn-Berger 4. "
        "Round 1: drew with <@3>, 6–6, started. Round 2: drew with <@1>, 6–6. Round 3: bye.",
        "3. <@3>: 3 match points, 10 game points, Buchholz 9, Sonneborn-Berger 2. "
        "Round 1: drew with <@2>, 6–6. Round 2: bye. Round 3: lost to <@1>, 4–8, started.",
    ]


def test_the_text_version_marks_withdrawals_and_forfeits() -> None:
    event = Event((1, 2, 3, 4)).with_withdrawal(4)
    event = event.with_round((forfeit(1, Pairing(1, 4), absent=4),))
    lines = table_lines(standings(event), VOICE, title="Cup", format="swiss", rounds=3)
    assert "Round 1: won against <@4> by forfeit." in lines[1]
    # 4 keeps the forfeit loss and ranks second on Buchholz (it met 1, who has 2 points).
    assert lines[2] == (
        "2. <@4> (withdrew): 0 match points, 0 game points, Buchholz 2, Sonneborn-Berger 0. "
        "Round 1: lost to <@1> by forfeit."
    )
    assert "after round 1 of 3" in lines[0]
