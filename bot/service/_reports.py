"""Building what the front ends show: a board, a match's standings, and the report of an action
that ended a game."""

from __future__ import annotations

from bot import store as st
from bot.jarmo.position import Side
from bot.service._scoring import Scoreboard, points_by_player
from bot.service._views import board_picture, result_banner
from bot.service.kit import ServiceKit
from bot.service.models import (
    BoardView,
    CountedResult,
    GameLine,
    GameSummary,
    MatchStandings,
    Report,
)
from bot.service.stats import match_shifts
from bot.service.timecontrol import clock_view


class Reports:
    """Views, standings and reports over one service kit."""

    def __init__(self, kit: ServiceKit) -> None:
        self._kit = kit

    async def view(self, record: st.GameRecord, *, perspective: Side = "white") -> BoardView:
        """The game as its players see it, rendered from ``perspective``."""
        kit, match = self._kit, record.match
        white = await kit.names(record.guild_id, record.white_id)
        black = await kit.names(record.guild_id, record.black_id)
        image = board_picture(
            record.engine,
            perspective=perspective,
            players=(white, black),
            result=result_banner(record),
        )
        clock = clock_view(record, match, kit.now())
        computer_id = kit.computer.user_id if kit.computer else None
        return BoardView(record, match, white, black, image, clock=clock, computer_id=computer_id)

    async def standings(self, match: st.MatchRecord) -> MatchStandings:
        """The state of ``match``: every game's result, the totals, and who is to move."""
        store = self._kit.store
        games = await store.games.match_games(match.id)
        board = Scoreboard(match, games)
        lines = [
            GameLine(
                g.index, g.white_id, g.black_id, g.status,
                None if g.is_active else points_by_player(g),
            )
            for g in games
        ]  # fmt: skip
        running = next((g for g in games if g.is_active), None)
        names = {pid: await self._kit.names(match.guild_id, pid) for pid in match.player_ids}
        over = match.state != "running"
        return MatchStandings(
            match=match,
            names=names,
            games=lines,
            totals=board.totals(),
            leader_id=board.leader(),
            games_left=0 if over else board.games_left,
            turn_user_id=running.player_id(running.engine.turn) if running else None,
            over=over,
            winner_id=match.winner_id,
            rating_changes=await match_shifts(store.ratings, match) if over else (),
            counted=await self._counted(match) if match.state == "aborted" else None,
        )

    async def _counted(self, match: st.MatchRecord) -> CountedResult | None:
        """The result a tournament recorded for ``match``, if it is a decided pairing's."""
        pairing = await self._kit.store.tournaments.pairing_of_match(match.id)
        if pairing is None or not pairing.decided or pairing.second_id is None:
            return None
        points = {pairing.first_id: pairing.first_points, pairing.second_id: pairing.second_points}
        return CountedResult(pairing.winner_id, points, pairing.forfeit, pairing.forced_by)

    async def ended(
        self,
        ended: st.GameRecord,
        next_game: st.GameRecord | None,
        *,
        actor_id: int,
        move: str | None,
        announcement: str | None = None,
    ) -> Report:
        """The report of an action that ended ``ended``: final board, result, standings, and
        the match's next game if it goes on (``ended`` carries the match as the ending left
        it)."""
        match, status = ended.match, ended.status
        summary = GameSummary(
            game=ended,
            status=status,
            outcome=ended.engine.outcome() if status == "finished" else None,
            winner_id=ended.player_id(ended.winner)
            if ended.winner and status != "aborted"
            else None,
            points_by_player=points_by_player(ended),
        )
        next_view = await self.view(next_game) if next_game else None
        return Report(
            actor_id,
            move,
            await self.view(ended),
            ended=summary,
            standings=await self.standings(match),
            next_board=next_view,
            announcement=announcement,
        )
