"""The wording of games, matches, challenges and clocks, shared by every front end."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from bot.i18n import N_, N_plural
from bot.jarmo import DEFAULT_LAYOUT, DEFAULT_RULESET, SIDES, Side, Termination, side_name
from bot.service.models import (
    BoardView,
    ChallengeView,
    CountedResult,
    GameSummary,
    MatchStandings,
    Report,
)
from bot.service.offers import PauseOffer
from bot.words.ratings import rating_lines
from bot.words.voice import Voice, plain_time

# The engine names the sides in English; these marks put the names in the catalogue.
_SIDE_NAMES = (N_("White"), N_("Black"), N_("Green"), N_("Blue"))

_ENDINGS = {
    Termination.CAMP.value: N_("every remaining piece of one side stands in the enemy camp"),
    Termination.REPETITION.value: N_("both players repeated their moves"),
    Termination.PLY_LIMIT.value: N_("the move limit was reached"),
    Termination.NO_MOVES.value: N_("the player to move had no possible action"),
    "resigned": N_("resignation"),
    "stopped": N_("agreement to stop"),
    "aborted": N_("a moderator aborted it"),
    "timeout": N_("time ran out"),
}

_STATUS_NOTES = {
    "resigned": N_("resigned"),
    "stopped": N_("stopped by agreement"),
    "timeout": N_("lost on time"),
}


def side_label(side: Side, ruleset: str, voice: Voice) -> str:
    """'White', or 'Green' in ludos, in the reader's language."""
    return voice.gettext(side_name(side, ruleset))


def board_name(layout: str, voice: Voice) -> str:
    """The board a game is played on, as people call it: 'published board' (the layout
    ``traditional``), or an older board by its untranslated name, 'bow board'."""
    if layout == DEFAULT_LAYOUT:
        return voice.gettext("published board")
    return voice.gettext("{layout} board").format(layout=layout)


def ending_reason(
    termination: str | None,
    voice: Voice,
    *,
    points: Mapping[Side, int] | None = None,
    ruleset: str = DEFAULT_RULESET,
) -> str:
    """Why a game ended, in words ('resignation', 'the move limit was reached', ...). With the
    final ``points``, a camp ending that left one side without a piece on the board says so."""
    emptied = _emptied_side(termination, points)
    if emptied is not None:
        return voice.gettext("{side} has no pieces left on the board").format(
            side=side_label(emptied, ruleset, voice)
        )
    known = _ENDINGS.get(termination or "")
    return voice.gettext(known) if known else termination or ""


def _emptied_side(termination: str | None, points: Mapping[Side, int] | None) -> Side | None:
    """The side left with no piece on the board by a camp ending. The engine ends the game
    there too (nothing left means nothing outside the enemy camp), and every piece on the board
    scores, so that side is the one with no points."""
    if termination != Termination.CAMP.value or not points:
        return None
    return next((side for side in SIDES if points.get(side) == 0), None)


def duration_text(delta: timedelta | float, voice: Voice) -> str:
    """A duration for people, to the nearest minute and the two largest units: '3 days 4 hours',
    '25 minutes' (a clock read a moment after it started still shows '2 hours')."""
    seconds = delta.total_seconds() if isinstance(delta, timedelta) else delta
    if seconds < 60:
        return voice.gettext("less than a minute")
    total = round(seconds / 60) * 60
    units = (
        (86_400, *N_plural("{count} day", "{count} days")),
        (3_600, *N_plural("{count} hour", "{count} hours")),
        (60, *N_plural("{count} minute", "{count} minutes")),
    )
    parts = []
    for size, one, many in units:
        count, total = divmod(total, size)
        if count:
            parts.append(voice.ngettext(one, many, count).format(count=count))
    return " ".join(parts[:2])


def game_title(view: BoardView, voice: Voice) -> str:
    """'Game 2 of 4 · classic / published board'."""
    _ = voice.gettext
    match = view.match
    return _("Game {number} of {count} · {ruleset} / {board}").format(
        number=view.game.index + 1,
        count=match.game_count,
        ruleset=match.ruleset,
        board=board_name(match.layout, voice),
    )


def position_line(view: BoardView, voice: Voice) -> str:
    """Points, whose turn it is, and their time (see :func:`clock_line`)."""
    _ = voice.gettext
    game, ruleset = view.live, view.match.ruleset
    points = game.points()
    score = _("{white_side} {white} {white_points} – {black_points} {black} {black_side}").format(
        white_side=side_label("white", ruleset, voice),
        white=view.white_name,
        white_points=points["white"],
        black_points=points["black"],
        black=view.black_name,
        black_side=side_label("black", ruleset, voice),
    )
    turn = view.turn_user_id
    if turn is None:
        return score
    line = _("Turn {number}: {player} to move ({side}).").format(
        number=game.ply + 1, player=voice.name(turn), side=side_label(game.turn, ruleset, voice)
    )
    clock = clock_line(view, voice)
    return "\n".join(part for part in (score, line, clock) if part)


def clock_line(view: BoardView, voice: Voice) -> str | None:
    """The time the player to move has (``None`` without a time limit). The deadline is shown
    with the voice's ``when``, or else as a duration and a UTC time."""
    _ = voice.gettext
    clock, turn = view.clock, view.turn_user_id
    if clock is None or turn is None:
        return None
    if clock.deadline_at is None:
        return _(
            "Clock paused: {player} has {left} left for this move. "
            "Either player can restart it with {resume}."
        ).format(
            player=voice.name(turn),
            left=duration_text(clock.time_left, voice),
            resume=voice.command("resume"),
        )
    if voice.when is None:
        shown = _("within {left} (by {time})").format(
            left=duration_text(clock.time_left, voice), time=plain_time(clock.deadline_at)
        )
    else:
        shown = voice.when(clock.deadline_at)
    return _("{period} per move: {player} must move {deadline} or loses on time.").format(
        period=duration_text(clock.time_per_move_seconds, voice),
        player=voice.name(turn),
        deadline=shown,
    )


def ending_line(summary: GameSummary, voice: Voice) -> str:
    """'Ann wins game 1, 7–4 (every remaining piece …).'"""
    _ = voice.gettext
    record = summary.game
    number = record.index + 1
    if summary.status == "aborted":
        return _("Game {number} was aborted by a moderator; it does not count.").format(
            number=number
        )
    pts = summary.points_by_player
    why = ending_reason(
        record.termination, voice, points=record.points, ruleset=record.match.ruleset
    )
    winner = summary.winner_id
    if winner is None:
        score = f"{pts[record.white_id]}–{pts[record.black_id]}"
        return _("Game {number} is drawn, {score} ({why}).").format(
            number=number, score=score, why=why
        )
    # The winner's points come first, as a result is read ("wins 6–3"), whichever side won.
    loser = record.black_id if winner == record.white_id else record.white_id
    score = f"{pts[winner]}–{pts[loser]}"
    return _("{player} wins game {number}, {score} ({why}).").format(
        player=voice.name(winner), number=number, score=score, why=why
    )


def standings_text(standings: MatchStandings, voice: Voice) -> str:
    """The match table: one line per game, totals, leader, games left, whose turn."""
    _ = voice.gettext
    match = standings.match
    a, b = match.player_ids
    heading = voice.ngettext(
        "Match of {count} game · {ruleset} / {board}",
        "Match of {count} games · {ruleset} / {board}",
        match.game_count,
    )
    board = board_name(match.layout, voice)
    lines = [heading.format(count=match.game_count, ruleset=match.ruleset, board=board)]
    white_side = side_label("white", match.ruleset, voice)
    black_side = side_label("black", match.ruleset, voice)
    for line in standings.games:
        white = f"{voice.name(line.white_id)} ({white_side})"
        black = f"{voice.name(line.black_id)} ({black_side})"
        if line.points_by_player is None:
            lines.append(
                _("Game {number}: {white} v {black} — in play").format(
                    number=line.index + 1, white=white, black=black
                )
            )
            continue
        if line.status == "aborted":  # its points as it stood are no score: they count nothing
            lines.append(
                _("Game {number}: {white} v {black} — aborted, counts for nothing").format(
                    number=line.index + 1, white=white, black=black
                )
            )
            continue
        pts = line.points_by_player
        text = _("Game {number}: {white} {white_points} – {black_points} {black}").format(
            number=line.index + 1,
            white=white,
            white_points=pts[line.white_id],
            black_points=pts[line.black_id],
            black=black,
        )
        note = _STATUS_NOTES.get(line.status)
        lines.append(f"{text} · {_(note)}" if note else text)
    lines.append(
        _("Total: {first} {first_points} – {second_points} {second}").format(
            first=voice.name(a),
            first_points=standings.totals[a],
            second_points=standings.totals[b],
            second=voice.name(b),
        )
    )
    lines.append(match_state(standings, voice))
    lines.extend(rating_lines(standings.rating_changes, voice))
    return "\n".join(lines)


def match_state(standings: MatchStandings, voice: Voice) -> str:
    """Who won the match, or who leads, how many games are left and whose move it is."""
    _ = voice.gettext
    state = standings.match.state
    if state == "aborted" and standings.counted is not None:
        return counted_line(standings.match.player_ids, standings.counted, voice)
    if state == "aborted":
        return _("The match was aborted.")
    if standings.over:
        if standings.winner_id is None:
            return _("The match is drawn.")
        if state == "forfeited":
            return _("{player} wins the match (by forfeit)!").format(
                player=voice.name(standings.winner_id)
            )
        return _("{player} wins the match!").format(player=voice.name(standings.winner_id))
    if standings.leader_id is None:
        leader = _("Level")
    else:
        leader = _("{player} leads").format(player=voice.name(standings.leader_id))
    left = voice.ngettext("{count} game left", "{count} games left", standings.games_left)
    state_line = f"{leader} · {left.format(count=standings.games_left)}"
    if standings.turn_user_id:
        return _("{state}; {player} to move.").format(
            state=state_line, player=voice.name(standings.turn_user_id)
        )
    return f"{state_line}."


def counted_line(players: tuple[int, int], counted: CountedResult, voice: Voice) -> str:
    """How the tournament counts a match stopped before its end, as its table does: 'The
    match was stopped; the tournament counts it as drawn, Ann 0 – 0 Bob.', or 'Mod stopped
    the match; ...' when a moderator forced it."""
    _ = voice.gettext
    if counted.forfeit and counted.winner_id is not None:
        return _(
            "The match was stopped; the tournament counts it as won by {player} by forfeit."
        ).format(player=voice.name(counted.winner_id))
    first, second = players
    score = _("{first} {first_points} – {second_points} {second}").format(
        first=voice.name(first),
        first_points=counted.points.get(first, 0),
        second_points=counted.points.get(second, 0),
        second=voice.name(second),
    )
    if counted.forced_by is not None:
        moderator = voice.name(counted.forced_by)
        if counted.winner_id is None:
            return _(
                "{moderator} stopped the match; the tournament counts it as drawn, {score}."
            ).format(moderator=moderator, score=score)
        return _(
            "{moderator} stopped the match; the tournament counts it as won by {player}, {score}."
        ).format(moderator=moderator, player=voice.name(counted.winner_id), score=score)
    if counted.winner_id is None:
        return _("The match was stopped; the tournament counts it as drawn, {score}.").format(
            score=score
        )
    return _("The match was stopped; the tournament counts it as won by {player}, {score}.").format(
        player=voice.name(counted.winner_id), score=score
    )


def report_text(report: Report, voice: Voice, *, match_state_shown: bool = True) -> str:
    """What to say after an action: the move, then the result and match state if it ended.
    ``match_state_shown=False`` leaves the match's state out, for a front end that shows the
    whole table right after."""
    _ = voice.gettext
    parts = []
    ended = report.ended
    actor = voice.name(report.actor_id)
    if report.action:
        parts.append(
            _("{player} played {move}.").format(player=actor, move=voice.strong(report.action))
        )
    elif ended and ended.status == "resigned":
        parts.append(_("{player} resigned.").format(player=actor))
    elif ended and ended.status == "stopped":
        parts.append(_("The players agreed to stop the game here."))
    elif ended and ended.status == "timeout":
        parts.append(_("{player} ran out of time.").format(player=actor))
    if ended:
        parts.append(ending_line(ended, voice))
    else:
        parts.append(position_line(report.board, voice))
    if report.standings and ended and match_state_shown:
        parts.append(match_state(report.standings, voice))
        parts.extend(rating_lines(report.standings.rating_changes, voice))
    if report.next_board:
        following = report.next_board
        starter = voice.name(following.game.white_id)
        parts.append(
            _("Next: game {number} — {player} has {side} now; {player} to move.").format(
                number=following.game.index + 1,
                player=starter,
                side=side_label("white", following.match.ruleset, voice),
            )
        )
    return "\n".join(parts)


def challenge_text(view: ChallengeView, voice: Voice, *, expires: str) -> str:
    """The challenge announcement; ``expires`` is how the front end shows the expiry time."""
    _ = voice.gettext
    record = view.challenge
    options = record.options
    challenger = voice.name(record.challenger_id)
    opponent = record.challenged_id
    # TRANSLATORS: whom an open challenge challenges: {challenged} in the announcement.
    challenged = _("anyone") if opponent is None else voice.name(opponent)
    limits = record.rating_range
    if opponent is None and limits is not None:
        # TRANSLATORS: whom an open challenge limited by rating challenges: {challenged}.
        challenged = _("anyone rated {lowest}-{highest}").format(
            lowest=limits.lowest, highest=limits.highest
        )
    if options.game_count > 1:
        games = voice.ngettext(
            "a match of {count} game", "a match of {count} games", options.game_count
        ).format(count=options.game_count)
    else:
        games = _("a game")
    if options.side == "random":
        sides = _("sides drawn at random")
    else:
        sides = _("{player} plays {side} first").format(
            player=challenger, side=side_label(options.side, options.ruleset, voice)
        )
    if options.time_per_move_seconds is not None:
        sides = _("{sides}; {period} per move").format(
            sides=sides, period=duration_text(options.time_per_move_seconds, voice)
        )
    return _(
        "{challenger} challenges {challenged} to {games} of Jarmo ({ruleset} rules, "
        "{board}; {sides}). The challenge expires {expires}."
    ).format(
        challenger=challenger,
        challenged=challenged,
        games=games,
        ruleset=options.ruleset,
        board=board_name(options.layout, voice),
        sides=sides,
        expires=expires,
    )


def reminder_text(user_id: int, deadline: datetime, voice: Voice) -> str:
    """The nudge to a player whose time for a move is running out."""
    _ = voice.gettext
    if voice.when is not None:
        shown = voice.when(deadline)
    else:
        shown = _("by {time}").format(time=plain_time(deadline))
    return _(
        "{player}, it is your move in this channel's Jarmo game. Your time runs out "
        "{deadline}; move before then or you lose the match on time."
    ).format(player=voice.name(user_id), deadline=shown)


def pause_offer_text(offer: PauseOffer, voice: Voice) -> str:
    """The offer to stop the clock, addressed to the opponent."""
    _ = voice.gettext
    return _(
        "{player} asks to pause the clock of this game. {opponent}, do you agree? While it is "
        "paused no moves can be made; either player restarts it with {resume}. (The offer "
        "lapses with the next move.)"
    ).format(
        player=voice.name(offer.offered_by),
        opponent=voice.name(offer.answer_by),
        resume=voice.command("resume"),
    )
