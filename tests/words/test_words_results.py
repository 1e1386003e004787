"""The line that says who won a game: the winner's points come first in every language, the
way a result is read ("wins 6–3"), whichever side won."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.jarmo import Game, Side
from bot.service.models import GameSummary
from bot.store.records import GameRecord, MatchRecord, TurnPingSetting
from bot.words import ending_line, shared_catalogue
from bot.words.voice import Voice

WHITE_ID, BLACK_ID = 11, 22
NAMES = {WHITE_ID: "Ann", BLACK_ID: "Computer"}


def _summary(winner: Side | None, white_points: int, black_points: int) -> GameSummary:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    match = MatchRecord(
        id=1, guild_id=1, channel_id=1, challenge_id=None, first_white_id=WHITE_ID,
        first_black_id=BLACK_ID, ruleset="classic", layout="traditional", game_count=1,
        max_plies=200, state="finished", winner_id=None, created_at=now, finished_at=now,
    )  # fmt: skip
    record = GameRecord(
        id=1, match=match, index=0, guild_id=1, channel_id=1, white_id=WHITE_ID,
        black_id=BLACK_ID, status="finished", version=0, engine=Game.new(), winner=winner,
        points={"white": white_points, "black": black_points}, termination="camp",
        started_at=now, last_activity=now, finished_at=now,
        turn_pings=(TurnPingSetting(), TurnPingSetting()),
    )  # fmt: skip
    winner_id = {None: None, "white": WHITE_ID, "black": BLACK_ID}[winner]
    points = {WHITE_ID: white_points, BLACK_ID: black_points}
    return GameSummary(record, "finished", None, winner_id, points)


def _line(summary: GameSummary, language: str) -> str:
    return ending_line(summary, Voice(shared_catalogue(language), NAMES.__getitem__))


@pytest.mark.parametrize("language", ["en", "de", "eo", "pl"])
def test_black_winning_shows_its_own_points_first(language: str) -> None:
    line = _line(_summary("black", 3, 6), language)
    assert "Computer" in line
    assert "6–3" in line
    assert "3–6" not in line


@pytest.mark.parametrize("language", ["en", "de", "eo", "pl"])
def test_white_winning_shows_its_own_points_first(language: str) -> None:
    line = _line(_summary("white", 7, 4), language)
    assert "Ann" in line
    assert "7–4" in line


def test_the_english_line_reads_winner_then_score() -> None:
    assert _line(_summary("black", 3, 6), "en").startswith("Computer wins game 1, 6–3 (")


def test_a_winner_on_time_with_fewer_points_still_comes_first() -> None:
    # A player can win on time or by resignation while behind on points; the line still
    # gives the winner's points first, so the lower number leads.
    assert "2–5" in _line(_summary("white", 2, 5), "en")
