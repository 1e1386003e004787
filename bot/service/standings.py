"""Standings: a channel's current or latest match, and the reports of past actions rebuilt from
the store (for announcements delivered after the fact)."""

from __future__ import annotations

import dataclasses

from bot import store as st
from bot.jarmo import Game
from bot.service import errors
from bot.service._reports import Reports
from bot.service.kit import ServiceKit
from bot.service.models import MatchStandings, Place, Report


class StandingsCases:
    """The standings use cases over one service kit."""

    def __init__(self, kit: ServiceKit, reports: Reports) -> None:
        self._kit = kit
        self._reports = reports

    async def current(self, place: Place) -> MatchStandings:
        """The channel's current or most recent match. Raises ``NoGameHere`` if none."""
        match = await self._kit.store.games.latest_match(place.channel_id)
        if match is None:
            raise errors.NoGameHere(errors.Code.NO_MATCH)
        return await self._reports.standings(match)

    async def ended_report(
        self, record: st.GameRecord, *, actor_id: int, move: str | None
    ) -> Report:
        """The report of a game's end, rebuilt from the store: the final board, the result,
        the standings and, if the match went on, its next game as it started."""
        games = await self._kit.store.games.match_games(record.match_id)
        following = next((g for g in games if g.index == record.index + 1), None)
        if following is not None:
            following = await self._as_it_stood(following, 0, 0)
        return await self._reports.ended(record, following, actor_id=actor_id, move=move)

    async def report_at(
        self, game_id: int, version: int, plies: int, *, actor_id: int, move: str | None
    ) -> Report:
        """The report of the action that took game ``game_id`` to ``version``, its ``plies``-th,
        rebuilt from the store. Raises ``NotFound`` or ``CorruptGame``."""
        games = self._kit.store.games
        record = await games.get(game_id)
        if not record.is_active and record.version == version:  # that action ended the game
            return await self.ended_report(record, actor_id=actor_id, move=move)
        record = await self._as_it_stood(record, version, plies)
        return Report(actor_id, move, await self._reports.view(record))

    async def _as_it_stood(self, record: st.GameRecord, version: int, plies: int) -> st.GameRecord:
        """``record`` as it stood at ``version``, after its first ``plies`` actions (replayed if
        it has changed since)."""
        if record.version == version:
            return record
        match = record.match
        game = Game.new(match.ruleset, match.layout, match.max_plies)
        for action in (await self._kit.store.games.actions(record.id))[:plies]:
            game.play(action.move)
        return dataclasses.replace(record, engine=game, version=version, status="active")
