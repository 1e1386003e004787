"""Plain-text wording of the service's results, shared by every front end.

``name`` turns a user id into what the front end shows: a mention in Discord, a display name in
the console.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.jarmo import Termination, side_name
from bot.service.models import BoardView, ChallengeView, GameSummary, Report, Standings
from bot.service.offers import PauseOffer
from bot.service.rating_text import rating_lines
from bot.service.timecontrol import duration_text

Namer = Callable[[int], str]
When = Callable[[datetime], str]
"""How a front end shows a moment: a Discord relative timestamp, or plain text (the default)."""

_ENDINGS = {
    Termination.CAMP.value: "every remaining piece of one side stands in the enemy camp",
    Termination.REPETITION.value: "both players repeated their moves",
    Termination.PLY_LIMIT.value: "the move limit was reached",
    Termination.NO_MOVES.value: "the player to move had no possible action",
    "resigned": "resignation",
    "stopped": "agreement to stop",
    "aborted": "a moderator aborted it",
    "timeout": "time ran out",
}


def ending_reason(termination: str | None) -> str:
    """Why a game ended, in words ('resignation', 'the move limit was reached', ...)."""
    return _ENDINGS.get(termination or "", termination or "")


def game_title(view: BoardView) -> str:
    """'Game 2 of 4 · classic / bow'."""
    match = view.match
    return f"Game {view.game.index + 1} of {match.game_count} · {match.ruleset} / {match.layout}"


def position_line(view: BoardView, name: Namer, *, when: When | None = None) -> str:
    """Points, whose turn it is, and their time (see :func:`clock_line`)."""
    game, ruleset = view.game.game, view.match.ruleset
    points = game.points()
    white = f"{side_name('white', ruleset)} {view.white_name} {points['white']}"
    black = f"{points['black']} {view.black_name} {side_name('black', ruleset)}"
    score = f"{white} – {black}"
    turn = view.turn_user_id
    if turn is None:
        return score
    line = f"{score}\nTurn {game.ply + 1}: {name(turn)} to move ({side_name(game.turn, ruleset)})."
    clock = clock_line(view, name, when=when)
    return f"{line}\n{clock}" if clock else line


def plain_time(moment: datetime) -> str:
    """'21 Nov 2026 17:05 UTC': a moment for front ends without Discord's timestamps."""
    return f"{moment:%d %b %Y %H:%M} UTC"


def clock_line(view: BoardView, name: Namer, *, when: When | None = None) -> str | None:
    """The time the player to move has (``None`` without a time limit). ``when`` shows the
    deadline; by default it is written as a duration and a UTC time."""
    clock, turn = view.clock, view.turn_user_id
    if clock is None or turn is None:
        return None
    if clock.deadline_at is None:
        return (
            f"Clock paused: {name(turn)} has {duration_text(clock.time_left)} left for this "
            "move. Either player can restart it with /jarmo resume."
        )
    if when is None:
        shown = f"within {duration_text(clock.time_left)} (by {plain_time(clock.deadline_at)})"
    else:
        shown = when(clock.deadline_at)
    return f"{clock.time_per_move} per move: {name(turn)} must move {shown} or loses on time."


def ending_line(summary: GameSummary, name: Namer) -> str:
    """'Ann wins game 1, 7–4 (every remaining piece …).'"""
    record = summary.game
    why = _ENDINGS.get(record.termination or "", record.termination or "")
    pts = summary.points_by_player
    score = f"{pts[record.white_id]}–{pts[record.black_id]}"
    if summary.status == "aborted":
        return f"Game {record.index + 1} was aborted by a moderator; it does not count."
    if summary.winner_id is None:
        return f"Game {record.index + 1} is drawn, {score} ({why})."
    return f"{name(summary.winner_id)} wins game {record.index + 1}, {score} ({why})."


def standings_text(standings: Standings, name: Namer) -> str:
    """The match table: one line per game, totals, leader, games left, whose turn."""
    match = standings.match
    a, b = match.player_ids
    lines = [
        f"Match of {match.game_count} game{'s' if match.game_count > 1 else ''} · "
        f"{match.ruleset} / {match.layout}"
    ]
    white_side, black_side = side_name("white", match.ruleset), side_name("black", match.ruleset)
    for line in standings.games:
        white = f"{name(line.white_id)} ({white_side})"
        black = f"{name(line.black_id)} ({black_side})"
        if line.points_by_player is None:
            lines.append(f"Game {line.index + 1}: {white} v {black} — in play")
        else:
            pts = line.points_by_player
            lines.append(
                f"Game {line.index + 1}: {white} {pts[line.white_id]} – "
                f"{pts[line.black_id]} {black}{_status_note(line.status)}"
            )
    lines.append(f"Total: {name(a)} {standings.totals[a]} – {standings.totals[b]} {name(b)}")
    lines.append(_match_state(standings, name))
    lines.extend(rating_lines(standings.rating_changes, name))
    return "\n".join(lines)


def _status_note(status: str) -> str:
    return {
        "resigned": " · resigned",
        "stopped": " · stopped by agreement",
        "aborted": " · aborted",
        "timeout": " · lost on time",
    }.get(status, "")


def _match_state(standings: Standings, name: Namer) -> str:
    state = standings.match.state
    if state == "aborted":
        return "The match was aborted."
    if standings.over:
        if standings.winner_id is None:
            return "The match is drawn."
        how = " (by forfeit)" if state == "forfeited" else ""
        return f"{name(standings.winner_id)} wins the match{how}!"
    leader = "Level" if standings.leader_id is None else f"{name(standings.leader_id)} leads"
    left = f"{standings.games_left} game{'s' if standings.games_left != 1 else ''} left"
    turn = f"; {name(standings.turn_user_id)} to move" if standings.turn_user_id else ""
    return f"{leader} · {left}{turn}."


def report_text(
    report: Report, name: Namer, *, when: When | None = None, match_state: bool = True
) -> str:
    """What to say after an action: the move, then the result and match state if it ended.
    ``when`` shows the next deadline (see :func:`clock_line`); ``match_state=False`` leaves
    the match's state out, for a front end that shows the whole table right after."""
    view = report.board
    parts = []
    if report.action:
        parts.append(f"{name(report.actor_id)} played **{report.action}**.")
    elif report.ended and report.ended.status == "resigned":
        parts.append(f"{name(report.actor_id)} resigned.")
    elif report.ended and report.ended.status == "stopped":
        parts.append("The players agreed to stop the game here.")
    elif report.ended and report.ended.status == "timeout":
        parts.append(f"{name(report.actor_id)} ran out of time.")
    if report.ended:
        parts.append(ending_line(report.ended, name))
    else:
        parts.append(position_line(view, name, when=when))
    if report.standings and report.ended and match_state:
        parts.append(_match_state(report.standings, name))
        parts.extend(rating_lines(report.standings.rating_changes, name))
    if report.next_board:
        nb = report.next_board
        white = side_name("white", nb.match.ruleset)
        parts.append(
            f"Next: game {nb.game.index + 1} — {name(nb.game.white_id)} has {white} now; "
            f"{name(nb.game.white_id)} to move."
        )
    return "\n".join(parts)


def challenge_text(view: ChallengeView, name: Namer, *, expires: str) -> str:
    """The challenge announcement; ``expires`` is how the front end shows the expiry time."""
    record = view.challenge
    opts = record.options
    games = f"a match of {opts.game_count} games" if opts.game_count > 1 else "a game"
    challenger = name(record.challenger_id)
    if opts.side == "random":
        side = "sides drawn at random"
    else:
        side = f"{challenger} plays {side_name(opts.side, opts.ruleset)} first"
    if opts.time_per_move_seconds is not None:
        side += f"; {duration_text(opts.time_per_move_seconds)} per move"
    return (
        f"{challenger} challenges {name(record.challenged_id)} to {games} of Jarmo "
        f"({opts.ruleset} rules, {opts.layout} board; {side}). "
        f"The challenge expires {expires}."
    )


def reminder_text(
    user_id: int, deadline: datetime, name: Namer, *, when: When | None = None
) -> str:
    """The nudge to a player whose time for a move is running out."""
    shown = when(deadline) if when else f"by {plain_time(deadline)}"
    return (
        f"{name(user_id)}, it is your move in this channel's Jarmo game. Your time runs out "
        f"{shown}; move before then or you lose the match on time."
    )


def pause_offer_text(offer: PauseOffer, name: Namer) -> str:
    """The offer to stop the clock, addressed to the opponent."""
    return (
        f"{name(offer.offered_by)} asks to pause the clock of this game. "
        f"{name(offer.answer_by)}, do you agree? While it is paused no moves can be made; "
        "either player restarts it with /jarmo resume. (The offer lapses with the next move.)"
    )
