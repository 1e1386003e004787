"""Rendering for the service: Pillow runs in a worker thread so the event loop stays free."""

from __future__ import annotations

import asyncio
from typing import Protocol

from bot.jarmo import Game
from bot.jarmo.position import Side
from bot.render import OFF_BOARD_ENDS, ResultBanner, render_position


class StoredEnd(Protocol):
    """The fields a stored game (``GameRecord`` or ``GameResultRecord``) keeps about its end."""

    @property
    def status(self) -> str: ...
    @property
    def winner(self) -> Side | None: ...
    @property
    def termination(self) -> str | None: ...
    @property
    def points(self) -> dict[Side, int] | None: ...


def result_banner(game: StoredEnd) -> ResultBanner | None:
    """How a stored game ended, for its image; ``None`` while it is in play."""
    if game.status == "active" or game.points is None:
        return None
    reason = game.status if game.status in OFF_BOARD_ENDS else game.termination
    if reason is None:  # no reason stored: the image falls back on the board's own outcome
        return None
    return ResultBanner.from_record(reason, game.winner, game.points)


async def render_view(
    game: Game,
    *,
    perspective: Side,
    players: tuple[str, str],
    result: ResultBanner | None = None,
) -> bytes:
    """The PNG of ``game``'s position, ended as ``result`` says if given. The snapshot is taken
    here, on the event loop, so the worker never reads a game that the loop might change."""
    position = game.position()
    return await asyncio.to_thread(
        render_position, position, perspective=perspective, players=players, result=result
    )
