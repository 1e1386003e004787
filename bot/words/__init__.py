"""The wording both front ends share: games, matches, clocks, ratings, stats and refusals.

The service returns values; these functions put them in words, in the reader's language (from
the ``jarmo`` gettext catalogue), through the :class:`Voice` of the front end that shows them;
``image_words`` gives the words its images draw.
"""

from bot.words.game import (
    challenge_text,
    clock_line,
    duration_text,
    ending_line,
    ending_reason,
    game_title,
    match_state,
    pause_offer_text,
    position_line,
    reminder_text,
    report_text,
    side_label,
    standings_text,
)
from bot.words.images import image_words
from bot.words.placings import place_text, placing_option, placing_text
from bot.words.ratings import is_provisional, provisional_note, rating_label, rating_lines, signed
from bot.words.refusals import move_refusal_text, refusal_text
from bot.words.stats import (
    history_option,
    history_text,
    history_title,
    leaderboard_text,
    leaderboard_title,
    move_list_text,
    profile_text,
    streak_text,
    unrated_note,
)
from bot.words.vacations import (
    away_notice,
    back_notice,
    vacation_ended_text,
    vacation_left_text,
    vacation_line,
    vacation_started_text,
    vacation_status_text,
)
from bot.words.voice import (
    Voice,
    iso_date,
    markdown_quiet,
    markdown_strong,
    plain_time,
    shared_catalogue,
    slash_command,
    unchanged,
)

__all__ = [
    "Voice",
    "challenge_text",
    "clock_line",
    "duration_text",
    "ending_line",
    "ending_reason",
    "game_title",
    "history_option",
    "history_text",
    "history_title",
    "image_words",
    "is_provisional",
    "iso_date",
    "leaderboard_text",
    "leaderboard_title",
    "markdown_quiet",
    "markdown_strong",
    "match_state",
    "move_list_text",
    "move_refusal_text",
    "pause_offer_text",
    "place_text",
    "placing_option",
    "placing_text",
    "plain_time",
    "position_line",
    "profile_text",
    "provisional_note",
    "rating_label",
    "rating_lines",
    "refusal_text",
    "reminder_text",
    "report_text",
    "shared_catalogue",
    "side_label",
    "signed",
    "slash_command",
    "standings_text",
    "streak_text",
    "unchanged",
    "unrated_note",
]

__all__ += [  # vacations
    "away_notice",
    "back_notice",
    "vacation_ended_text",
    "vacation_left_text",
    "vacation_line",
    "vacation_started_text",
    "vacation_status_text",
]
