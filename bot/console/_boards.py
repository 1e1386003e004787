"""The folder of board pictures that console mode keeps up to date: each match's numbered
pictures in a folder of their own, so an earlier match's pictures never mix with the new ones,
and ``latest.png`` beside those folders, always the position on the board now."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from bot.render import ImageWords
from bot.service import BoardView

LATEST = "latest.png"


def picture_name(view: BoardView) -> str:
    """``game1-move003.png``: the game's number in the match and the moves played so far."""
    return f"game{view.game.index + 1}-move{view.live.ply:03d}.png"


def match_folder(view: BoardView) -> str:
    """``2026-11-27_14-05-09_match-3``: when the match started (UTC) and its number, so the
    folders sort by date, stay the same when the match is resumed, and differ between matches
    of throwaway databases, which all number their first match 1."""
    match = view.match
    return f"{match.created_at:%Y-%m-%d_%H-%M-%S}_match-{match.id}"


class BoardFolder:
    """Writes each position as its own PNG in its match's folder and as ``latest.png``
    (replaced atomically, so an image viewer watching it never reads half a file)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def create(self) -> None:
        """Make the folder (and its parents). Raises ``OSError``."""
        self.path.mkdir(parents=True, exist_ok=True)

    @property
    def latest(self) -> Path:
        """The picture of the position on the board now, whichever match it belongs to."""
        return self.path / LATEST

    async def save_picture(self, name: str, image: bytes) -> Path:
        """Write another picture (a review's graph, say) as ``name``, leaving ``latest.png``
        alone. Raises ``OSError``."""
        target = self.path / name
        await asyncio.to_thread(target.write_bytes, image)
        return target

    async def save(self, view: BoardView, words: ImageWords) -> Path:
        """Write ``view``'s picture, its texts in ``words``, into its match's folder; returns
        the numbered file. Raises ``OSError``."""
        image = await view.image.png(words)
        target = self.path / match_folder(view) / picture_name(view)
        return await asyncio.to_thread(self._write, target, image)

    def _write(self, target: Path, image: bytes) -> Path:
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(image)
        partial = self.path / f".{LATEST}.partial"
        partial.write_bytes(image)
        os.replace(partial, self.latest)
        return target
