"""Wording of a player's unfinished games in every server (``/jarmo games``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.service.player_games import PAGE_SIZE, PlayerGameLine, PlayerGamesPage
from bot.words.game import duration_text
from bot.words.voice import Voice


def player_games_title(page: PlayerGamesPage, voice: Voice) -> str:
    """'Your unfinished games: 12, your move in 3 · page 1 of 2'."""
    title = voice.gettext("Your unfinished games: {count}, your move in {waiting}").format(
        count=page.total, waiting=page.waiting
    )
    if page.pages == 1:
        return title
    return voice.gettext("{title} · page {page} of {pages}").format(
        title=title, page=page.page + 1, pages=page.pages
    )


def player_games_text(
    page: PlayerGamesPage,
    voice: Voice,
    *,
    server_name: Callable[[int | None], str],
    link: Callable[[PlayerGameLine], str],
) -> str:
    """One line a game: whose move, the server, the opponent, the ruleset, the match's score,
    the time left and ``link`` (a jump to the game's boards, or how to reach it)."""
    number = page.page * PAGE_SIZE + 1
    return "\n".join(
        _line(index, line, voice, server_name(line.guild_id), link(line))
        for index, line in enumerate(page.lines, number)
    )


def _line(number: int, line: PlayerGameLine, voice: Voice, server: str, link: str) -> str:
    _ = voice.gettext
    turn = voice.strong(_("Your move")) if line.to_move else _("Their move")
    score = _("game {number} of {count}, {mine}–{theirs}").format(
        number=line.game_number, count=line.game_count, mine=line.score[0], theirs=line.score[1]
    )
    return _(
        "{number}. {turn} · {server} · against {opponent} · {ruleset} · {score} · {clock} · {link}"
    ).format(
        number=number,
        turn=turn,
        server=server,
        opponent=line.opponent_name,
        ruleset=line.ruleset,
        score=score,
        clock=_clock(line, voice),
        link=link,
    )


def _clock(line: PlayerGameLine, voice: Voice) -> str:
    if line.time_left is None:
        return voice.gettext("no time limit")
    left = duration_text(line.time_left, voice)
    if line.clock_paused:
        return voice.gettext("clock paused, {time} left").format(time=left)
    return voice.gettext("{time} left").format(time=left)


def no_games_text(voice: Voice) -> str:
    """What a player without unfinished games can do."""
    return voice.gettext(
        "You have no unfinished games in any server. Start one with {challenge}: name a member,"
        " or this bot to play the computer."
    ).format(challenge=voice.command("challenge"))
