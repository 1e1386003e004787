"""The alternative text of the images the bot posts, for screen readers: the position in words
(whose move, the last move, the score), a replay's game, a rating chart's course.

Names are the players' display names, never mentions: a screen reader would read a mention's
markup aloud, and Discord does not resolve mentions in an attachment's description."""

from __future__ import annotations

from bot.jarmo import Side
from bot.service.models import BoardView
from bot.service.stats_models import GameExport, PlayerProfile
from bot.words.game import side_label
from bot.words.voice import Voice

DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description


def board_description(view: BoardView, voice: Voice) -> str:
    """'Jarmo board, game 1 of 2. Score: White Ann 5, Black Bob 5. Last move: A1-C2. Bob to
    move (Black).' — or, once the game is over, who won it."""
    _ = voice.gettext
    record, match = view.game, view.match
    game = record.engine
    names: dict[Side, str] = {"white": view.white_name, "black": view.black_name}
    points = game.points()
    parts = [
        _("Jarmo board, game {number} of {count}.").format(
            number=record.index + 1, count=match.game_count
        ),
        _(
            "Score: {white_side} {white} {white_points}, {black_side} {black} {black_points}."
        ).format(
            white_side=side_label("white", match.ruleset, voice),
            white=names["white"],
            white_points=points["white"],
            black_side=side_label("black", match.ruleset, voice),
            black=names["black"],
            black_points=points["black"],
        ),
    ]
    history = game.history
    if history:
        parts.append(_("Last move: {move}.").format(move=history[-1]))
    else:
        parts.append(_("No move played yet."))
    parts.append(_ending_or_turn(view, names, voice))
    return _limited(" ".join(parts))


def _ending_or_turn(view: BoardView, names: dict[Side, str], voice: Voice) -> str:
    _ = voice.gettext
    record, ruleset = view.game, view.match.ruleset
    if view.turn_user_id is not None:
        turn = record.engine.turn
        return _("{player} to move ({side}).").format(
            player=names[turn], side=side_label(turn, ruleset, voice)
        )
    if record.status == "aborted":
        return _("The game was aborted.")
    if record.winner is None:
        return _("The game is over: a draw.")
    return _("The game is over: {player} ({side}) won.").format(
        player=names[record.winner], side=side_label(record.winner, ruleset, voice)
    )


def start_description(voice: Voice) -> str:
    """The starting position, as ``/jarmo rules`` shows it."""
    return voice.gettext(
        "Jarmo's starting position: a board of 5 by 5 points joined by lines, with White's five "
        "pieces on the bottom row and Black's five pieces on the top row."
    )


def replay_description(export: GameExport, voice: Voice) -> str:
    """'Animated replay of game 12, move by move: Ann (White) against Bob (Black), 31 moves,
    final score 7–4.'"""
    game = export.game
    moves = voice.ngettext("{count} move", "{count} moves", game.plies).format(count=game.plies)
    text = voice.gettext(
        "Animated replay of game {id}, move by move: {white_player} ({white}) against "
        "{black_player} ({black}), {moves}, final score {white_points}–{black_points}."
    ).format(
        id=game.id,
        white_player=export.white_name,
        white=side_label("white", game.ruleset, voice),
        black_player=export.black_name,
        black=side_label("black", game.ruleset, voice),
        moves=moves,
        white_points=game.points["white"],
        black_points=game.points["black"],
    )
    return _limited(text)


def chart_description(profile: PlayerProfile, voice: Voice) -> str:
    """'Ann's classic rating over 12 games, from 1000 to 1120.'"""
    trend = profile.trend
    games = max(len(trend) - 1, 0)
    text = voice.ngettext(
        "{player}'s {ruleset} rating over {count} game, from {first} to {last}.",
        "{player}'s {ruleset} rating over {count} games, from {first} to {last}.",
        games,
    ).format(
        player=profile.name,
        ruleset=profile.trend_ruleset or "",
        count=games,
        first=round(trend[0]) if trend else 0,
        last=round(trend[-1]) if trend else 0,
    )
    return _limited(text)


def _limited(text: str) -> str:
    """``text`` cut to Discord's limit (a description past it makes the whole message fail)."""
    if len(text) <= DESCRIPTION_LIMIT:
        return text
    return text[: DESCRIPTION_LIMIT - 1] + "…"
