"""Reviewing a finished game: every position searched with the review's fixed node budget (in
the search pool, behind every move), each move labelled, the review stored once.

The database decides which review is kept (the first one stored); in one process, two requests
for the same game share one computation and both hear its progress.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.ai.review import (
    REVIEW_LEVEL,
    REVIEW_NODE_LIMIT,
    REVIEW_TIME_GUARD,
    GameReview,
    Label,
    MoveReview,
    PositionVerdict,
    positions,
    review,
    search_verdict,
)
from bot.jarmo import Game, Side
from bot.service._views import BoardPicture, board_picture, result_banner
from bot.service.errors import Code, NoGameHere, ReviewRefused
from bot.service.kit import ServiceKit
from bot.service.models import Place
from bot.store import GameRecord, NotFound

__all__ = [
    "Analyser",
    "GameReview",
    "Label",
    "MoveReview",
    "PositionVerdict",
    "Progress",
    "ReviewCases",
    "ReviewView",
    "TurningPoint",
    "analyse_in_thread",
    "pool_analyser",
]

log = logging.getLogger(__name__)

#: ``Game.to_dict()`` of one unfinished position -> the search's verdict on it.
Analyser = Callable[[dict[str, Any]], Awaitable[PositionVerdict]]
#: ``(positions searched, positions to search)``, after each one.
Progress = Callable[[int, int], Awaitable[None]]


async def analyse_in_thread(data: dict[str, Any]) -> PositionVerdict:
    """Search one position in a worker thread (the console and tests; the bot uses its pool)."""
    verdict = await asyncio.to_thread(search_verdict, Game.from_dict(data))
    if verdict is None:
        raise ValueError("a finished position has nothing to search")
    return verdict


def pool_analyser(
    analyse: Callable[..., asyncio.Future[Any]],
) -> Analyser:
    """An analyser over ``SearchPool.analyse``: each position at the review's level and budget."""

    async def verdict(data: dict[str, Any]) -> PositionVerdict:
        found = await analyse(
            data, REVIEW_LEVEL, node_limit=REVIEW_NODE_LIMIT, time_limit=REVIEW_TIME_GUARD
        )
        return PositionVerdict(found.move, found.score)

    return verdict


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """One of the moves that turned the game, with the board after it."""

    ply: int
    picture: BoardPicture


@dataclass(frozen=True, slots=True)
class ReviewView:
    """A reviewed game as the front ends show it."""

    game_id: int
    guild_id: int | None
    ruleset: str
    white_id: int
    black_id: int
    players: tuple[str, str]  # White's and Black's names
    review: GameReview
    turning_points: tuple[TurningPoint, ...]

    def player(self, side: Side) -> int:
        """The user id of the player who had ``side``."""
        return self.white_id if side == "white" else self.black_id


class ReviewCases:
    """``review`` and ``last_game`` over one service kit; :meth:`use` sets the analyser."""

    def __init__(self, kit: ServiceKit, analyser: Analyser = analyse_in_thread) -> None:
        self._kit = kit
        self._analyser = analyser
        self._running: dict[int, _Computation] = {}

    def use(self, analyser: Analyser) -> None:
        """Search positions with ``analyser`` from now on (the bot's search pool)."""
        self._analyser = analyser

    def waiting(self, game_id: int) -> int:
        """How many requests wait for the game's review being computed now (0 when none is)."""
        running = self._running.get(game_id)
        return 0 if running is None else running.requests

    async def last_game(self, place: Place) -> int:
        """The id of the channel's latest finished game. Refuses when the channel has none, or
        only a game still in play (``ReviewRefused``); a damaged one raises ``CorruptGame``."""
        games = self._kit.store.games
        match = await games.latest_match(place.channel_id)
        if match is None:
            raise NoGameHere(Code.NO_GAME_TO_REVIEW)
        played = await games.match_games(match.id)
        ended = [g for g in played if g.status not in ("active", "aborted")]
        if ended:
            return ended[-1].id
        if any(g.is_active for g in played):
            raise ReviewRefused(Code.REVIEW_GAME_RUNNING)
        raise NoGameHere(Code.NO_GAME_TO_REVIEW)

    async def check(self, place: Place, game_id: int) -> None:
        """Refuse, as :meth:`review` would, a game that cannot be reviewed; nothing else."""
        await self._finished_game(place, game_id)

    async def review(
        self, place: Place, game_id: int, *, progress: Progress | None = None
    ) -> ReviewView:
        """The review of a finished game of ``place``'s server (outside servers, of that very
        chat): the stored one, else one computed now (``progress`` hears how far it is) and
        stored.

        Refuses a game still in play or an aborted one (``ReviewRefused``), another server's
        game (``ReviewRefused``) or an unknown one (``NoGameHere``); a damaged game raises
        ``CorruptGame`` (shown as ``GameDamaged``). Nothing is stored then.
        """
        record = await self._finished_game(place, game_id)
        stored = await self._kit.store.reviews.get(game_id)
        judged = _decoded(stored, game_id) if stored is not None else None
        if judged is None:
            judged = await self._computed(record, progress)
        return await self._view(record, judged)

    async def _finished_game(self, place: Place, game_id: int) -> GameRecord:
        try:
            record = await self._kit.store.games.get(game_id)
        except NotFound:
            raise NoGameHere(Code.NO_GAME_TO_REVIEW) from None
        elsewhere = record.channel_id != place.channel_id if place.guild_id is None else False
        if record.guild_id != place.guild_id or elsewhere:
            raise ReviewRefused(Code.REVIEW_OTHER_SERVER, game=game_id)
        if record.is_active:
            raise ReviewRefused(Code.REVIEW_GAME_RUNNING, game=game_id)
        if record.status == "aborted":
            raise ReviewRefused(Code.REVIEW_GAME_ABORTED, game=game_id)
        return record

    async def _computed(self, record: GameRecord, progress: Progress | None) -> GameReview:
        running = self._running.get(record.id)
        if running is None:
            running = _Computation(record.engine, self._analyser, self._keeper(record.id))
            self._running[record.id] = running
            running.task.add_done_callback(lambda _: self._forget(record.id, running))
        if progress is not None:
            running.listeners.append(progress)
        running.requests += 1
        try:
            # Shielded: a request that gives up leaves the review to finish and be stored.
            return await asyncio.shield(running.task)
        finally:
            running.requests -= 1

    def _keeper(self, game_id: int) -> Callable[[GameReview], Awaitable[GameReview]]:
        async def keep(judged: GameReview) -> GameReview:
            body = json.dumps(judged.to_dict(), separators=(",", ":"))
            kept = await self._kit.store.reviews.keep(game_id, body, now=self._kit.now())
            return _decoded(kept, game_id) or judged  # another process's review, if first

        return keep

    def _forget(self, game_id: int, computation: _Computation) -> None:
        if self._running.get(game_id) is computation:
            del self._running[game_id]

    async def _view(self, record: GameRecord, judged: GameReview) -> ReviewView:
        names = self._kit.names
        players = (
            await names(record.guild_id, record.white_id),
            await names(record.guild_id, record.black_id),
        )
        frames = positions(record.engine)
        last = len(frames) - 1
        turning = tuple(
            TurningPoint(
                ply,
                board_picture(
                    frames[ply],
                    perspective="white",
                    players=players,
                    result=result_banner(record) if ply == last else None,
                ),
            )
            for ply in judged.turning_points
            if 0 < ply <= last
        )
        return ReviewView(
            record.id,
            record.guild_id,
            record.engine.ruleset,
            record.white_id,
            record.black_id,
            players,
            judged,
            turning,
        )


class _Computation:
    """One game's review being computed: the task, and whoever wants to hear its progress."""

    def __init__(
        self, game: Game, analyser: Analyser, keep: Callable[[GameReview], Awaitable[GameReview]]
    ) -> None:
        self.listeners: list[Progress] = []
        self.requests = 0
        self.task: asyncio.Task[GameReview] = asyncio.create_task(self._run(game, analyser, keep))

    async def _run(
        self, game: Game, analyser: Analyser, keep: Callable[[GameReview], Awaitable[GameReview]]
    ) -> GameReview:
        frames = positions(game)
        todo = [index for index, frame in enumerate(frames) if not frame.over]
        verdicts: list[PositionVerdict | None] = [None] * len(frames)
        done = 0

        async def one(index: int) -> None:
            nonlocal done
            verdicts[index] = await analyser(frames[index].to_dict())
            done += 1
            await self._tell(done, len(todo))

        searches = [asyncio.ensure_future(one(index)) for index in todo]
        try:
            await asyncio.gather(*searches)
        except BaseException:
            for search in searches:
                search.cancel()  # withdraws what still waits in the pool
            raise
        return await keep(review(frames, verdicts))

    async def _tell(self, done: int, total: int) -> None:
        for listener in list(self.listeners):
            try:
                await listener(done, total)
            except Exception:  # a message that cannot be edited must not stop the review
                log.warning("a review's progress could not be shown", exc_info=True)


def _decoded(body: str, game_id: int) -> GameReview | None:
    try:
        return GameReview.from_dict(json.loads(body))
    except ValueError:
        log.warning("the stored review of game %d cannot be read; reviewing it again", game_id)
        return None
