"""The live board's spectator counts and the secret that signs its links, both kept in the
store, so that a web server in a process of its own and the bots on one database agree."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from bot import store as st

# A count not reported again within this is taken as nobody watching (a web server that stopped).
STALE_AFTER = timedelta(minutes=2)
SECRET_KEY = "web:secret"
SECRET_BYTES = 32


class Spectators:
    """``service.spectators``: how many watch each game, as the web server last reported it."""

    def __init__(self, store: st.SpectatorStore, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock

    async def report(self, game_id: int, watching: int) -> None:
        """The web server's count of ``game_id``'s watchers now."""
        await self._store.report(game_id, watching, now=self._clock())

    async def count(self, game_id: int) -> int:
        """How many watch ``game_id``: 0 when nobody reported, or not lately."""
        return await self._store.count(game_id, since=self._clock() - STALE_AFTER)


class WebSecret:
    """The database's secret for signing live board links: made by whichever process needs it
    first, kept in the bot's state, and the same in every process after that."""

    def __init__(self, state: st.BotStateStore) -> None:
        self._state = state
        self._secret: bytes | None = None

    async def __call__(self) -> bytes:
        """The secret (32 bytes)."""
        if self._secret is None:
            made = base64.urlsafe_b64encode(secrets.token_bytes(SECRET_BYTES)).decode()
            kept = await self._state.set_default(SECRET_KEY, made)
            self._secret = base64.urlsafe_b64decode(kept)
        return self._secret
