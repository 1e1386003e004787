"""Rendering for the service: Pillow runs in a worker thread so the event loop stays free."""

from __future__ import annotations

import asyncio

from bot.jarmo import Game
from bot.render import render_position


async def render_view(game: Game, *, perspective: str, players: tuple[str, str]) -> bytes:
    """The PNG of ``game``'s position. The snapshot is taken here, on the event loop, so the
    worker never reads a game that the loop might change."""
    position = game.position()
    return await asyncio.to_thread(
        render_position, position, perspective=perspective, players=players
    )  # type: ignore[arg-type]
