"""The public rendering functions (re-exported by ``bot.render``)."""

from __future__ import annotations

from bot.jarmo import Game
from bot.jarmo.position import Position
from bot.render._encode import to_png
from bot.render._indexed import indexed_frame
from bot.render._replay import DEFAULT_FRAME_MS, replay_gif
from bot.render._result import ResultBanner
from bot.render._theme import Perspective
from bot.render._words import ENGLISH, ImageWords

DEFAULT_PLAYERS = ("", "")  # no names: each bar shows its side's colour, in the words given


def render_position(
    position: Position,
    *,
    perspective: Perspective = "white",
    players: tuple[str, str] = DEFAULT_PLAYERS,
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> bytes:
    """PNG of ``position`` seen from ``perspective``; ``players`` are white's and black's names.

    ``result`` says how the game ended (a resignation, a timeout, a stop, an abort, or on the
    board); without it, the image shows the position's own outcome or whose turn it is.
    ``words`` are the image's words in the reader's language (``bot.words.images``).

    Raises ``ValueError`` for an unknown perspective or a piece on a point that does not exist.
    """
    _check(perspective, players)
    return to_png(indexed_frame(position, perspective, players, result, words))


def render_board(
    game: Game,
    *,
    perspective: Perspective = "white",
    players: tuple[str, str] = DEFAULT_PLAYERS,
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> bytes:
    """PNG of the game's current position (see :func:`render_position`)."""
    return render_position(
        game.position(), perspective=perspective, players=players, result=result, words=words
    )


def render_replay(
    game: Game,
    *,
    perspective: Perspective = "white",
    players: tuple[str, str] = DEFAULT_PLAYERS,
    frame_ms: int = DEFAULT_FRAME_MS,
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> bytes:
    """Animated GIF of every position of the game, start to now, the last one held longer and
    showing ``result`` if given (see :func:`render_position`).

    Each frame names the move just played; only the last shows the highlights and turn marks
    of a still image, so that a frame changes little from the one before.

    Raises ``ValueError`` for an unknown perspective or a non-positive ``frame_ms``.
    """
    _check(perspective, players)
    return replay_gif(game.positions(), perspective, players, frame_ms, result, words)


def _check(perspective: str, players: tuple[str, str]) -> None:
    if perspective not in ("white", "black"):
        raise ValueError(f"perspective must be 'white' or 'black', not {perspective!r}")
    if len(players) != 2:
        raise ValueError(f"players must be two names (white's, black's), not {len(players)}")
