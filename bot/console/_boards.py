"""The folder of board pictures that console mode keeps up to date."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from bot.render import ImageWords
from bot.service import BoardView

LATEST = "latest.png"


def picture_name(view: BoardView) -> str:
    """``game1-move003.png``: the game's number in the match and the moves played so far."""
    return f"game{view.game.index + 1}-move{view.game.game.ply:03d}.png"


class BoardFolder:
    """Writes each position as its own PNG and as ``latest.png`` (replaced atomically, so an
    image viewer watching it never reads half a file)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def create(self) -> None:
        """Make the folder (and its parents). Raises ``OSError``."""
        self.path.mkdir(parents=True, exist_ok=True)

    async def save(self, view: BoardView, words: ImageWords) -> Path:
        """Write ``view``'s picture, its texts in ``words``; returns the numbered file.
        Raises ``OSError``."""
        image = await view.image.png(words)
        return await asyncio.to_thread(self._write, picture_name(view), image)

    async def save_picture(self, name: str, image: bytes) -> Path:
        """Write another picture (a review's graph, say) as ``name``, leaving ``latest.png``
        alone. Raises ``OSError``."""
        target = self.path / name
        await asyncio.to_thread(target.write_bytes, image)
        return target

    def _write(self, name: str, image: bytes) -> Path:
        target = self.path / name
        target.write_bytes(image)
        partial = self.path / f".{LATEST}.partial"
        partial.write_bytes(image)
        os.replace(partial, self.path / LATEST)
        return target
