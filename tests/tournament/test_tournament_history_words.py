"""Finished tournaments in a player's history, in words: places as each language
says them, the history's tournament lines, and the picker's options within Discord's limits,
its custom id unchanged so that pickers posted earlier keep working."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.cogs.stats import TOURNAMENT_VALUE, HistoryPicker
from bot.service.stats_models import HistoryPage, TournamentPlacing
from bot.store import TournamentFormat, TournamentRecord
from bot.words import Voice, history_text, place_text, placing_option, shared_catalogue
from tests.wording import voice

ENDED = datetime(2026, 11, 23, 18, 30, tzinfo=UTC)


def cup(
    tournament_id: int, name: str = "Spring Cup", format: TournamentFormat = "round-robin"
) -> TournamentRecord:
    return TournamentRecord(
        id=tournament_id, guild_id=1, channel_id=10, organiser_id=99, name=name, format=format,
        rounds=0, game_count=2, ruleset="classic", layout="bow", max_plies=200,
        time_per_move_seconds=None, status="finished", current_round=3, message_id=None,
        created_at=ENDED, finished_at=ENDED,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("rank", "words"),
    [
        (1, "1st of 7"),
        (2, "2nd of 7"),
        (3, "3rd of 7"),
        (4, "4th of 7"),
        (11, "11th of 7"),
        (12, "12th of 7"),
        (13, "13th of 7"),
        (21, "21st of 7"),
        (22, "22nd of 7"),
        (103, "103rd of 7"),
        (111, "111th of 7"),
    ],
)
def test_a_place_has_its_english_ending(rank: int, words: str) -> None:
    assert place_text(rank, 7, voice()) == words


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "Platz 2 von 7"), ("pl", "2. miejsce z 7"), ("eo", "2-a loko el 7")],
)
def test_a_place_is_worded_in_the_readers_language(language: str, words: str) -> None:
    reader = Voice(shared_catalogue(language), name=str)
    assert place_text(2, 7, reader) == words


def test_the_history_lists_the_tournaments_after_the_games_and_says_what_to_pick() -> None:
    placings = (TournamentPlacing(cup(2, "Spring Cup"), 2, 7), TournamentPlacing(cup(1), 1, 3))
    only_tournaments = HistoryPage(1, 5, "Ann", None, [], placings)

    text = history_text(only_tournaments, voice())

    assert text.splitlines() == [
        "**Tournaments**",
        "`T1` 2026-11-23 · Spring Cup — 2nd of 7",
        "`T2` 2026-11-23 · Spring Cup — 1st of 3",
        "",
        "Pick a tournament below for its final table.",
    ]
    assert "Tournaments" not in history_text(HistoryPage(1, 5, "Ann", None, []), voice())


def test_a_tournament_option_stays_within_discords_limits() -> None:
    longest = TournamentPlacing(cup(7, "W" * 60, format="swiss"), 100, 100)

    label, description = placing_option(25, longest, voice())

    assert label == f"T25. {'W' * 60} — 100th of 100" and len(label) <= 100
    assert description == "2026-11-23 · Swiss · the final table"


def test_the_picker_offers_games_and_tournaments_under_the_old_custom_id() -> None:
    placings = tuple(TournamentPlacing(cup(n, "W" * 60), n, 99) for n in range(1, 11))
    page = HistoryPage(1, 5, "Ann", None, [], placings)

    picker = HistoryPicker(page, guild_id=1, user_id=5, opponent_id=None)

    options = picker.item.options
    assert [o.value for o in options] == [f"{TOURNAMENT_VALUE}{n}" for n in range(1, 11)]
    assert len(options) <= 25
    assert all(len(o.label) <= 100 and len(o.description or "") <= 100 for o in options)
    assert picker.item.custom_id == "jarmo:hist:1:5:0"
    assert HistoryPicker.__discord_ui_compiled_template__.fullmatch(picker.item.custom_id)
    assert "tournament" in (picker.item.placeholder or "")
