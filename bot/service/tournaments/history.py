"""Finished tournaments stay on show: the ones a player took part in, with where
they finished, and the final table of any of them, rebuilt from the stored entries and
pairings (the table is never stored, so it is always the one the draw's rules give)."""

from __future__ import annotations

from bot import store as st
from bot.service.errors import Code, NoStats
from bot.service.kit import ServiceKit
from bot.service.stats_models import TournamentPlacing
from bot.service.tournaments import draw
from bot.service.tournaments.rounds import Rounds
from bot.service.tournaments.views import TableView

HISTORY_TOURNAMENTS = 10  # with HISTORY_GAMES, well within a picker's 25 options


class TournamentHistory:
    """Finished tournaments: a player's placings and the final tables."""

    def __init__(self, kit: ServiceKit, rounds: Rounds) -> None:
        self._kit = kit
        self._rounds = rounds

    async def placings(
        self, guild_id: int, user_id: int, *, limit: int = HISTORY_TOURNAMENTS
    ) -> tuple[TournamentPlacing, ...]:
        """The finished tournaments of the server that the player was entered in (withdrawn
        too), newest first, at most ``limit``, each with the player's final rank and their
        matches a moderator forced."""
        store = self._kit.store.tournaments
        placings = []
        for record in await store.finished_with(guild_id, user_id, limit=limit):
            table = await self._standings(record)
            row = next(row for row in table.rows if row.player == user_id)
            forced = tuple(
                (cell.round, cell.forced_by)
                for cell in row.rounds
                if cell is not None and cell.forced_by is not None
            )
            placings.append(TournamentPlacing(record, row.rank, len(table.rows), forced))
        return tuple(placings)

    async def final_table(self, guild_id: int, tournament_id: int) -> TableView:
        """The final table of a finished tournament of this server. Raises ``NoStats``
        (``TOURNAMENT_NOT_IN_HISTORY``) for an unknown id, another server's tournament or one
        that has not finished."""
        try:
            record = await self._kit.store.tournaments.get(tournament_id)
        except st.NotFound:
            record = None
        if record is None or record.guild_id != guild_id or record.status != "finished":
            raise NoStats(Code.TOURNAMENT_NOT_IN_HISTORY, tournament=tournament_id)
        return await self._rounds.stored_table(record)

    async def server_tables(self, guild_id: int, *, limit: int) -> tuple[TableView, ...]:
        """The tables of the server's ``limit`` newest tournaments, newest first, as their
        stored results stand (sign-up and running ones too)."""
        records = await self._kit.store.tournaments.of_server(guild_id, limit=limit)
        return tuple([await self._rounds.stored_table(record) for record in records])

    async def last_final_in(self, channel_id: int) -> TableView | None:
        """The final table of the channel's most recently finished tournament, if any."""
        record = await self._kit.store.tournaments.last_finished_in(channel_id)
        return None if record is None else await self._rounds.stored_table(record)

    async def _standings(self, record: st.TournamentRecord) -> draw.Standings:
        return draw.standings(await self._rounds.stored_event(record))
