"""The animated GIF of a whole game: one frame per position, all on the theme's palette.

GIF stores each frame as the rectangle that changed since the one before, with unchanged
pixels in it made transparent; so what matters for size and time is how far apart the changes
of one move lie. The frames before the last keep those changes to the move itself: no
highlights under the pieces (the capture and placement badges stay), and the move is named in
the header instead of turn marks in both player bars. The last frame is the still image. All
are on the theme's short palette, which fits a GIF's 7-bit codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.jarmo.position import Position
from bot.render._gif import animated_gif
from bot.render._indexed import indexed_frame
from bot.render._result import ResultBanner
from bot.render._theme import Perspective
from bot.render._words import ENGLISH, ImageWords

DEFAULT_FRAME_MS = 900
LAST_FRAME_HOLD = 4  # the final position stays up this many frames' time before looping


def replay_gif(
    positions: Sequence[Position],
    perspective: Perspective,
    players: tuple[str, str],
    frame_ms: int = DEFAULT_FRAME_MS,
    result: ResultBanner | None = None,
    words: ImageWords = ENGLISH,
) -> bytes:
    """GIF bytes showing ``positions`` in order, the last one held longer (and ended as
    ``result`` says, if given).

    Raises ``ValueError`` if there is no position or ``frame_ms`` is not positive.
    """
    if not positions:
        raise ValueError("a replay needs at least one position")
    if frame_ms <= 0:
        raise ValueError(f"frame_ms must be positive, not {frame_ms}")
    frames = [
        indexed_frame(p, perspective, players, None, words, replay=True, short=True)
        for p in positions[:-1]
    ]
    frames.append(indexed_frame(positions[-1], perspective, players, result, words, short=True))
    durations = [frame_ms] * (len(frames) - 1) + [frame_ms * LAST_FRAME_HOLD]
    return animated_gif(frames, durations)
