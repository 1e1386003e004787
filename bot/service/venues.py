"""The places matches are played in: the one seam through which a front end opens a place of
its own (a thread) for a match about to start, whether a challenge was accepted or a tournament
paired it; and what happens when such a place disappears under its match."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from bot.service import errors
from bot.service._ending import GameEnder, Result
from bot.service._seats import active_game
from bot.service.kit import ServiceKit
from bot.service.models import Place, Report

log = logging.getLogger(__name__)
_ATTEMPTS = 3  # a move can land between reading the game and ending it; then read it again


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A match about to start, as a venue needs to know it: where it was arranged (the channel
    the challenge was posted in, or the tournament's), its players' names (the challenger or
    the pairing's first player first), its ruleset, and the tournament it is a pairing of."""

    place: Place
    first_name: str
    second_name: str
    ruleset: str
    tournament_name: str | None = None


class Venue(Protocol):
    """Where a match is played: a front end may open a place of its own for it (Discord opens
    a thread, from the challenge's message or from a short post in the tournament's channel)."""

    async def open(self, match: NewMatch) -> int | None:
        """The channel id of the match's new place, or ``None`` if none is opened (then an
        accepted challenge is played where it was posted, and a tournament pairing waits for
        the next try)."""
        ...


class VenueCases:
    """What happens to a channel's game when the channel goes away."""

    def __init__(self, kit: ServiceKit, ender: GameEnder) -> None:
        self._kit = kit
        self._ender = ender

    async def vanished(self, place: Place) -> Report | None:
        """The channel was deleted: its game ends as aborted, and with it the match (nothing
        counts for anyone). Returns the report, or ``None`` when it had no game in play."""
        kit = self._kit
        actor_id = kit.computer.user_id if kit.computer else 0  # nobody played this ending
        for _ in range(_ATTEMPTS):
            async with kit.locks(place.channel_id):
                try:
                    record = await active_game(kit, place)
                except errors.NoGameHere:
                    return None
                except errors.GameDamaged as damaged:
                    await kit.store.quarantine.set_aside(
                        damaged.game_id, reason=damaged.reason, now=kit.now()
                    )
                    log.warning(
                        "damaged game %d set aside: its channel was deleted", damaged.game_id
                    )
                    return None
                try:
                    result = Result("aborted", None, "aborted", actor_id)
                    return await self._ender.end(record, result, game=record.engine)
                except errors.GameChanged:
                    continue
        raise errors.GameChanged(errors.Code.CHANGED_MEANWHILE)
