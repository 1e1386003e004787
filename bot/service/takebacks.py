"""Takebacks: a player asks to take back their last move before the opponent has answered it,
and the opponent accepts or declines; against the computer, the player's move and the
computer's answer are taken back at once, with nobody to ask.

The request waiting for an answer is stored (a ``BotStateStore`` key per game, holding the
game's version it was made at), so every process sees it, and it lapses by itself once the
game moves on. The takeback itself is the store's version-checked write: an accept and a move
at the same moment never both apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import store as st
from bot.jarmo import Game
from bot.service import errors
from bot.service._reports import Reports
from bot.service._seats import check_clock, players_game
from bot.service.kit import ServiceKit
from bot.service.models import Actor, BoardView, Place
from bot.service.offers import Offer
from bot.service.servers import ServerSettingsCases

TakebackRequest = Offer  # /jarmo takeback: take back the asker's last move


@dataclass(frozen=True, slots=True)
class TakenBack:
    """Moves taken back: the board as it was before them (the same position, clock and
    deadline), and who asked."""

    asked_by: int
    moves: tuple[str, ...]  # in the order they had been played
    board: BoardView


def _pending_key(game_id: int) -> str:
    return f"takeback:{game_id}"


class TakebackCases:
    """Asking for, accepting and declining takebacks."""

    def __init__(self, kit: ServiceKit, reports: Reports, servers: ServerSettingsCases) -> None:
        self._kit = kit
        self._reports = reports
        self._servers = servers

    async def ask(self, place: Place, actor: Actor) -> TakebackRequest | TakenBack:
        """The actor asks to take back their last move: a request for the opponent to answer,
        or, against the computer, the moves taken back at once."""
        kit = self._kit
        async with kit.locks(place.channel_id):
            record = await players_game(kit, place, actor)
            if await kit.store.tournaments.pairing_of_match(record.match.id) is not None:
                raise errors.NotAllowed(errors.Code.TAKEBACK_IN_TOURNAMENT)
            check_clock(kit, record)
            request = TakebackRequest.to_opponent(record, actor.user_id)
            plies = _plies_to_take_back(record, actor.user_id, kit.is_computer(request.answer_by))
            if kit.is_computer(request.answer_by):
                return await self._take_back(record, actor.user_id, plies)
            if kit.ratings.is_rated(record, "finished"):
                settings = await self._servers.settings(record.guild_id)
                if not settings.takebacks:
                    raise errors.NotAllowed(errors.Code.TAKEBACKS_OFF)
            key = _pending_key(record.id)
            if await kit.store.state.get(key) == str(record.version):
                raise errors.NotAllowed(errors.Code.TAKEBACK_PENDING)
            await kit.store.state.set(key, str(record.version))
            return request

    async def accept(self, place: Place, actor: Actor, request: TakebackRequest) -> TakenBack:
        """The opponent agrees: the asker's last move is taken back."""
        async with self._kit.locks(place.channel_id):
            record = await self._answerable(place, actor, request)
            check_clock(self._kit, record)
            taken = await self._take_back(record, request.offered_by, 1)
            await self._kit.store.state.set(_pending_key(record.id), "")
            return taken

    async def decline(self, place: Place, actor: Actor, request: TakebackRequest) -> None:
        """The opponent refuses: the game goes on as it is, and the asker may ask again."""
        async with self._kit.locks(place.channel_id):
            record = await self._answerable(place, actor, request)
            await self._kit.store.state.set(_pending_key(record.id), "")

    async def _answerable(
        self, place: Place, actor: Actor, request: TakebackRequest
    ) -> st.GameRecord:
        if actor.user_id != request.answer_by:
            raise errors.NotAllowed(errors.Code.ONLY_ASKED_ANSWERS_TAKEBACK)
        record = await players_game(self._kit, place, actor)
        pending = await self._kit.store.state.get(_pending_key(record.id))
        if not request.still_stands(record) or pending != str(record.version):
            raise errors.GameChanged(errors.Code.TAKEBACK_OUTDATED)
        return record

    async def _take_back(self, record: st.GameRecord, asked_by: int, plies: int) -> TakenBack:
        kit, match = self._kit, record.match
        history = record.engine.history
        kept = Game.new(ruleset=match.ruleset, layout=match.layout, max_plies=match.max_plies)
        for move in history[: len(history) - plies]:
            kept.play(move)
        try:
            updated = await kit.store.games.take_back(
                record.id, expected_version=record.version, game=kept, now=kit.now()
            )
        except st.StaleGame:
            raise errors.GameChanged(errors.Code.TAKEBACK_OUTDATED) from None
        kit.signals.new_deadline(updated.match)
        board = await self._reports.view(updated)
        return TakenBack(asked_by, tuple(history[len(history) - plies :]), board)


def _plies_to_take_back(record: st.GameRecord, user_id: int, against_computer: bool) -> int:
    """How many of the game's last plies the asker's takeback removes: their own last move,
    and against the computer its answer too if it has come. Refuses when the asker has no
    move to take back or the opponent has answered it."""
    game = record.engine
    side = record.side_of(user_id)
    plies = len(game.history)
    # Sides alternate ply by ply: White plays the odd plies.
    own_plies = (plies + 1) // 2 if side == "white" else plies // 2
    if own_plies == 0:
        raise errors.NotAllowed(errors.Code.NO_MOVE_TO_TAKE_BACK)
    last_mover = "black" if game.turn == "white" else "white"
    if last_mover == side:
        return 1
    if against_computer:
        return 2
    raise errors.NotAllowed(errors.Code.OPPONENT_ALREADY_MOVED)
