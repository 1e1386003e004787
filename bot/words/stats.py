"""Wording of leaderboards, stats, history, move lists and rating changes."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import N_, N_plural
from bot.service.stats_models import (
    HistoryLine,
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    PlayerProfile,
)
from bot.store import (
    ActionRecord,
    GameResultRecord,
    RatingRecord,
    Streak,
    TakenBackRecord,
    Tally,
)
from bot.words.game import board_name, ending_reason, side_label
from bot.words.placings import placing_lines
from bot.words.ratings import is_provisional, provisional_note, rating_label
from bot.words.voice import Voice, iso_date

_RESULT_WORDS = {"win": N_("Won"), "draw": N_("Drew"), "loss": N_("Lost")}
_HOW_IT_ENDED = {"resigned": N_("resigned"), "timeout": N_("on time"), "stopped": N_("stopped")}


def unrated_note(voice: Voice) -> str:
    """Why games against the computer are missing from ratings."""
    return voice.gettext("Games against the computer do not change ratings.")


def wdl(results: Tally | RatingRecord, voice: Voice) -> str:
    """'8W 1D 3L'."""
    return voice.gettext("{wins}W {draws}D {losses}L").format(
        wins=results.wins, draws=results.draws, losses=results.losses
    )


def _games(count: int, voice: Voice) -> str:
    return voice.ngettext("{count} game", "{count} games", count).format(count=count)


# -- leaderboard ---------------------------------------------------------------------------------


def leaderboard_title(page: LeaderboardPage, voice: Voice) -> str:
    """'Leaderboard · classic'."""
    return voice.gettext("Leaderboard · {ruleset}").format(ruleset=page.ruleset)


def leaderboard_text(page: LeaderboardPage, voice: Voice) -> str:
    """The ranked rows of the page, then the viewer's own row if it is elsewhere."""
    _ = voice.gettext
    lines = [_leaderboard_line(row, voice) for row in page.rows]
    if page.viewer_row is not None:
        you = _("You: {row}").format(row=_leaderboard_line(page.viewer_row, voice))
        lines += ["", you]
    elif all(row.user_id != page.viewer_id for row in page.rows):
        lines += [
            "",
            _("You have no {ruleset} rating yet: finish a game to get one.").format(
                ruleset=page.ruleset
            ),
        ]
    players = voice.ngettext("{count} rated player", "{count} rated players", page.total)
    footer = _("Page {page} of {pages} · {players}").format(
        page=page.page + 1, pages=page.pages, players=players.format(count=page.total)
    )
    lines += ["", footer]
    shown_rows = [*page.rows, *([page.viewer_row] if page.viewer_row else [])]
    if any(is_provisional(row.rating.games) for row in shown_rows):
        lines.append(voice.quiet(provisional_note(voice)))
    return "\n".join(lines)


def _leaderboard_line(row: LeaderboardRow, voice: Voice) -> str:
    r = row.rating
    match_wins = voice.ngettext("{count} match win", "{count} match wins", r.match_wins)
    points = voice.ngettext("{count} pt", "{count} pts", r.points)
    return (
        f"`#{row.rank}` {voice.name(row.user_id)} "
        f"{voice.strong(rating_label(r.skill.rating, r.games))} · {_games(r.games, voice)} · "
        f"{wdl(r, voice)} · {match_wins.format(count=r.match_wins)} · "
        f"{points.format(count=r.points)}"
    )


# -- stats ---------------------------------------------------------------------------------------


def profile_text(profile: PlayerProfile, voice: Voice) -> str:
    """Ratings, results by side, matches, average, streak and head-to-head, then the note on
    computer games."""
    _ = voice.gettext
    strong = voice.strong
    stats = profile.stats
    lines = [strong(_("Ratings"))]
    for r in profile.ratings:
        games = voice.ngettext("{count} rated game", "{count} rated games", r.rating.games)
        lines.append(
            _("{ruleset}: {rating} (#{rank} of {players}) · {games} · {results}").format(
                ruleset=r.rating.ruleset,
                rating=strong(rating_label(r.rating.skill.rating, r.rating.games)),
                rank=r.rank,
                players=r.players,
                games=games.format(count=r.rating.games),
                results=wdl(r.rating, voice),
            )
        )
    if not profile.ratings:
        lines.append(_("No rating yet: only games between two members are rated."))
    if any(is_provisional(r.rating.games) for r in profile.ratings):
        lines.append(voice.quiet(provisional_note(voice)))
    matches = _("{played} played · {won} won · {lost} lost").format(
        played=stats.matches, won=stats.match_wins, lost=stats.match_losses
    )
    average = _("{average} points per game").format(average=f"{profile.average_points:.1f}")
    # The labels are looked up outside the f-strings: the extractor does not read inside them.
    as_white, as_black = strong(_("As White")), strong(_("As Black"))
    green, blue = _("(Green in ludos)"), _("(Blue in ludos)")
    matches_label, average_label = strong(_("Matches")), strong(_("Average"))
    streak_label = strong(_("Streak"))
    lines += [
        "",
        f"{as_white} {green}: {_side_line(stats.as_white, voice)}",
        f"{as_black} {blue}: {_side_line(stats.as_black, voice)}",
        f"{matches_label}: {matches}",
        f"{average_label}: {average}",
        f"{streak_label}: {streak_text(stats.streak, voice)}",
    ]
    if profile.head_to_head is not None:
        against = _("Against {player}").format(player=voice.name(profile.viewer_id))
        lines.append(f"{strong(against)}: {_head_to_head(profile.head_to_head, voice)}")
    lines += ["", voice.quiet(unrated_note(voice))]
    return "\n".join(lines)


def _side_line(tally: Tally, voice: Voice) -> str:
    if tally.games == 0:
        return voice.gettext("no games yet")
    average = voice.gettext("{average} points per game").format(
        average=f"{tally.points / tally.games:.1f}"
    )
    return f"{_games(tally.games, voice)} · {wdl(tally, voice)} · {average}"


def _head_to_head(tally: Tally, voice: Voice) -> str:
    if tally.games == 0:
        return voice.gettext("no games yet")
    points = voice.gettext("{mine}–{theirs} points").format(
        mine=tally.points, theirs=tally.points_against
    )
    return f"{_games(tally.games, voice)} · {wdl(tally, voice)} · {points}"


def streak_text(streak: Streak, voice: Voice) -> str:
    """'3 wins in a row', 'a win last time', 'no games yet'."""
    _ = voice.gettext
    if streak.result is None:
        return _("no games yet")
    if streak.length == 1:
        last = {
            "win": N_("a win last time"),
            "draw": N_("a draw last time"),
            "loss": N_("a loss last time"),
        }
        return _(last[streak.result])
    in_a_row = {
        "win": N_plural("{count} win in a row", "{count} wins in a row"),
        "draw": N_plural("{count} draw in a row", "{count} draws in a row"),
        "loss": N_plural("{count} loss in a row", "{count} losses in a row"),
    }
    one, many = in_a_row[streak.result]
    return voice.ngettext(one, many, streak.length).format(count=streak.length)


# -- history -------------------------------------------------------------------------------------


def history_title(page: HistoryPage, voice: Voice) -> str:
    """ "Ann's latest games"."""
    return voice.gettext("{player}'s latest games").format(player=page.name)


def history_text(page: HistoryPage, voice: Voice) -> str:
    """One line per game: number, date, opponent, ruleset, result and points; then the
    finished tournaments, one line each."""
    _ = voice.gettext
    lines = [
        _("{number} {date} v {opponent} · {ruleset} · {result}").format(
            number=f"`{number}`",
            date=voice.date(line.game.finished_at),
            opponent=voice.name(line.opponent_id),
            ruleset=line.game.ruleset,
            result=_result_phrase(line, voice),
        )
        for number, line in enumerate(page.lines, 1)
    ]
    if page.tournaments:
        lines += [*([""] if lines else []), *placing_lines(page.tournaments, voice)]
    if not page.tournaments:
        footer = _("Pick a game below for its move list and replay.")
    elif page.lines:
        footer = _(
            "Pick a game below for its move list and replay, or a tournament for its final table."
        )
    else:
        footer = _("Pick a tournament below for its final table.")
    lines += ["", footer]
    return "\n".join(lines)


def _result_phrase(line: HistoryLine, voice: Voice) -> str:
    mine, theirs = line.points
    phrase = f"{voice.strong(voice.gettext(_RESULT_WORDS[line.result]))} {mine}–{theirs}"
    how = _HOW_IT_ENDED.get(line.game.status)
    return f"{phrase} · {voice.gettext(how)}" if how else phrase


def history_option(number: int, line: HistoryLine, voice: Voice) -> tuple[str, str]:
    """(label, description) of a game in the picker; plain text, within Discord's 100 chars."""
    mine, theirs = line.points
    label = voice.gettext("{number}. {result} {mine}–{theirs} v {opponent}").format(
        number=number,
        result=voice.gettext(_RESULT_WORDS[line.result]),
        mine=mine,
        theirs=theirs,
        opponent=line.opponent_name,
    )
    board = board_name(line.game.layout, voice)
    description = f"{iso_date(line.game.finished_at)} · {line.game.ruleset} / {board}"
    return label[:100], description[:100]


# -- a game's move list --------------------------------------------------------------------------


def move_list_text(
    game: GameResultRecord,
    actions: Iterable[ActionRecord],
    voice: Voice,
    *,
    white_name: str,
    black_name: str,
    taken_back: Iterable[TakenBackRecord] = (),
) -> str:
    """The move list: a header with players and result, then one numbered move per line, and
    the moves that were played and then taken back, each with the ply it had."""
    _ = voice.gettext
    white = side_label("white", game.ruleset, voice)
    black = side_label("black", game.ruleset, voice)
    names = {game.white_id: (white, white_name), game.black_id: (black, black_name)}
    header = [
        _("Jarmo game {id} · {ruleset} rules, {board} · game {number} of its match").format(
            id=game.id,
            ruleset=game.ruleset,
            board=board_name(game.layout, voice),
            number=game.index + 1,
        ),
        f"{white}: {white_name}",
        f"{black}: {black_name}",
        _("Ended: {time}").format(time=game.finished_at.strftime("%Y-%m-%d %H:%M UTC")),
        _("Result: {result}").format(result=_result_sentence(game, white_name, black_name, voice)),
        "",
    ]
    moves = []
    for action in actions:
        side, player = names.get(action.player_id, ("?", str(action.player_id)))
        moves.append(f"{action.ply:3d}. {side} ({player}): {action.move}")
    lines = header + (moves or [_("(no moves were played)")])
    for taken in taken_back:
        side, player = names.get(taken.player_id, ("?", str(taken.player_id)))
        when = taken.taken_back_at.strftime("%Y-%m-%d %H:%M UTC")
        lines.append(
            _("{ply}. {side} ({player}): {move}, taken back ({time})").format(
                ply=taken.ply, side=side, player=player, move=taken.move, time=when
            )
        )
    return "\n".join(lines) + "\n"


def _result_sentence(game: GameResultRecord, white_name: str, black_name: str, voice: Voice) -> str:
    score = f"{game.points['white']}–{game.points['black']}"
    why = ending_reason(game.termination, voice, points=game.points, ruleset=game.ruleset)
    if game.winner is None:
        return voice.gettext("draw, {score} ({why})").format(score=score, why=why)
    winner = white_name if game.winner == "white" else black_name
    return voice.gettext("{player} wins, {score} ({why})").format(
        player=winner, score=score, why=why
    )
