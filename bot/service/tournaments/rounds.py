"""Running a tournament's rounds from what the store holds: starting each pairing's match,
taking results from matches that ended, pairing the next round once every match of the current
one has ended, and finishing the event.

Every step reads the store and is safe to repeat, so after a restart (or a lost match-ending
event) :meth:`Rounds.advance` simply carries on. A round change is version-checked in the store,
so when two processes or moderators try, it happens once.

What the players are told (the round, each match's welcome, the final table) is written to the
announcement outbox with the change itself (``announcements``) and posted by the
delivery loop. Only a service with a venue writes them: without one (tests, the console) no match
starts and nobody would post them, so they would only lie in the outbox.

A pairing's match starts as an accepted challenge does (``ChallengeCases.start_arranged``), in
the place the front end's venue opens for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable

from bot import store as st
from bot.service._scoring import Scoreboard
from bot.service.bounded import KeyedLocks
from bot.service.challenges import ChallengeCases
from bot.service.game_options import GameOptions
from bot.service.jobs import Job
from bot.service.kit import ServiceKit
from bot.service.models import Actor, Place
from bot.service.tournaments import draw
from bot.service.tournaments.announcements import (
    final_announcement,
    round_announcement,
    welcome_announcement,
)
from bot.service.tournaments.views import RoundView, TableView
from bot.service.venues import Venue

log = logging.getLogger(__name__)

ADVANCE_EVERY_SECONDS = 60.0  # a round also moves on without a wake-up (after a restart, say)


def planned_rounds(tournament: st.TournamentRecord, count: int) -> int:
    """How many rounds the event has for ``count`` entries: as asked, or by default the whole
    round robin, or enough Swiss rounds to leave one player ahead of the field."""
    if tournament.rounds:
        return tournament.rounds
    most = draw.max_rounds(tournament.format, count)
    if tournament.format == "round-robin":
        return most
    return min(most, max(1, math.ceil(math.log2(count))))


def event_of(entries: list[st.EntryRecord], pairings: list[st.PairingRecord]) -> draw.Event:
    """The pure event (players by seed, decided results and byes, withdrawals, rounds still
    being played) of stored rows."""
    results: list[draw.MatchResult] = []
    byes: list[draw.Bye] = []
    unfinished: set[int] = set()
    for pairing in pairings:
        if not pairing.decided:
            unfinished.add(pairing.round)
            continue
        if pairing.second_id is None:
            byes.append(draw.Bye(pairing.round, pairing.first_id))
        else:
            results.append(
                draw.MatchResult(
                    pairing.round,
                    pairing.first_id,
                    pairing.second_id,
                    pairing.winner_id,
                    (pairing.first_points, pairing.second_points),
                    forfeit=pairing.forfeit,
                    forced_by=pairing.forced_by,
                )
            )
    return draw.Event(
        players=tuple(entry.user_id for entry in entries),
        results=tuple(results),
        byes=tuple(byes),
        withdrawn=frozenset(entry.user_id for entry in entries if entry.withdrawn),
        unfinished=frozenset(unfinished),
    )


def new_pairings(drawn: draw.Round, withdrawn: frozenset[int]) -> list[st.NewPairing]:
    """A round's draw as rows to store: matches to play, then walkovers and the bye, both
    decided already."""
    rows = [st.NewPairing(p.first, p.second) for p in drawn.pairings]
    rows += [
        st.NewPairing(r.first, r.second, decided=True, winner_id=r.winner, forfeit=True)
        for r in drawn.walkover_results(withdrawn)
    ]
    if drawn.bye is not None:
        rows.append(st.NewPairing(drawn.bye, None, decided=True, winner_id=drawn.bye))
    return rows


class Rounds:
    """Carries tournaments from round to round. ``venue`` is the front end's part (it opens
    each match's place); without one, results are still recorded but no match can start."""

    def __init__(self, kit: ServiceKit, challenges: ChallengeCases) -> None:
        self._kit = kit
        self._challenges = challenges
        self.venue: Venue | None = None
        self._locks: KeyedLocks[int] = KeyedLocks()  # saves work in one process; see module doc
        # Set when a tournament may be able to move on (a result came in): wakes the front
        # end's job that calls ``advance_all`` (which also runs now and then regardless).
        self.changed = asyncio.Event()

    async def result_of(self, match: st.MatchRecord) -> st.PairingResult:
        """A pairing's result from its match: the match's winner, or for an aborted match the
        player ahead on games (level: drawn), with each player's game points."""
        board = Scoreboard(match, await self._kit.store.games.match_games(match.id))
        totals = board.totals()
        winner = board.leader() if match.state in ("aborted", "running") else match.winner_id
        first, second = match.player_ids
        return st.PairingResult(winner, totals.get(first, 0), totals.get(second, 0))

    def job(self, owns: Callable[[int], bool] | None = None) -> Job:
        """The background job that advances the tournaments ``owns`` accepts whenever a result
        comes in, and every ``ADVANCE_EVERY_SECONDS`` regardless."""

        async def advance_pass() -> None:
            self.changed.clear()  # a result during the pass wakes the next one
            await self.advance_all(owns)

        return Job("tournaments", advance_pass, self.wait_for_change)

    async def wait_for_change(self) -> None:
        """Until a tournament may be able to move on, or ``ADVANCE_EVERY_SECONDS`` at most."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), ADVANCE_EVERY_SECONDS)

    async def advance_all(self, owns: Callable[[int], bool] | None = None) -> None:
        """Advance every running tournament in the servers that ``owns`` accepts (default: all;
        one's trouble does not stop the others). In a cluster each process advances the
        tournaments of its own shards' servers: it alone can open their threads."""
        for tournament in await self._kit.store.tournaments.running():
            if owns is not None and not owns(tournament.guild_id):
                continue
            try:
                await self.advance(tournament.id)
            except Exception:
                log.exception("could not advance tournament %d", tournament.id)

    async def advance(self, tournament_id: int) -> None:
        """Bring one tournament up to date: start the current round's missing matches, take
        results of matches that ended, and pair the next round (or finish) once all are in."""
        async with self._locks(tournament_id):
            store = self._kit.store.tournaments
            tournament = await store.get(tournament_id)
            if tournament.status != "running":
                return
            await self._start_matches(tournament)
            await self._collect_results(tournament)
            pairings = await store.pairings(tournament_id)
            current = [p for p in pairings if p.round == tournament.current_round]
            if any(not p.decided for p in current):
                return
            await self._next_round(tournament, await store.entries(tournament_id), pairings)

    async def _next_round(
        self,
        tournament: st.TournamentRecord,
        entries: list[st.EntryRecord],
        pairings: list[st.PairingRecord],
    ) -> None:
        event = event_of(entries, pairings)
        number = tournament.current_round + 1
        drawn: draw.Round | None = None
        if number <= planned_rounds(tournament, len(entries)) and len(event.active) >= 2:
            try:
                drawn = draw.pair_round(tournament.format, event, number)
            except draw.PairingError:
                log.exception("tournament %d: round %d cannot be paired", tournament.id, number)
        if drawn is None:
            await self._finish(tournament)
            return
        await self._pair(tournament, drawn, event.withdrawn)

    async def pair(
        self, tournament: st.TournamentRecord, drawn: draw.Round, withdrawn: frozenset[int]
    ) -> st.TournamentRecord:
        """Store round ``drawn`` as the tournament's next with its post (raises
        ``StaleTournament`` if another got there first), start its matches, then let the post
        go. Holds the tournament's lock, so the background job's advance cannot start the same
        matches meanwhile."""
        async with self._locks(tournament.id):
            return await self._pair(tournament, drawn, withdrawn)

    async def _pair(
        self, tournament: st.TournamentRecord, drawn: draw.Round, withdrawn: frozenset[int]
    ) -> st.TournamentRecord:
        kit = self._kit
        rows = new_pairings(drawn, withdrawn)
        number = tournament.current_round + 1
        post = round_announcement(tournament.id, number) if self.venue is not None else None
        tournament = await kit.store.tournaments.start_round(
            tournament.id,
            expected_round=tournament.current_round,
            pairings=rows,
            announce=() if post is None else (post,),
            now=kit.now(),
        )
        try:
            await self._start_matches(tournament)
        finally:
            if post is not None:  # on a failure, what is started is posted; advance does the rest
                await self._release(post.key)
        if all(row.decided for row in rows):  # nothing to play (all walkovers): go on
            self.changed.set()
        return tournament

    async def _release(self, key: str) -> None:
        """Let the delivery loop post ``key``, held for this writer until now."""
        kit = self._kit
        await kit.store.outbox.settle(key, "retry", lease=st.WRITER_LEASE, now=kit.now())
        kit.signals.announcements_changed.set()

    async def _finish(self, tournament: st.TournamentRecord) -> None:
        kit = self._kit
        try:
            await kit.store.tournaments.finish(
                tournament.id,
                expected_round=tournament.current_round,
                now=kit.now(),
                announce=[final_announcement(tournament.id)] if self.venue is not None else (),
            )
        except st.StaleTournament:
            return  # another process finished it (and its table is in the outbox)
        kit.signals.announcements_changed.set()

    async def _start_matches(self, tournament: st.TournamentRecord) -> None:
        """Start the match of each undecided pairing of the current round that has none yet."""
        if self.venue is None:
            return
        for pairing in await self._kit.store.tournaments.pairings(tournament.id):
            if (
                pairing.round == tournament.current_round
                and not pairing.decided
                and pairing.match_id is None
                and pairing.second_id is not None
            ):
                # One board that cannot start must not hold up the others, nor the results:
                # it waits, and the next advance tries it again.
                try:
                    await self._start_match(tournament, pairing, pairing.second_id)
                except Exception:
                    log.exception(
                        "tournament %d: could not start board %d of round %d; trying again later",
                        tournament.id,
                        pairing.board,
                        pairing.round,
                    )

    async def _start_match(
        self, tournament: st.TournamentRecord, pairing: st.PairingRecord, second: int
    ) -> None:
        kit, names = self._kit, self._kit.names
        assert self.venue is not None
        settings = GameOptions(
            tournament.game_count,
            tournament.ruleset,
            tournament.layout,
            tournament.max_plies,
            tournament.time_per_move_seconds,
        )
        match = await self._challenges.start_arranged(
            Place(tournament.guild_id, tournament.channel_id),
            Actor(pairing.first_id, await names(tournament.guild_id, pairing.first_id)),
            Actor(second, await names(tournament.guild_id, second)),
            settings.challenge("white"),  # the pairing's first player starts
            venue=self.venue,
            tournament_name=tournament.name,
        )
        if match is None:
            log.warning("tournament %d: no place for board %d yet", tournament.id, pairing.board)
            return
        attached = await kit.store.tournaments.attach_match(
            tournament.id,
            pairing.round,
            pairing.board,
            match.id,
            announce=[welcome_announcement(pairing)],
            now=kit.now(),
        )
        if not attached:
            # Only a misconfigured cluster (two processes advancing one server) gets here: the
            # pairing keeps the other process's match, and this one is a duplicate.
            log.warning(
                "tournament %d: board %d of round %d was started twice; match %d is not counted",
                tournament.id,
                pairing.board,
                pairing.round,
                match.id,
            )
        kit.signals.announcements_changed.set()

    async def _collect_results(self, tournament: st.TournamentRecord) -> None:
        """Results of the current round's matches that ended while nobody listened (a
        restart between the ending and its event)."""
        store = self._kit.store
        for pairing in await store.tournaments.pairings(tournament.id):
            if pairing.decided or pairing.match_id is None:
                continue
            match = await store.games.match(pairing.match_id)
            if match.state != "running":
                result = await self.result_of(match)
                await store.tournaments.decide(tournament.id, pairing.round, pairing.board, result)

    async def round_view(self, tournament: st.TournamentRecord, number: int) -> RoundView:
        """Round ``number``'s boards with where each is played."""
        store = self._kit.store
        pairings = tuple(
            p for p in await store.tournaments.pairings(tournament.id) if p.round == number
        )
        channels = {
            p.board: (await store.games.match(p.match_id)).channel_id
            for p in pairings
            if p.match_id is not None
        }
        players = {who for p in pairings for who in p.player_ids}
        return RoundView(
            tournament, number, pairings, channels, await self.names(tournament, players)
        )

    async def stored_event(self, tournament: st.TournamentRecord) -> draw.Event:
        """The event as its stored entries and pairings stand."""
        store = self._kit.store.tournaments
        return event_of(await store.entries(tournament.id), await store.pairings(tournament.id))

    async def stored_table(self, tournament: st.TournamentRecord) -> TableView:
        """The table as the stored results stand (final once the event has finished)."""
        return await self.table(tournament, await self.stored_event(tournament))

    async def table(self, tournament: st.TournamentRecord, event: draw.Event) -> TableView:
        """The table of ``event`` with names."""
        return TableView(
            tournament,
            draw.standings(event),
            await self.names(tournament, set(event.players)),
            planned_rounds(tournament, len(event.players)),
        )

    async def names(self, tournament: st.TournamentRecord, players: set[int]) -> dict[int, str]:
        """The names of ``players`` in the tournament's server."""
        return {who: await self._kit.names(tournament.guild_id, who) for who in sorted(players)}
