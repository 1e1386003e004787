"""Playing against the computer: the bot's own user is the opponent, and it answers each human
move with a move chosen by ``bot.ai``. The search runs outside the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.ai import SearchPool, SearchResult, choose_move_from_dict, search_pool
from bot.jarmo import Action
from bot.service import errors
from bot.service.models import Actor, BoardView, ChallengeRequest, Place, Report
from bot.store import GameRecord

if TYPE_CHECKING:
    from bot.service.service import JarmoService

#: ``(game.to_dict(), level, seed) -> canonical move``
Thinker = Callable[[dict[str, Any], str, int], Awaitable[str]]
HINT_LEVEL = "medium"
# The computer's move comes at most this long after the human's, however many games wait.
ANSWER_WITHIN_SECONDS = 2.5
# Of that, what is not search: reading the game before, storing the move and drawing the board
# after (on a machine whose cores the searches keep busy).
AROUND_THE_SEARCH_SECONDS = 0.4


def search_seed(game_id: int, ply: int) -> int:
    """The seed of the computer's search for one move: its own per game, so that the same moves
    by a person lead to different games, and the same on a retry of that move."""
    return game_id << 16 | ply & 0xFFFF


async def think_in_thread(data: dict[str, Any], level: str, seed: int) -> str:
    """Search in a worker thread: simple, for tests and the console (the GIL is shared)."""
    return await asyncio.to_thread(choose_move_from_dict, data, level, seed, None)


class ProcessThinker:
    """Search in a pool of processes, so a 2-second think never slows other channels down and
    every answer comes within ``ANSWER_WITHIN_SECONDS`` of the human's move: when more games
    wait than there are workers, the pool shortens each search."""

    def __init__(self, pool: SearchPool) -> None:
        self._pool = pool

    @classmethod
    def open(cls, workers: int) -> ProcessThinker:
        """A thinker over ``workers`` search processes, started now (in an event loop)."""
        pool = search_pool(workers)
        pool.start()
        return cls(pool)

    async def __call__(self, data: dict[str, Any], level: str, seed: int) -> str:
        within = ANSWER_WITHIN_SECONDS - AROUND_THE_SEARCH_SECONDS
        return await self._pool.choose(data, level, seed, within=within)

    def analyse(
        self, data: dict[str, Any], level: str, *, node_limit: int, time_limit: float
    ) -> asyncio.Future[SearchResult]:
        """An analysis in the pool, behind every move (a review's positions)."""
        return self._pool.analyse(data, level, node_limit=node_limit, time_limit=time_limit)

    async def close(self) -> None:
        """Stop the worker processes (waiting searches are refused) and wait for them."""
        await self._pool.close()


class ComputerOpponent:
    """The computer as a player: starts games against a human and replies to their moves. The
    service must have been built with the computer's identity (``JarmoService(computer=...)``)."""

    def __init__(self, service: JarmoService, think: Thinker) -> None:
        if service.kit.computer is None:
            raise ValueError("the service was built without a computer opponent")
        self.service = service
        self.actor = service.kit.computer
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
        game, level, game_id = turn
        move = await self._think(game.to_dict(), level, search_seed(game_id, game.ply))
        try:
            return await self.service.play.move(place, self.actor, Action.parse(move))
        except (errors.NotYourTurn, errors.NoGameHere, errors.GameChanged, errors.BadMove):
            return None  # the game moved on while the computer was thinking

    async def hint(self, place: Place, human: Actor) -> str:
        """A suggested move for a human playing the computer, on their turn."""
        record = await self.check_hint(place, human)
        game = record.engine
        return await self._think(game.to_dict(), HINT_LEVEL, search_seed(record.id, game.ply))

    async def check_hint(self, place: Place, human: Actor) -> GameRecord:
        """The game a hint would be for; refuses between humans and off the human's turn."""
        record = await self.service.play.player_game(place, human)
        if not self.service.kit.is_computer(
            record.black_id if record.white_id == human.user_id else record.white_id
        ):
            raise errors.NotAllowed(errors.Code.HINT_NEEDS_COMPUTER)
        if record.player_id(record.engine.turn) != human.user_id:
            raise errors.NotYourTurn(errors.Code.COMPUTER_THINKING)
        return record
