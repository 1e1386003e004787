"""The places matches are played in: a match's own channel (a thread) can disappear under it."""

from __future__ import annotations

import logging

from bot.service import errors
from bot.service._ending import GameEnder, Result
from bot.service._seats import active_game
from bot.service.kit import ServiceKit
from bot.service.models import Place, Report

log = logging.getLogger(__name__)
_ATTEMPTS = 3  # a move can land between reading the game and ending it; then read it again


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
                    return await self._ender.end(record, result, game=record.game)
                except errors.GameChanged:
                    continue
        raise errors.GameChanged(errors.Code.CHANGED_MEANWHILE)
