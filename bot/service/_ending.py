"""Ending a game: working out what ending applies (the match goes on or ends, who wins it,
which ratings change) and recording it in one version-checked write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import store as st
from bot.jarmo import Game
from bot.jarmo.position import Side
from bot.service._reports import Reports
from bot.service._scoring import Scoreboard
from bot.service._seats import game_changed
from bot.service.kit import ServiceKit
from bot.service.match_events import MatchEnded, MatchListeners
from bot.service.models import Report


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ends, as the use case decided it."""

    status: st.EndedGameStatus
    winner: Side | None
    termination: str
    actor_id: int  # who caused it (the mover, the resigner, the player out of time ...)


class GameEnder:
    """Records game endings for the use cases that end games (play and clocks)."""

    def __init__(
        self, kit: ServiceKit, reports: Reports, listeners: MatchListeners | None = None
    ) -> None:
        self._kit = kit
        self._reports = reports
        self._listeners = listeners or MatchListeners()  # told when an ending ends the match

    async def end(
        self,
        record: st.GameRecord,
        result: Result,
        *,
        game: Game,
        final_move: st.FinalMove | None = None,
        announce: Sequence[st.Announcement] = (),
    ) -> Report:
        """End ``record`` as ``result`` says, with ``game`` as its final position. Raises
        ``GameChanged`` if another action got there first."""
        store, ratings = self._kit.store, self._kit.ratings
        match = record.match  # read with the game: it cannot change while the game is active
        then = await self._then(record, match, result, game)
        # Ratings are read and the update written under the server's rating lock, so the
        # update is computed from the ratings it replaces (the store checks that too).
        async with ratings.lock(record.guild_id):
            update = await ratings.plan(
                store.ratings, record, match, status=result.status, winner=result.winner
            )
            ending = st.GameEnding(
                status=result.status,
                winner=result.winner,
                points=game.points(),
                termination=result.termination,
                game=game,
                then=then,
                final_move=final_move,
                ratings=update,
                announce=announce,
            )
            try:
                end = await store.games.end(
                    record.id, ending, expected_version=record.version, now=self._kit.now()
                )
            except (st.StaleGame, st.StaleRatings):
                raise game_changed() from None
        if end.next_game is not None:
            self._kit.signals.new_deadline(end.match)
        else:
            await self._listeners.tell(MatchEnded(end.match))
        return await self._reports.ended(
            end.game,
            end.next_game,
            actor_id=result.actor_id,
            move=final_move.move if final_move else None,
            announcement=next((a.key for a in announce if a.held_seconds), None),
        )

    async def _then(
        self, record: st.GameRecord, match: st.MatchRecord, result: Result, game: Game
    ) -> st.NextGame | st.MatchOver:
        """Whether the match goes on after this game, or how it ends."""
        if result.status == "aborted":
            return st.MatchOver("aborted")
        # The game being ended counts as this ending only: another process may have ended it
        # since it was read (the version check then refuses this write), and counting it twice
        # would score a match that is already over.
        games = await self._kit.store.games.match_games(match.id)
        board = Scoreboard(match, [ended for ended in games if ended.id != record.id])
        points = game.points()
        if result.status in ("resigned", "timeout"):
            loser: Side = "black" if result.winner == "white" else "white"
            board.forfeit(record.player_id(loser), points)
            return st.MatchOver("forfeited", board.winner())
        board.record(points)
        if board.over:
            return st.MatchOver("finished", board.winner())
        return st.NextGame(Game.new(match.ruleset, match.layout, match.max_plies))
