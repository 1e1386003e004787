"""Stand-ins for the live board's service pieces, so that the Discord side runs and is tested
before the real ones (the spectator counts and the signing secret) are wired in their place:
the counts are kept in this process only, the secret in the bot's state."""

from __future__ import annotations

import base64
import secrets
import time

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
