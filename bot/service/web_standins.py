"""Stand-ins for the live board's service pieces, so that the Discord side runs and is tested
before the real ones (the spectator counts and the signing secret) are wired in their place:
the counts are kept in this process only, the secret in the bot's state."""

from __future__ import annotations

import asyncio
import base64
import secrets
import time
from dataclasses import dataclass

from bot import store as st

STALE_SECONDS = 120.0  # a count not reported again within this is taken as nobody watching
_SECRET_KEY = "web:secret"


class Spectators:
    """How many watch each game, as the web server last reported it."""

    def __init__(self) -> None:
        self._counts: dict[int, tuple[float, int]] = {}

    async def report(self, game_id: int, watching: int) -> None:
        """The web server's count of ``game_id``'s watchers now."""
        self._counts[game_id] = (time.monotonic(), watching)

    async def count(self, game_id: int) -> int:
        """How many watch ``game_id``: 0 when nobody reported, or not lately."""
        reported = self._counts.get(game_id)
        if reported is None or time.monotonic() - reported[0] > STALE_SECONDS:
            return 0
        return reported[1]


async def web_secret(state: st.BotStateStore) -> bytes:
    """The database's secret for signing links, made on first use."""
    kept = await state.get(_SECRET_KEY)
    if kept is None:
        kept = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
        await state.set(_SECRET_KEY, kept)
        kept = await state.get(_SECRET_KEY) or kept
    return base64.urlsafe_b64decode(kept)


POLL_SECONDS = 1.0  # how often the stand-in feed reads a watched game's version


@dataclass(frozen=True, slots=True)
class GameChange:
    """A stored change of a game: its version after the change."""

    game_id: int
    version: int


class PolledGame:
    """The changes of one game, found by reading its version every ``POLL_SECONDS``."""

    def __init__(self, games: st.GameStore, game_id: int) -> None:
        self._games = games
        self._game_id = game_id
        self._seen: int | None = None

    def __enter__(self) -> PolledGame:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    async def next(self) -> GameChange:
        """Wait for the game's next version (a game that cannot be read is not a change)."""
        while True:
            try:
                version: int | None = (await self._games.get(self._game_id)).version
            except (st.NotFound, st.CorruptGame, st.StoreBusy):
                version = self._seen
            if self._seen is None:
                self._seen = version
            elif version != self._seen and version is not None:
                self._seen = version
                return GameChange(self._game_id, version)
            await asyncio.sleep(POLL_SECONDS)


class PolledFeed:
    """``service.feed`` until the store announces its changes: every watched game is read
    once a second."""

    def __init__(self, games: st.GameStore) -> None:
        self._games = games

    def subscribe(self, game_id: int) -> PolledGame:
        """The changes of ``game_id`` from now on."""
        return PolledGame(self._games, game_id)
