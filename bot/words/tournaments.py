"""Wording of a tournament: the sign-up message, each round's pairings, the end, the
tournament refusals, and the table (the words drawn on the standings image, and the same table
as text for screen readers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import N_
from bot.render import halves
from bot.service.errors import Code, Refusal
from bot.service.models import CountedResult
from bot.service.tournaments import draw
from bot.service.tournaments.views import ForcedMatch, ForcedRound, RoundView, TournamentView
from bot.words.game import board_name, counted_line
from bot.words.voice import Voice

_FORMATS = {"round-robin": N_("round robin"), "swiss": N_("Swiss")}

# The tournament's commands as each front end names them, for the messages below.
_COMMANDS = {
    "start": "tournament start",
    "leave": "tournament leave",
    "create": "tournament create",
    "standings": "tournament standings",
    "pairings": "tournament pairings",
}

REFUSALS: dict[Code, str] = {
    Code.TOURNAMENT_NEEDS_MANAGER: N_(
        "Only members who can manage this server (or have its tournament role) can run "
        "tournaments. Ask one of them."
    ),
    Code.TOURNAMENT_NEEDS_SERVER: N_(
        "Tournaments need Jarmo added to the server: it posts each round by itself. A server "
        "admin can add it from Jarmo's profile (Add App → Add to Server)."
    ),
    Code.TOURNAMENT_IN_CHANNEL: N_(
        "This channel already has a tournament in sign-up or under way. Finish it first, or "
        "run the new one in another channel."
    ),
    Code.NO_TOURNAMENT: N_("There is no tournament in this channel. A moderator can use {create}."),
    Code.BAD_TOURNAMENT_FORMAT: N_("Choose round-robin or swiss as the format."),
    Code.BAD_TOURNAMENT_GAMES: N_("A tournament match has 2, 4 or 6 games."),
    Code.BAD_TOURNAMENT_ROUNDS: N_("Choose from 1 to {most} rounds, or leave rounds empty."),
    Code.BAD_TOURNAMENT_NAME: N_("Give the tournament a name of 1 to {most} characters."),
    Code.TOO_MANY_ROUNDS: N_(
        "{count} players can play at most {most} rounds, not {rounds}. Create it again with "
        "fewer rounds, or wait for more players."
    ),
    Code.PLAYER_LEFT_SERVER: N_(
        "{name} has left this server. Take them off the list with {leave} (player: {name}), "
        "then start again."
    ),
    Code.SIGNUP_CLOSED: N_(
        "Sign-up for this tournament is over: it has started. Watch it with {standings}."
    ),
    Code.TOURNAMENT_NOT_RUNNING: N_(
        "This channel's tournament is not under way. A moderator starts it with {start}."
    ),
    Code.NOT_IN_TOURNAMENT: N_(
        "That player is not (or no longer) in this channel's tournament. See who is with "
        "{standings}."
    ),
    Code.NO_SUCH_ROUND: N_(
        "Round {round} has not been paired; the tournament is in round {current}. Use "
        "{pairings} without a round for the current one."
    ),
}


def tournament_refusal_text(refusal: Refusal, voice: Voice) -> str:
    """The message for a tournament refusal, naming the commands as the reader types them."""
    _ = voice.gettext
    fields = {key: voice.command(name) for key, name in _COMMANDS.items()} | dict(refusal.fields)
    if refusal.code is Code.TOO_FEW_PLAYERS:
        count = int(refusal.fields.get("count", 0))
        joined = voice.ngettext(
            "Only {count} player has joined.", "Only {count} players have joined.", count
        ).format(count=count)
        need = _("A tournament needs at least {least}; wait for more to press Join.")
        return f"{joined} {need.format(**fields)}"
    return _(REFUSALS[refusal.code]).format(**fields)


def is_tournament_refusal(refusal: Refusal) -> bool:
    """Whether ``refusal`` is worded here."""
    return refusal.code in REFUSALS or refusal.code is Code.TOO_FEW_PLAYERS


def format_name(format: draw.Format, voice: Voice) -> str:
    """'round robin' or 'Swiss' in the reader's language."""
    return voice.gettext(_FORMATS[format])


def signup_text(view: TournamentView, voice: Voice) -> str:
    """The sign-up message: the event, its settings, and who has joined so far."""
    _ = voice.gettext
    record = view.tournament
    rounds = (
        voice.ngettext("{rounds} round", "{rounds} rounds", record.rounds).format(
            rounds=record.rounds
        )
        if record.rounds
        else _("rounds to suit the field")
    )
    heading = voice.strong(record.name)
    settings = _("{format}, {rounds}, matches of {games} games ({ruleset}, {board}).").format(
        format=format_name(record.format, voice),
        rounds=rounds,
        games=record.game_count,
        ruleset=record.ruleset,
        board=board_name(record.layout, voice),
    )
    count = voice.ngettext(
        "{count} player signed up", "{count} players signed up", view.player_count
    ).format(count=view.player_count)
    players = ", ".join(voice.name(entry.user_id) for entry in view.entries)
    lines = [f"{heading} · {settings}", f"{count}{': ' + players if players else '.'}"]
    if record.status == "signup":
        lines.append(
            _("Press Join to play. A moderator starts it with {start}.").format(
                start=voice.command(_COMMANDS["start"])
            )
        )
    else:
        lines.append(voice.quiet(_("Sign-up is closed.")))
    return "\n".join(lines)


def round_lines(view: RoundView, voice: Voice, where: Callable[[int], str]) -> list[str]:
    """A round's boards, one line each: who meets whom and where (``where`` shows a channel
    id), the result once decided, and the bye."""
    _ = voice.gettext
    heading = _("Round {number} of {name}").format(number=view.number, name=view.tournament.name)
    lines = [voice.strong(heading)]
    for pairing in view.pairings:
        first = voice.name(pairing.first_id)
        if pairing.second_id is None:
            lines.append(_("{player} has a bye (one match win).").format(player=first))
            continue
        second = voice.name(pairing.second_id)
        channel = view.channels.get(pairing.board)
        line = _("{first} vs {second}").format(first=first, second=second)
        if channel is not None:
            line = _("{match} in {place}").format(match=line, place=where(channel))
        if pairing.decided:
            line = f"{line} — {_result(pairing.winner_id, pairing.forfeit, voice)}"
        lines.append(line)
    return lines


def _result(winner: int | None, forfeit: bool, voice: Voice) -> str:
    _ = voice.gettext
    if winner is None:
        return _("drawn")
    if forfeit:
        return _("{player} wins by forfeit").format(player=voice.name(winner))
    return _("{player} wins").format(player=voice.name(winner))


def round_started_note(voice: Voice) -> str:
    """Under a newly paired round: how results come in."""
    return voice.gettext(
        "Each match is played in its own thread; its result counts as soon as it ends. The next "
        "round is paired when every match has ended."
    )


def final_heading(name: str, winner: int | None, voice: Voice) -> str:
    """The first line of the final table's post."""
    _ = voice.gettext
    if winner is None:
        return voice.strong(_("{name} is over.").format(name=name))
    return voice.strong(
        _("{name} is over: {player} wins!").format(name=name, player=voice.name(winner))
    )


def forced_text(forced: ForcedRound, match: ForcedMatch, voice: Voice) -> str:
    """What a match's thread is told when a moderator ends its round: who did, and the result
    the table counts."""
    _ = voice.gettext
    counted = CountedResult(match.result.winner_id, match.points, match.result.forfeit)
    told = _(
        "{moderator} ended round {number} of {name} before this match was over. The games "
        "finished so far decide it; the game in play does not count."
    ).format(
        moderator=voice.name(forced.moderator_id),
        number=forced.round.number,
        name=forced.round.tournament.name,
    )
    return f"{told}\n{counted_line((match.first_id, match.second_id), counted, voice)}"


# As a table heading starts: capitalised, unlike in a sentence.
_FORMAT_HEADINGS = {"round-robin": N_("Round robin"), "swiss": N_("Swiss")}


@dataclass(frozen=True, slots=True)
class TableWords:
    """Everything the standings image writes (``bot.render.render_standings_table``'s
    ``words``). ``round_heading`` is a template with ``{number}``."""

    title: str
    subtitle: str
    rank: str
    player: str
    match_points: str
    game_points: str
    buchholz: str
    sonneborn_berger: str
    round_heading: str
    bye: str
    forfeit: str
    withdrawn: str
    legend: str


def table_words(
    voice: Voice,
    *,
    title: str,
    format: draw.Format,
    played: int,
    rounds: int,
    in_progress: int | None = None,
    final: bool | None = None,
) -> TableWords:
    """The image's words in the reader's language; ``title`` is the event's own name.
    ``played`` rounds are over, ``in_progress`` is being played; ``final`` (default: every
    planned round played) says the event has ended."""
    _ = voice.gettext
    return TableWords(
        title=title,
        subtitle=_table_state(voice, format, played, rounds, in_progress, final),
        # TRANSLATORS: column headings of the standings image; keep them short.
        rank=_("#"),
        player=_("Player"),
        match_points=_("MP"),
        game_points=_("GP"),
        buchholz=_("BH"),
        sonneborn_berger=_("SB"),
        # TRANSLATORS: a round's column heading, e.g. "R3".
        round_heading=_("R{number}"),
        bye=_("bye"),
        # TRANSLATORS: marks a result decided without play, e.g. "+5ff".
        forfeit=_("ff"),
        withdrawn=_("withdrew"),
        # TRANSLATORS: the image's key; keep the " · " between parts, lines break there.
        legend=_(
            "MP match points (win 2, draw 1, bye 2) · GP game points · "
            "BH Buchholz: the opponents' MP added up · "
            "SB Sonneborn-Berger: the MP of opponents beaten, plus half of those drawn with · "
            "+5 beat #5, =5 drew, \u22125 lost · \u25cf started the match · ff by forfeit"
        ),
    )


def _table_state(
    voice: Voice,
    format: draw.Format,
    played: int,
    rounds: int,
    in_progress: int | None,
    final: bool | None,
) -> str:
    """'Swiss · after round 3 of 5', 'Swiss · after round 1 of 5 · round 2 in progress', or
    'Round robin · final table'."""
    _ = voice.gettext
    kind = _(_FORMAT_HEADINGS[format])
    if final if final is not None else (played >= rounds and in_progress is None):
        return _("{format} · final table").format(format=kind)
    if in_progress is None:
        return _("{format} · after round {played} of {rounds}").format(
            format=kind, played=played, rounds=rounds
        )
    if played == 0:
        return _("{format} · round {number} of {rounds} in progress").format(
            format=kind, number=in_progress, rounds=rounds
        )
    return _("{format} · after round {played} of {rounds} · round {number} in progress").format(
        format=kind, played=played, rounds=rounds, number=in_progress
    )


def table_lines(
    standings: draw.Standings,
    voice: Voice,
    *,
    title: str,
    format: draw.Format,
    rounds: int,
    final: bool | None = None,
) -> list[str]:
    """The table as text, a heading and then one line per player, best first, for screen
    readers and as the image's description (the caller splits it across messages).
    ``final`` as for :func:`table_words`."""
    state = _table_state(voice, format, standings.rounds, rounds, standings.in_progress, final)
    heading = voice.strong(f"{title} · {state}")
    return [heading, *(_player_line(row, voice) for row in standings.rows)]


def _player_line(row: draw.Standing, voice: Voice) -> str:
    _ = voice.gettext
    totals = _(
        "{match_points} match points, {game_points} game points, Buchholz {buchholz}, "
        "Sonneborn-Berger {sonneborn_berger}"
    ).format(
        match_points=row.match_points,
        game_points=row.game_points,
        buchholz=row.buchholz,
        sonneborn_berger=halves(row.sonneborn_berger),
    )
    player = voice.name(row.player)
    if row.withdrawn:
        player = _("{player} (withdrew)").format(player=player)
    played = [_round_phrase(cell, voice) for cell in row.rounds if cell is not None]
    line = f"{row.rank}. {player}: {totals}."
    return f"{line} {' '.join(played)}" if played else line


def _round_phrase(cell: draw.RoundCell, voice: Voice) -> str:
    """'Round 2: won against @Bob, 8–4, started.', or 'Round 2: won against @Bob, 8–4
    (forced by @Mod), started.'"""
    _ = voice.gettext
    if cell.opponent is None:
        return _("Round {number}: bye.").format(number=cell.round)
    opponent = voice.name(cell.opponent)
    mine, theirs = cell.points
    phrases = {
        "win": _("Round {number}: won against {opponent}, {mine}–{theirs}"),
        "draw": _("Round {number}: drew with {opponent}, {mine}–{theirs}"),
        "loss": _("Round {number}: lost to {opponent}, {mine}–{theirs}"),
        "forfeit-win": _("Round {number}: won against {opponent} by forfeit"),
        "forfeit-loss": _("Round {number}: lost to {opponent} by forfeit"),
    }
    phrase = phrases[cell.outcome].format(
        number=cell.round, opponent=opponent, mine=mine, theirs=theirs
    )
    if cell.forced_by is not None:
        phrase = _("{phrase} (forced by {moderator})").format(
            phrase=phrase, moderator=voice.name(cell.forced_by)
        )
    return _("{phrase}, started.").format(phrase=phrase) if cell.started else f"{phrase}."
