"""The animated GIF of a whole game: one frame per position, all on the theme's palette."""

from __future__ import annotations

import io
from collections.abc import Sequence

from bot.jarmo.position import Position
from bot.render._compose import compose
from bot.render._encode import quantize
from bot.render._result import ResultBanner
from bot.render._theme import Perspective, theme_for

DEFAULT_FRAME_MS = 900
LAST_FRAME_HOLD = 4  # the final position stays up this many frames' time before looping


def replay_gif(
    positions: Sequence[Position],
    perspective: Perspective,
    players: tuple[str, str],
    frame_ms: int = DEFAULT_FRAME_MS,
    result: ResultBanner | None = None,
) -> bytes:
    """GIF bytes showing ``positions`` in order, the last one held longer (and ended as
    ``result`` says, if given).

    Raises ``ValueError`` if there is no position or ``frame_ms`` is not positive.
    """
    if not positions:
        raise ValueError("a replay needs at least one position")
    if frame_ms <= 0:
        raise ValueError(f"frame_ms must be positive, not {frame_ms}")
    theme = theme_for(positions[0].ruleset)
    # One shared palette for every frame: the GIF writer then only stores the changed area
    # of each frame, and never has to build a palette per frame.
    last = len(positions) - 1
    frames = [
        quantize(compose(p, perspective, players, result if i == last else None), theme)
        for i, p in enumerate(positions)
    ]
    durations = [frame_ms] * (len(frames) - 1) + [frame_ms * LAST_FRAME_HOLD]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,
    )
    return buffer.getvalue()
