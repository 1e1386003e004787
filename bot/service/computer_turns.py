"""Whose turn it is, from the computer's side: the games that wait for its move. Kept apart from
:mod:`bot.service.computer` so the service needs no search code to answer it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.jarmo import Game
from bot.service.challenges import DEFAULT_COMPUTER_LEVEL
from bot.service.kit import ServiceKit
from bot.service.models import Place
from bot.store import CorruptGame

END_OF_TIME = datetime.max.replace(tzinfo=UTC)


class ComputerTurns:
    """Finding games that wait for the computer's move, over one service kit."""

    def __init__(self, kit: ServiceKit) -> None:
        self._kit = kit

    async def awaiting(
        self, *, owns: Callable[[int | None], bool] = lambda guild_id: True
    ) -> list[Place]:
        """Channels whose game waits for the computer's move (after a restart, say), in the
        servers this process ``owns`` (by default, all). Two processes that both answer one
        game still play one move: the move's version check refuses the second."""
        kit = self._kit
        if kit.computer is None:
            return []
        games = await kit.store.games.idle(before=END_OF_TIME)  # every active game
        return [
            Place(g.guild_id, g.channel_id)
            for g in games
            if owns(g.guild_id) and kit.is_computer(g.player_id(g.engine.turn))
        ]

    async def to_move(self, place: Place) -> tuple[Game, str, int] | None:
        """The channel's game, the computer's level and the game's id when it is the computer's
        turn, else None (a damaged game waits for a moderator, not for the computer)."""
        store = self._kit.store
        try:
            record = await store.games.active(place.channel_id)
        except CorruptGame:
            return None
        if record is None or not self._kit.is_computer(record.player_id(record.engine.turn)):
            return None
        match = record.match
        level = None
        if match.challenge_id is not None:
            level = (await store.challenges.get(match.challenge_id)).options.vs_computer_level
        return record.engine, level or DEFAULT_COMPUTER_LEVEL, record.id
