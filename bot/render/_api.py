"""The public rendering functions (re-exported by ``bot.render``)."""

from __future__ import annotations

from bot.jarmo import Game
from bot.jarmo.position import Position
from bot.render._compose import compose
from bot.render._encode import to_png
from bot.render._replay import DEFAULT_FRAME_MS, replay_gif
from bot.render._result import ResultBanner
from bot.render._theme import Perspective, theme_for

DEFAULT_PLAYERS = ("White", "Black")


def render_position(
    position: Position,
    *,
    perspective: Perspective = "white",
    players: tuple[str, str] = DEFAULT_PLAYERS,
    result: ResultBanner | None = None,
) -> bytes:
    """PNG of ``position`` seen from ``perspective``; ``players`` are white's and black's names.

    ``result`` says how the game ended (a resignation, a timeout, a stop, an abort, or on the
    board); without it, the image shows the position's own outcome or whose turn it is.

    Raises ``ValueError`` for an unknown perspective or a piece on a point that does not exist.
    """
    _check(perspective, players)
    return to_png(compose(position, perspective, players, result), theme_for(position.ruleset))


def render_board(
    game: Game,
    *,
    perspective: Perspective = "white",
    players: tuple[str, str] = DEFAULT_PLAYERS,
    result: ResultBanner | None = None,
) -> bytes:
    """PNG of the game's current position (see :func:`render_position`)."""
    return render_position(game.position(), perspective=perspective, players=players, result=result)


def render_replay(
    game: Game,
    *,
    perspective: Perspective = "white",
    players: tuple[str, str] = DEFAULT_PLAYERS,
    frame_ms: int = DEFAULT_FRAME_MS,
    result: ResultBanner | None = None,
) -> bytes:
    """Animated GIF of every position of the game, start to now, the last one held longer and
    showing ``result`` if given (see :func:`render_position`).

    Raises ``ValueError`` for an unknown perspective or a non-positive ``frame_ms``.
    """
    _check(perspective, players)
    return replay_gif(game.positions(), perspective, players, frame_ms, result)


def _check(perspective: str, players: tuple[str, str]) -> None:
    if perspective not in ("white", "black"):
        raise ValueError(f"perspective must be 'white' or 'black', not {perspective!r}")
    if len(players) != 2:
        raise ValueError(f"players must be two names (white's, black's), not {len(players)}")
