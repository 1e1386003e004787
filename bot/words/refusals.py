"""What a player reads when a use case refuses: what happened, and what to do instead."""

from __future__ import annotations

from bot.i18n import N_
from bot.jarmo import DEFAULT_LAYOUT, IllegalMove, JarmoError, NotationError, Side, side_name
from bot.jarmo.errors import Problem
from bot.jarmo.notation import MAX_INPUT_LENGTH
from bot.service.errors import Code, Field, Refusal
from bot.words.game import duration_text
from bot.words.tournaments import is_tournament_refusal, tournament_refusal_text
from bot.words.voice import Voice

# Messages that need nothing but the front end's command names. The fields of each refusal are
# passed too, so a translation may use them.
_MESSAGES: dict[Code, str] = {
    Code.NO_GAME: N_("There is no game in this channel. Start one with {challenge}."),
    Code.NO_MATCH: N_("No match has been played in this channel yet. Start one with {challenge}."),
    Code.NOT_A_PLAYER: N_(
        "You are not playing in this channel's game. Watch with {board}, or start your own game "
        "in another channel."
    ),
    Code.COMPUTER_THINKING: N_("Wait for the computer's move, then ask for a hint."),
    Code.CHANNEL_HAS_GAME: N_(
        "This channel already has a game in progress. Finish it first, or play in another channel."
    ),
    Code.CHANNEL_HAS_CHALLENGE: N_(
        "This channel already has a pending challenge. Finish it first, or play in another channel."
    ),
    # A move refusal normally carries the engine's reason (see move_refusal_text); these are
    # for one that does not.
    Code.UNREADABLE_MOVE: N_("I can't read that move. Your move was not played."),
    Code.ILLEGAL_MOVE: N_("That move is not allowed here. Your move was not played."),
    Code.SELF_CHALLENGE: N_("You can't challenge yourself. Pick another member."),
    Code.BOT_OPPONENT: N_("{name} is a bot and can't play. Challenge a person instead."),
    Code.UNKNOWN_LEVEL: N_("Choose easy, medium or hard for the computer."),
    Code.BAD_GAME_COUNT: N_("A match has 1, 2, 4 or 6 games."),
    Code.UNKNOWN_RULESET: N_("Unknown ruleset {name!r}; choose one of {known}."),
    Code.UNKNOWN_SIDE: N_("Choose white, black or random for your side."),
    Code.BAD_TIME_LIMIT: N_(
        "{text!r} is not a time per move. Use minutes, hours or days such as 30m, 2h, 1d or 3d "
        "(from 1 minute to 14 days), or none for no limit."
    ),
    Code.COMPUTER_HAS_NO_CLOCK: N_(
        "Games against the computer have no time limit; leave time_per_move empty."
    ),
    Code.CHALLENGE_GONE: N_("That challenge no longer exists. Start a new one with {challenge}."),
    Code.CHALLENGE_EXPIRED: N_("This challenge has expired. Start a new one with {challenge}."),
    Code.BAD_RATING_RANGE: N_(
        "{text!r} is not a rating range. Give the lowest and the highest rating, lowest first, "
        "such as 1000-1300."
    ),
    Code.RATING_RANGE_NEEDS_OPEN_CHALLENGE: N_(
        "A rating range is only for a challenge to anyone. Leave out the opponent to challenge "
        "anyone, or leave out rating_range."
    ),
    Code.OUTSIDE_RATING_RANGE: N_(
        "This challenge is for players rated {lowest}-{highest} in {ruleset}; your rating here "
        "is {rating}. Start your own with {challenge}."
    ),
    Code.OWN_OPEN_CHALLENGE: N_(
        "This is your own challenge: wait for someone to accept it, or use Withdraw."
    ),
    Code.ONLY_CHALLENGER_CANCELS: N_(
        "Only the challenger can cancel this challenge. Start your own with {challenge}."
    ),
    Code.ONLY_ASKED_ACCEPTS_PAUSE: N_(
        "Only the player the pause was offered to can accept it. To offer one yourself, use "
        "{pause}."
    ),
    Code.ONLY_ASKED_ACCEPTS_STOP: N_(
        "Only the player the offer was made to can accept it. To make your own offer, use {stop}."
    ),
    Code.COMPUTER_PLAYS_ON: N_(
        "The computer plays every game to the end. Use {resign} to give up."
    ),
    Code.ABORT_NEEDS_MANAGER: N_(
        "Only members who can manage this channel can abort a game. Players can use {resign} or "
        "{stop} instead."
    ),
    Code.NOT_HERE: N_(
        "That button belongs to a challenge or match in another chat, so it does nothing here. "
        "Use it where it was posted."
    ),
    Code.HINT_NEEDS_COMPUTER: N_(
        "Hints are only for games against the computer. To play it, use {challenge} and pick the "
        "bot as your opponent."
    ),
    Code.CHANGED_MEANWHILE: N_(
        "Another action was applied to this game at the same moment. Look at the board "
        "({board}) and try again."
    ),
    Code.GAME_ALREADY_ENDED: N_(
        "That game has already ended. Use {resign} again to resign this one."
    ),
    Code.STOP_OFFER_OUTDATED: N_(
        "The game has moved on since that offer. Use {stop} to offer again."
    ),
    Code.PAUSE_OFFER_OUTDATED: N_(
        "The game has moved on since that offer. Use {pause} to offer again."
    ),
    Code.CLOCK_PAUSED: N_(
        "The clock is paused, so no moves can be made. Use {resume} to restart it (either "
        "player can)."
    ),
    Code.TIME_UP: N_("The time for this move has run out, so the game is lost on time."),
    Code.NO_CLOCK: N_(
        "This match has no time limit per move, so there is no clock to pause: take as long as "
        "you need."
    ),
    Code.ALREADY_PAUSED: N_("The clock is already paused. Use {resume} to restart it."),
    Code.NOT_PAUSED: N_(
        "The clock is not paused. To stop it, use {pause}; your opponent has to agree."
    ),
    Code.OPPONENT_HAS_TIME: N_(
        "This game has no time limit per move, so there is no win on time to claim."
    ),
    Code.MOVER_CANNOT_CLAIM: N_(
        "It is your move, so there is no win on time for you to claim: only your opponent can "
        "claim one, once your time has run out. Play on with {move}."
    ),
    Code.CLAIM_OUTDATED: N_(
        "That game has already ended, so there is nothing to claim. Look at the board ({board})."
    ),
    Code.NO_RATINGS: N_(
        "Nobody on this server has a {ruleset} rating yet. Finish a {ruleset} game against "
        "another member ({challenge}) to get on the board."
    ),
    Code.NO_STATS: N_(
        "{name} has not finished a game on this server yet, so there are no stats to show. "
        "Challenge them with {challenge}!"
    ),
    Code.NO_HISTORY: N_(
        "{name} has no finished games on this server yet. Start one with {challenge}."
    ),
    Code.NO_HISTORY_AGAINST: N_(
        "{name} has no finished games against {opponent} on this server yet. Start one with "
        "{challenge}."
    ),
    Code.GAME_NOT_IN_HISTORY: N_(
        "That game is not in this server's history (it may still be in play). Pick one from "
        "{history}."
    ),
    Code.TOURNAMENT_NOT_IN_HISTORY: N_(
        "That tournament is not in this server's history (it may not have finished yet). Pick "
        "one from {history}."
    ),
    Code.GAME_DAMAGED: N_(
        "The record of this channel's game is damaged, so it cannot be played or shown. A "
        "member who can manage the channel can end it with {abort} (nothing counts); then a new "
        "game can start here."
    ),
    Code.DATABASE_BUSY: N_(
        "The bot's database is busy right now, so nothing was changed. Please try again in a "
        "moment."
    ),
    Code.DATABASE_FULL: N_(
        "The bot cannot save anything right now (its storage is full), so nothing was changed. "
        "Please try again later; the people who run the bot have been told."
    ),
    # reviews
    Code.NO_GAME_TO_REVIEW: N_(
        "There is no finished game here to review. Pick one of your games from {history}, or "
        "play one with {challenge}."
    ),
    Code.REVIEW_GAME_RUNNING: N_(
        "That game is still being played. It can be reviewed once it has ended."
    ),
    Code.REVIEW_GAME_ABORTED: N_(
        "That game was aborted and does not count, so there is nothing to review. Pick another "
        "from {history}."
    ),
    Code.REVIEW_OTHER_SERVER: N_(
        "That game was played on another server, so it cannot be reviewed here. Pick one of "
        "this server's games from {history}."
    ),
    # rematches and server settings
    Code.REMATCH_ONLY_PLAYERS: N_(
        "Only the two players of that match can ask for a rematch. Start your own match with "
        "{challenge}."
    ),
    Code.MATCH_NOT_OVER: N_(
        "That match is still being played; a rematch can be offered once it has ended."
    ),
    Code.OPPONENT_LEFT: N_(
        "{name} is no longer a member of this server, so there can be no rematch. Challenge "
        "someone else with {challenge}."
    ),
    Code.SETTINGS_NEED_MANAGER: N_(
        "Only members who can manage this server can change its Jarmo settings."
    ),
    Code.UNKNOWN_LANGUAGE: N_("Unknown language {name!r}; choose one of {known}."),
    Code.WEB_PAGES_OFF: N_(
        "This server's web page is off. Someone who can manage the server can turn it on."
    ),
    Code.NO_VACATION_DAYS_LEFT: N_(
        "You have no vacation left this year (each player has {days} days a year), so your "
        "clocks keep running. See {vacation_status}; new days come on 1 January."
    ),
    Code.ALREADY_ON_VACATION: N_(
        "You are on vacation already. Come back with {vacation_end}, or see how long it lasts "
        "with {vacation_status}."
    ),
    Code.NOT_ON_VACATION: N_(
        "You are not on vacation, so there is none to end. Go away with {vacation_start}."
    ),
    # takebacks
    Code.NO_MOVE_TO_TAKE_BACK: N_(
        "You have not moved in this game yet, so there is no move of yours to take back."
    ),
    Code.OPPONENT_ALREADY_MOVED: N_(
        "Your opponent has already answered your last move, so it can no longer be taken back. "
        "Play on with {move}."
    ),
    Code.TAKEBACK_PENDING: N_(
        "You have already asked to take back this move. Wait for your opponent's answer."
    ),
    Code.TAKEBACK_IN_TOURNAMENT: N_(
        "Moves cannot be taken back in tournament games. Play on with {move}."
    ),
    Code.TAKEBACKS_OFF: N_(
        "This server has turned takebacks off in rated games. Play on with {move}."
    ),
    Code.ONLY_ASKED_ANSWERS_TAKEBACK: N_(
        "Only the player who was asked can answer this takeback. To take back your own last "
        "move, use {takeback}."
    ),
    Code.TAKEBACK_OUTDATED: N_(
        "The game has moved on since that takeback was asked for. Look at the board ({board})."
    ),
}

_COMMANDS = (
    "abort", "board", "challenge", "history", "move", "pause", "resign", "resume", "stop",
    "takeback",
)  # fmt: skip
_SUBCOMMANDS = ("vacation_start", "vacation_end", "vacation_status")  # '/jarmo vacation end'

# The fields that may hold what a player typed or chose (a time per move, a ruleset's or a
# language's name, a display name): a message repeats at most the start of it, so that no
# answer outgrows a Discord message.
_ECHOED = frozenset({"text", "name", "opponent", "ruleset", "level", "side"})


def echo(text: str) -> str:
    """What a player typed, cut to the length of the longest move the bot reads."""
    if len(text) <= MAX_INPUT_LENGTH:
        return text
    return text[:MAX_INPUT_LENGTH] + "…"


def refusal_text(refusal: Refusal, voice: Voice) -> str:
    """The message for ``refusal`` in the reader's language, naming commands as they type them."""
    _ = voice.gettext
    echoed = {
        name: echo(value) if name in _ECHOED and isinstance(value, str) else value
        for name, value in refusal.fields.items()
    }
    refusal = _with_fields(refusal, echoed)
    if is_tournament_refusal(refusal):
        return tournament_refusal_text(refusal, voice)
    fields = {name: voice.command(name) for name in _COMMANDS} | dict(refusal.fields)
    fields |= {name: voice.command(name.replace("_", " ")) for name in _SUBCOMMANDS}
    match refusal.code:
        case Code.NOT_YOUR_TURN:
            return _("It is {name}'s turn ({side}). Wait for their move.").format(
                name=refusal.fields["name"], side=_side(refusal, voice)
            )
        case Code.OPPONENT_HAS_TIME if "seconds" in refusal.fields:
            return _(
                "Your opponent still has {left} for this move. You can claim the win once their "
                "time has run out."
            ).format(left=duration_text(int(refusal.fields["seconds"]), voice))
        case Code.UNREADABLE_MOVE | Code.ILLEGAL_MOVE if isinstance(refusal.cause, JarmoError):
            return move_refusal_text(refusal.cause, voice)
        case Code.CHALLENGE_ANSWERED:
            status = str(refusal.fields["status"])
            fields["status"] = _(_STATUSES.get(status, status))
            return _(
                "This challenge was already {status}. Start a new one with {challenge}."
            ).format(**fields)
        case Code.ONLY_CHALLENGED_ANSWERS:
            if refusal.fields.get("answer") == "decline":
                return _(
                    "Only the challenged player can decline this challenge. If it is your own "
                    "challenge, use Withdraw."
                ).format(**fields)
            return _(
                "Only the challenged player can accept this challenge. Start your own with "
                "{challenge}."
            ).format(**fields)
    return _(_MESSAGES[refusal.code]).format(**fields)


def _with_fields(refusal: Refusal, fields: dict[str, Field]) -> Refusal:
    """``refusal`` as it is, or a copy of it with these fields."""
    if fields == refusal.fields:
        return refusal
    return Refusal(refusal.code, cause=refusal.cause, **fields)


_STATUSES = {
    "accepted": N_("accepted"),
    "declined": N_("declined"),
    "cancelled": N_("cancelled"),
    "expired": N_("expired"),
}


def _side(refusal: Refusal, voice: Voice) -> str:
    side: Side = "white" if refusal.fields.get("side") == "white" else "black"
    return voice.gettext(side_name(side, str(refusal.fields.get("ruleset", ""))))


# -- the rules engine's refusals -------------------------------------------------------------------

_EXPECTED_ACTION = N_(
    "expected a step such as A1-C2 (from point, to point), a redeploy such as @B1, or in ludos a "
    "step with a place such as D3-E5@B1. Points are a letter A–E and a digit 1–5."
)
_EXPECTED_POINT = N_("expected a point such as B1: a letter A–E and a digit 1–5.")

_PROBLEMS: dict[Problem, str] = {
    Problem.GAME_OVER: N_("The game is over; no more moves can be played."),
    Problem.NOT_ALLOWED: N_("That action is not allowed in this position."),
    Problem.NO_PIECE: N_("There is no piece on {point}."),
    Problem.IN_ENEMY_CAMP: N_(
        "Your piece on {point} stands in the enemy camp and can never move again."
    ),
    Problem.OWN_PIECE_THERE: N_("Your own piece is already on {point}."),
    Problem.SHUFFLING: N_(
        "No shuffling: you have played {origin}-{target} and back twice in a row; make a "
        "different move first."
    ),
    Problem.PLACE_NEEDS_LUDOS: N_(
        "Only ludos lets you place a piece together with a step; play {origin}-{target} alone."
    ),
    Problem.NOTHING_RECOVERED: N_(
        "That step recovers no piece (only a guard entering the enemy camp while you have a "
        "captured piece does), so there is nothing to place."
    ),
    Problem.NOT_IN_CAMP: N_("{point} is not in your camp; pieces come back on row {row}."),
    Problem.POINT_TAKEN: N_("{point} is not empty; choose an empty point of your camp."),
    Problem.NO_RESERVE: N_(
        "You have no piece in reserve to place (a guard that reaches the enemy camp recovers "
        "one of your captured pieces)."
    ),
    Problem.NO_CAPTURED: N_("You have no captured piece to redeploy."),
    Problem.NO_MARKED_PIECE: N_(
        "To redeploy you need a marked piece (one that has captured) standing in the enemy camp."
    ),
    Problem.CAMP_FULL: N_("Your camp has no empty point, so you cannot redeploy this turn."),
    # Only jasir forbids a step, and only one away from the enemy camp: sideways is allowed.
    Problem.BACKWARDS: N_(
        "In {ruleset}, pieces never step back, away from the enemy camp; {origin}-{target} goes "
        "backwards."
    ),
}


def move_refusal_text(error: JarmoError, voice: Voice) -> str:
    """Why the rules engine refused a move, and that it was not played."""
    _ = voice.gettext
    if isinstance(error, IllegalMove):
        reason = _illegal_text(error, voice)
        if voice.autocomplete:
            advice = _("Your move was not played; try another (autocomplete lists the legal ones).")
        else:
            advice = _("Your move was not played; try another.")
        return f"{reason} {advice}"
    assert isinstance(error, NotationError)
    not_played = _("Your move was not played.")
    return f"{_notation_text(error, voice)} {not_played}"


def _notation_text(error: NotationError, voice: Voice) -> str:
    _ = voice.gettext
    details = error.details
    expected = _(_EXPECTED_POINT) if details.get("wanted") == "point" else _(_EXPECTED_ACTION)
    if error.problem is Problem.NOT_A_POINT:
        why = _("{token} is not a point on the board; {expected}").format(
            token=details["token"], expected=expected
        )
    elif error.problem is Problem.SAME_POINT:
        why = _("a step must go to another point; {expected}").format(expected=expected)
    elif error.problem is Problem.TOO_LONG:
        why = _("that is {length} characters long; a move is at most {limit}. {expected}").format(
            length=details["length"], limit=details["limit"], expected=expected
        )
    else:
        why = expected
    shown = echo(error.text.strip())
    if not shown:
        return _("I can't read an empty move: {why}").format(why=why)
    return _("I can't read {text!r}: {why}").format(text=shown, why=why)


def _illegal_text(error: IllegalMove, voice: Voice) -> str:
    _ = voice.gettext
    details = error.details
    if error.problem is Problem.NOT_YOUR_PIECE:
        owner: Side = "white" if details["owner"] == "white" else "black"
        return _("The piece on {point} is {side}'s, not yours.").format(
            point=details["point"], side=_(side_name(owner, details["ruleset"]))
        )
    if error.problem is Problem.NO_LINE:
        if details["layout"] == DEFAULT_LAYOUT:
            no_line = _("No line joins {origin} and {target} on the published board.")
        else:  # an older board, by its untranslated name
            no_line = _("No line joins {origin} and {target} on the {layout} board.")
        no_line = no_line.format(**details)
        if details["options"]:
            options = _("From {origin} you can go to {options}.").format(**details)
        else:
            options = _("The piece on {origin} has no move right now.").format(**details)
        return f"{no_line} {options}"
    return _(_PROBLEMS[error.problem]).format(**details)
