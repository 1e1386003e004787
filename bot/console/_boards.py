"""The folder of board pictures that console mode keeps up to date: each match's numbered
pictures in a folder of their own, so an earlier match's pictures never mix with the new ones,
and ``latest.png`` beside those folders, always the position on the board now. A review's
pictures go with the pictures of its game's match."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from bot.render import ImageWords
from bot.service import BoardView
from bot.store import MatchRecord

LATEST = "latest.png"


def picture_name(view: BoardView) -> str:
    """``game1-move003.png``: the game's number in the match and the moves played so far."""
    return f"game{view.game.index + 1}-move{view.live.ply:03d}.png"


def match_folder(match: MatchRecord) -> str:
    """``2026-11-27_14-05-09_match-3``: when the match started (UTC) and its number, so the
    folders sort by date, stay the same when the match is resumed, and differ between matches
    of throwaway databases, which all number their first match 1."""
    return f"{match.created_at:%Y-%m-%d_%H-%M-%S}_match-{match.id}"


class BoardFolder:
    """Writes each position as its own PNG in its match's folder and as ``latest.png``
    (replaced atomically, so an image viewer watching it never reads half a file)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def create(self) -> None:
        """Make the folder (and its parents). Raises ``OSError``."""
        self.path.mkdir(parents=True, exist_ok=True)

    def check(self) -> None:
        """Make the folder if it is missing and write a file there, so that a folder the
        pictures cannot go to stops the command before anything is asked. Raises ``OSError``."""
        self.create()
        with tempfile.NamedTemporaryFile(dir=self.path, prefix=".probe-"):
            pass

    @property
    def latest(self) -> Path:
        """The picture of the position on the board now, whichever match it belongs to."""
        return self.path / LATEST

    async def save_picture(self, match: MatchRecord, name: str, image: bytes) -> Path:
        """Write another picture of ``match`` (a review's graph, say) as ``name`` in its folder,
        leaving ``latest.png`` alone. Raises ``OSError``."""
        target = self.path / match_folder(match) / name
        await asyncio.to_thread(self._write_file, target, image)
        return target

    async def save(self, view: BoardView, words: ImageWords) -> Path:
        """Write ``view``'s picture, its texts in ``words``, into its match's folder; returns
        the numbered file. Raises ``OSError``."""
        image = await view.image.png(words)
        target = self.path / match_folder(view.match) / picture_name(view)
        return await asyncio.to_thread(self._write, target, image)

    def _write(self, target: Path, image: bytes) -> Path:
        self._write_file(target, image)
        partial = self.path / f".{LATEST}.partial"
        partial.write_bytes(image)
        os.replace(partial, self.latest)
        return target

    @staticmethod
    def _write_file(target: Path, image: bytes) -> None:
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(image)
