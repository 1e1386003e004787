"""Playing against the computer: the bot's own user is the opponent, and it answers each human
move with a move chosen by ``bot.ai``. The search runs outside the event loop."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.ai import choose_move_from_dict
from bot.service import errors
from bot.service.models import Actor, BoardView, ChallengeRequest, Place, Report
from bot.store import GameRecord

if TYPE_CHECKING:
    from bot.service.service import JarmoService

#: ``(game.to_dict(), level, seed) -> canonical move``
Thinker = Callable[[dict[str, Any], str, int], Awaitable[str]]
HINT_LEVEL = "medium"


async def think_in_thread(data: dict[str, Any], level: str, seed: int) -> str:
    """Search in a worker thread: simple, for tests and the console (the GIL is shared)."""
    return await asyncio.to_thread(choose_move_from_dict, data, level, seed, None)


class ProcessThinker:
    """Search in a separate process, so a 2-second think never slows other channels down."""

    def __init__(self, workers: int = 1) -> None:
        # spawn, not fork: the bot process has database and event-loop threads running.
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    async def __call__(self, data: dict[str, Any], level: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, choose_move_from_dict, data, level, seed, None
        )

    def close(self) -> None:
        """Stop the worker processes (pending searches are dropped)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


class ComputerOpponent:
    """The computer as a player: starts games against a human and replies to their moves. The
    service must have been built with the computer's identity (``JarmoService(computer=...)``)."""

    def __init__(self, service: JarmoService, think: Thinker) -> None:
        if service.unit.computer is None:
            raise ValueError("the service was built without a computer opponent")
        self.service = service
        self.actor = service.unit.computer
        self._think = think

    async def start(self, place: Place, human: Actor, request: ChallengeRequest) -> BoardView:
        """A game (or match) against the computer starts at once: it always accepts. Returns the
        start position without thinking, so a front end can show it at once; when the computer
        has White, call :meth:`reply` next for its first move."""
        challenges = self.service.challenges
        view = await challenges.post(place, human, replace(request, opponent=self.actor))
        return await challenges.accept(self.actor, view.challenge.id)

    async def reply(self, place: Place) -> Report | None:
        """If it is the computer's turn in the channel's game, think and play; else ``None``.

        The search runs without the channel lock (it can take seconds); the move is then played
        through the normal, version-checked path, so a resignation or abort meanwhile wins."""
        turn = await self.service.computer_turns.to_move(place)
        if turn is None:
            return None
        game, level = turn
        move = await self._think(game.to_dict(), level, game.ply)
        try:
            return await self.service.play.move(place, self.actor, move)
        except (errors.NotYourTurn, errors.NoGameHere, errors.GameChanged, errors.BadMove):
            return None  # the game moved on while the computer was thinking

    async def hint(self, place: Place, human: Actor) -> str:
        """A suggested move for a human playing the computer, on their turn."""
        record = await self.check_hint(place, human)
        return await self._think(record.game.to_dict(), HINT_LEVEL, record.game.ply)

    async def check_hint(self, place: Place, human: Actor) -> GameRecord:
        """The game a hint would be for; refuses between humans and off the human's turn."""
        record = await self.service.play.player_game(place, human)
        if not self.service.unit.is_computer(
            record.black_id if record.white_id == human.user_id else record.white_id
        ):
            raise errors.NotAllowed(errors.Code.HINT_NEEDS_COMPUTER)
        if record.player_id(record.game.turn) != human.user_id:
            raise errors.NotYourTurn(errors.Code.COMPUTER_THINKING)
        return record
