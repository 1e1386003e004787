"""Board images for the service's results: a snapshot of the position that the front end draws
in its reader's words, with Pillow in a worker thread so the event loop stays free."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol

from bot.jarmo import Game
from bot.jarmo.position import Position, Side
from bot.render import ENGLISH_WORDS, OFF_BOARD_ENDS, ImageWords, ResultBanner, render_position


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


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """A board image waiting for its words: the service does not know who will read it (a
    public post speaks the server's language, a private grid its reader's), so the front end
    draws it with :meth:`png` in the language of each message it is shown in."""

    position: Position  # a snapshot: a worker never reads a game the event loop may change
    perspective: Side
    players: tuple[str, str]  # white's and black's names
    result: ResultBanner | None = None

    async def png(self, words: ImageWords = ENGLISH_WORDS) -> bytes:
        """The PNG of the position, its texts in ``words`` (``bot.words.image_words``)."""
        return await asyncio.to_thread(
            render_position,
            self.position,
            perspective=self.perspective,
            players=self.players,
            result=self.result,
            words=words,
        )


def board_picture(
    game: Game,
    *,
    perspective: Side,
    players: tuple[str, str],
    result: ResultBanner | None = None,
) -> BoardPicture:
    """``game``'s position, ended as ``result`` says if given, ready to be drawn. The snapshot
    is taken here, on the event loop."""
    return BoardPicture(game.position(), perspective, players, result)
