"""Rebuilding a tournament's posts from the store when the delivery loop takes them from the
outbox (what they are and when they are written: ``announcements``)."""

from __future__ import annotations

from bot import store as st
from bot.service._reports import Reports
from bot.service.kit import ServiceKit
from bot.service.tournaments.rounds import Rounds
from bot.service.tournaments.views import MatchWelcome, RoundView, TableView


class NotReady(Exception):
    """The post cannot be made yet: a match of its round has no place (thread) so far."""


class TournamentPosts:
    """Rebuilds a tournament post of the outbox from the store."""

    def __init__(self, kit: ServiceKit, reports: Reports, rounds: Rounds) -> None:
        self._store = kit.store
        self._reports = reports
        self._rounds = rounds

    async def round(self, post: st.RoundPost, *, wait_for_places: bool) -> RoundView:
        """The round of ``post`` with where each match is played. Raises ``NotReady`` if
        ``wait_for_places`` and a match to play has no place yet; ``NotFound``."""
        tournament = await self._store.tournaments.get(post.tournament_id)
        view = await self._rounds.round_view(tournament, post.round)
        unplaced = [
            p.board
            for p in view.pairings
            if not p.decided and p.second_id is not None and p.board not in view.channels
        ]
        if wait_for_places and unplaced:
            raise NotReady(f"boards {unplaced} have no place yet")
        return view

    async def welcome(self, post: st.WelcomePost) -> MatchWelcome:
        """The welcome of ``post``'s match: its current board (the first, unless the players
        were quicker than the post). Raises ``NotFound`` (no such pairing, or it has no match)."""
        tournament = await self._store.tournaments.get(post.tournament_id)
        number, board = post.round, post.board
        pairing = next(
            (
                p
                for p in await self._store.tournaments.pairings(tournament.id)
                if (p.round, p.board) == (number, board)
            ),
            None,
        )
        if pairing is None or pairing.match_id is None or pairing.second_id is None:
            raise st.NotFound("tournament match", (tournament.id, number, board))
        match = await self._store.games.match(pairing.match_id)
        games = await self._store.games.match_games(match.id)
        game = next((g for g in games if g.is_active), games[-1])
        view = await self._reports.view(game)
        return MatchWelcome(tournament, match.channel_id, pairing.first_id, pairing.second_id, view)

    async def table(self, post: st.FinalTablePost) -> TableView:
        """The table of ``post``'s tournament (final once it has finished)."""
        tournament = await self._store.tournaments.get(post.tournament_id)
        return await self._rounds.stored_table(tournament)
