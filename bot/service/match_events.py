"""The typed event of a match ending, and who listens for it.

Every ending of a game goes through ``GameEnder``; when that ending also ends the match (a
win, a stop by agreement, a resignation, a timeout, an abort) it tells the listeners here. A
listener's failure never undoes the ending, which is already stored: it is logged, and the
listener is expected to catch up from the store (a tournament does, each time it advances).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot import store as st

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """``match`` has just ended (its ``state`` says how: finished, forfeited or aborted)."""

    match: st.MatchRecord


MatchListener = Callable[[MatchEnded], Awaitable[None]]


class MatchListeners:
    """The use cases that want to hear of every match that ends."""

    def __init__(self) -> None:
        self._listeners: list[MatchListener] = []

    def add(self, listener: MatchListener) -> None:
        """Call ``listener`` after every match ending from now on."""
        self._listeners.append(listener)

    def remove(self, listener: MatchListener) -> None:
        """Stop calling ``listener`` (a front end's part unloaded); unknown ones are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def tell(self, event: MatchEnded) -> None:
        """Tell every listener, in the order they were added; one's failure is logged and the
        others are still told."""
        for listener in self._listeners:
            try:
                await listener(event)
            except Exception:
                log.exception("a listener failed on the end of match %d", event.match.id)
