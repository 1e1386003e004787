"""Wording of a tournament's table: the words drawn on the standings image, and the same table
as text for screen readers."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_
from bot.render import halves
from bot.service.tournaments.draw import Format, RoundCell, Standing, Standings
from bot.words.voice import Voice

_FORMATS = {"round-robin": N_("Round robin"), "swiss": N_("Swiss")}


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
    format: Format,
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
    format: Format,
    played: int,
    rounds: int,
    in_progress: int | None,
    final: bool | None,
) -> str:
    """'Swiss · after round 3 of 5', 'Swiss · after round 1 of 5 · round 2 in progress', or
    'Round robin · final table'."""
    _ = voice.gettext
    kind = _(_FORMATS[format])
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
    standings: Standings,
    voice: Voice,
    *,
    title: str,
    format: Format,
    rounds: int,
    final: bool | None = None,
) -> list[str]:
    """The table as text, a heading and then one line per player, best first, for screen
    readers and as the image's description (the caller splits it across messages).
    ``final`` as for :func:`table_words`."""
    state = _table_state(voice, format, standings.rounds, rounds, standings.in_progress, final)
    heading = voice.strong(f"{title} · {state}")
    return [heading, *(_player_line(row, voice) for row in standings.rows)]


def _player_line(row: Standing, voice: Voice) -> str:
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


def _round_phrase(cell: RoundCell, voice: Voice) -> str:
    """'Round 2: won against @Bob, 8–4, started.'"""
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
    return _("{phrase}, started.").format(phrase=phrase) if cell.started else f"{phrase}."
