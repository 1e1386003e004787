"""Provisional ratings: a rating shows "?" until its player has 10 rated games in the ruleset,
and the texts that show one explain why early changes are large."""

from __future__ import annotations

from bot.service import JarmoService
from bot.service.stats_models import LeaderboardPage, LeaderboardRow, RatingShift
from bot.words import leaderboard_text, profile_text, rating_label, rating_lines, report_text
from bot.words.ratings import PROVISIONAL_GAMES
from tests.ratings.ratings_helpers import ANN, BOB, GUILD, play_resign, rating_row
from tests.wording import voice

NAMES = {ANN.user_id: "Ann", BOB.user_id: "Bob"}


def test_a_rating_is_provisional_below_ten_rated_games() -> None:
    assert PROVISIONAL_GAMES == 10
    assert rating_label(1011.6, 0) == "1012?"
    assert rating_label(1011.6, 9) == "1012?"
    assert rating_label(1011.6, 10) == "1012"


def test_a_first_match_explains_its_large_change() -> None:
    first = [RatingShift(ANN.user_id, "classic", 1000.0, 1069.0, 1)]
    first.append(RatingShift(BOB.user_id, "classic", 1000.0, 963.0, 1))
    ratings, note = rating_lines(first, voice(NAMES.get))
    assert ratings == "Ratings (classic): Ann 1069? (+69) · Bob 963? (−37)"
    assert "provisional" in note and "fewer than 10 rated games" in note
    assert "an early win gains more than an early loss costs" in note
    settled = [RatingShift(ANN.user_id, "ludos", 1200.0, 1210.0, 10)]
    settled.append(RatingShift(BOB.user_id, "ludos", 1100.0, 1090.0, 25))
    assert rating_lines(settled, voice(NAMES.get)) == [
        "Ratings (ludos): Ann 1210 (+10) · Bob 1090 (−10)"
    ]


def test_the_leaderboard_marks_provisional_ratings() -> None:
    rows = [
        LeaderboardRow(1, 5, "Eve", rating_row(5, 1300.0, 12)),
        LeaderboardRow(2, 6, "Fay", rating_row(6, 1100.0, 1)),
    ]
    page = LeaderboardPage(GUILD, "classic", 0, 1, 2, rows, 5, None)
    text = leaderboard_text(page, voice())
    assert "5 **1300** · 12 games" in text and "6 **1100?** · 1 game ·" in text
    assert "? marks a provisional rating" in text
    assert "· 1 pt" not in text and "10 pts" in text  # rating_row gives 10 points per game
    single = LeaderboardPage(GUILD, "classic", 0, 1, 1, rows[:1], 5, None)
    assert "provisional" not in leaderboard_text(single, voice())


async def test_ratings_read_as_provisional_until_the_tenth_rated_game(
    service: JarmoService,
) -> None:
    report = await play_resign(service, winner=ANN, loser=BOB)
    text = report_text(report, voice(NAMES.get))
    assert "Ann 1" in text and "? (+" in text and "? (−" in text
    assert "? marks a provisional rating" in text
    profile = await service.stats.profile(GUILD, ANN.user_id, viewer_id=ANN.user_id)
    shown = profile_text(profile, voice())
    assert "classic: **1" in shown and "?** (#1 of 2) · 1 rated game" in shown
    assert "? marks a provisional rating" in shown

    for _ in range(PROVISIONAL_GAMES - 2):
        await play_resign(service, winner=ANN, loser=BOB)
    tenth = await play_resign(service, winner=ANN, loser=BOB)
    text = report_text(tenth, voice(NAMES.get))
    assert "Ratings (classic)" in text and "?" not in text and "provisional" not in text
    profile = await service.stats.profile(GUILD, ANN.user_id, viewer_id=ANN.user_id)
    assert "10 rated games" in profile_text(profile, voice())
    assert "provisional" not in profile_text(profile, voice())
