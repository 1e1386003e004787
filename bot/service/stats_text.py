"""Plain-text wording of leaderboards, stats, history, move lists and rating changes.

``name`` turns a user id into what the front end shows (a mention in Discord); ``date`` turns a
time into a date (a Discord timestamp); both default to plain text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from bot.jarmo import side_name
from bot.service.rating_text import PROVISIONAL_NOTE, is_provisional, rating_label
from bot.service.stats_models import (
    HistoryLine,
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    PlayerProfile,
)
from bot.service.text import ending_reason
from bot.store import ActionRecord, GameResultRecord, RatingRecord, Streak, Tally

Namer = Callable[[int], str]
Dater = Callable[[datetime], str]
UNRATED_NOTE = "Games against the computer do not change ratings."
_RESULT_WORDS = {"win": "Won", "draw": "Drew", "loss": "Lost"}


def iso_date(moment: datetime) -> str:
    """'2026-11-21' (UTC)."""
    return moment.strftime("%Y-%m-%d")


def wdl(results: Tally | RatingRecord) -> str:
    """'8W 1D 3L'."""
    return f"{results.wins}W {results.draws}D {results.losses}L"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# -- leaderboard ---------------------------------------------------------------------------------


def leaderboard_title(page: LeaderboardPage) -> str:
    """'Leaderboard · classic'."""
    return f"Leaderboard · {page.ruleset}"


def leaderboard_text(page: LeaderboardPage, name: Namer) -> str:
    """The ranked rows of the page, then the viewer's own row if it is elsewhere."""
    lines = [_leaderboard_line(row, name) for row in page.rows]
    if page.viewer_row is not None:
        lines += ["", f"You: {_leaderboard_line(page.viewer_row, name)}"]
    elif all(row.user_id != page.viewer_id for row in page.rows):
        lines += ["", f"You have no {page.ruleset} rating yet: finish a game to get one."]
    lines += ["", f"Page {page.page + 1} of {page.pages} · {_plural(page.total, 'rated player')}"]
    shown_rows = [*page.rows, *([page.viewer_row] if page.viewer_row else [])]
    if any(is_provisional(row.rating.games) for row in shown_rows):
        lines.append(f"_{PROVISIONAL_NOTE}_")
    return "\n".join(lines)


def _leaderboard_line(row: LeaderboardRow, name: Namer) -> str:
    r = row.rating
    return (
        f"`#{row.rank}` {name(row.user_id)} **{rating_label(r.skill.rating, r.games)}** · "
        f"{_plural(r.games, 'game')} · {wdl(r)} · {_plural(r.match_wins, 'match win')} · "
        f"{_plural(r.points, 'pt')}"
    )


# -- stats ---------------------------------------------------------------------------------------


def profile_text(profile: PlayerProfile, name: Namer) -> str:
    """Ratings, results by side, matches, average, streak and head-to-head, then the note on
    computer games."""
    stats = profile.stats
    lines = ["**Ratings**"]
    lines += [
        f"{r.rating.ruleset}: **{rating_label(r.rating.skill.rating, r.rating.games)}** "
        f"(#{r.rank} of {r.players}) · {_plural(r.rating.games, 'rated game')} · {wdl(r.rating)}"
        for r in profile.ratings
    ] or ["No rating yet: only games between two members are rated."]
    if any(is_provisional(r.rating.games) for r in profile.ratings):
        lines.append(f"_{PROVISIONAL_NOTE}_")
    lines += [
        "",
        f"**As White** (Green in ludos): {_side_line(stats.as_white)}",
        f"**As Black** (Blue in ludos): {_side_line(stats.as_black)}",
        f"**Matches**: {stats.matches} played · {stats.match_wins} won · {stats.match_losses} lost",
        f"**Average**: {profile.average_points:.1f} points per game",
        f"**Streak**: {streak_text(stats.streak)}",
    ]
    if profile.head_to_head is not None:
        lines.append(
            f"**Against {name(profile.viewer_id)}**: {_head_to_head(profile.head_to_head)}"
        )
    lines += ["", f"_{UNRATED_NOTE}_"]
    return "\n".join(lines)


def _side_line(tally: Tally) -> str:
    if tally.games == 0:
        return "no games yet"
    average = tally.points / tally.games
    return f"{_plural(tally.games, 'game')} · {wdl(tally)} · {average:.1f} points per game"


def _head_to_head(tally: Tally) -> str:
    if tally.games == 0:
        return "no games yet"
    return (
        f"{_plural(tally.games, 'game')} · {wdl(tally)} · "
        f"{tally.points}–{tally.points_against} points"
    )


def streak_text(streak: Streak) -> str:
    """'3 wins in a row', 'a draw last time', 'no games yet'."""
    if streak.result is None:
        return "no games yet"
    word = {"win": "win", "draw": "draw", "loss": "loss"}[streak.result]
    if streak.length == 1:
        return f"a {word} last time"
    plural = "losses" if word == "loss" else f"{word}s"
    return f"{streak.length} {plural} in a row"


# -- history -------------------------------------------------------------------------------------


def history_title(page: HistoryPage) -> str:
    """ "Ann's latest games"."""
    return f"{page.name}'s latest games"


def history_text(page: HistoryPage, name: Namer, *, date: Dater = iso_date) -> str:
    """One line per game: number, date, opponent, ruleset, result and points."""
    lines = [
        f"`{number}` {date(line.game.finished_at)} v {name(line.opponent_id)} · "
        f"{line.game.ruleset} · {_result_phrase(line)}"
        for number, line in enumerate(page.lines, 1)
    ]
    lines += ["", "Pick a game below for its move list and replay."]
    return "\n".join(lines)


def _result_phrase(line: HistoryLine) -> str:
    mine, theirs = line.points
    how = {"resigned": " · resigned", "timeout": " · on time", "stopped": " · stopped"}
    return f"**{_RESULT_WORDS[line.result]}** {mine}–{theirs}{how.get(line.game.status, '')}"


def history_option(number: int, line: HistoryLine) -> tuple[str, str]:
    """(label, description) of a game in the picker; plain text, within Discord's 100 chars."""
    mine, theirs = line.points
    label = f"{number}. {_RESULT_WORDS[line.result]} {mine}–{theirs} v {line.opponent_name}"
    description = f"{iso_date(line.game.finished_at)} · {line.game.ruleset} / {line.game.layout}"
    return label[:100], description[:100]


# -- a game's move list --------------------------------------------------------------------------


def game_text(
    game: GameResultRecord, actions: Iterable[ActionRecord], *, white_name: str, black_name: str
) -> str:
    """The move list: a header with players and result, then one numbered move per line."""
    white, black = side_name("white", game.ruleset), side_name("black", game.ruleset)
    names = {game.white_id: (white, white_name), game.black_id: (black, black_name)}
    header = [
        f"Jarmo game {game.id} · {game.ruleset} rules, {game.layout} board · "
        f"game {game.index + 1} of its match",
        f"{white}: {white_name}",
        f"{black}: {black_name}",
        f"Ended: {game.finished_at.strftime('%Y-%m-%d %H:%M UTC')}",
        f"Result: {_result_sentence(game, white_name, black_name)}",
        "",
    ]
    moves = []
    for action in actions:
        side, player = names.get(action.player_id, ("?", str(action.player_id)))
        moves.append(f"{action.ply:3d}. {side} ({player}): {action.move}")
    return "\n".join(header + (moves or ["(no moves were played)"])) + "\n"


def _result_sentence(game: GameResultRecord, white_name: str, black_name: str) -> str:
    score = f"{game.points['white']}–{game.points['black']}"
    why = ending_reason(game.termination)
    if game.winner is None:
        return f"draw, {score} ({why})"
    winner = white_name if game.winner == "white" else black_name
    return f"{winner} wins, {score} ({why})"
