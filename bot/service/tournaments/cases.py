"""Tournaments: creating one, signing up, starting it, results flowing back from matches,
withdrawals, a moderator's forced results, and the pairings and table to show.

The draw and the table are the pure ``bot.service.tournaments.draw`` package; going from round to
round is :mod:`bot.service.tournaments.rounds`. ``moderator`` arguments say whether the actor may
run tournaments in the server (the front end decides: Discord's Manage Server permission or a
configured role).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Awaitable, Callable

from bot import store as st
from bot.service import errors
from bot.service._ending import GameEnder, Result
from bot.service._reports import Reports
from bot.service.challenges import ChallengeCases
from bot.service.game_options import TOURNAMENT_RULES, check_game_options
from bot.service.kit import ServiceKit
from bot.service.match_events import MatchEnded
from bot.service.models import Actor, Place
from bot.service.tournaments import draw
from bot.service.tournaments.history import TournamentHistory
from bot.service.tournaments.posts import TournamentPosts
from bot.service.tournaments.rounds import Rounds, event_of, planned_rounds
from bot.service.tournaments.views import (
    ForcedMatch,
    ForcedRound,
    RoundView,
    TableView,
    TournamentRequest,
    TournamentView,
)
from bot.service.venues import Venue

FORMATS: tuple[draw.Format, ...] = ("round-robin", "swiss")
MOST_ROUNDS = 30  # more than any event on a server plays; keeps a typo from meaning years
NAME_LIMIT = 60  # characters of a tournament's name (it titles the table and messages)

IsMember = Callable[[int], Awaitable[bool]]


class TournamentCases:
    """The tournament use cases over one service kit."""

    def __init__(
        self, kit: ServiceKit, ender: GameEnder, reports: Reports, challenges: ChallengeCases
    ) -> None:
        self._kit = kit
        self._ender = ender
        self.rounds = Rounds(kit, challenges)
        self.history = TournamentHistory(kit, self.rounds)
        self.posts = TournamentPosts(kit, reports, self.rounds)

    def attach(self, venue: Venue) -> None:
        """Let ``venue`` (the front end's) open matches' places; from then on the rounds, the
        matches' welcomes and the final table are written to the outbox for it to post."""
        self.rounds.venue = venue

    # -- sign-up --------------------------------------------------------------------------

    async def create(
        self, place: Place, actor: Actor, request: TournamentRequest, *, moderator: bool
    ) -> TournamentView:
        """Open a tournament for sign-up in ``place``. Refuses non-moderators, bad options,
        and a channel that already has a tournament in sign-up or running."""
        if place.guild_id is None:  # a tournament posts its rounds by itself
            raise errors.NotAllowed(errors.Code.TOURNAMENT_NEEDS_SERVER)
        if not moderator:
            raise errors.NotAllowed(errors.Code.TOURNAMENT_NEEDS_MANAGER)
        new = self._new(place.guild_id, place.channel_id, actor, request)
        await self._kit.names.remember(place, actor)
        try:
            record = await self._kit.store.tournaments.create(new, now=self._kit.now())
        except st.ChannelHasTournament:
            raise errors.ChannelBusy(errors.Code.TOURNAMENT_IN_CHANNEL) from None
        return await self.view(record.id)

    def _new(
        self, guild_id: int, channel_id: int, actor: Actor, request: TournamentRequest
    ) -> st.NewTournament:
        name = " ".join(request.name.split())
        if not 0 < len(name) <= NAME_LIMIT:
            raise errors.TournamentRefused(errors.Code.BAD_TOURNAMENT_NAME, most=NAME_LIMIT)
        format = next((f for f in FORMATS if f == request.format), None)
        if format is None:
            raise errors.TournamentRefused(errors.Code.BAD_TOURNAMENT_FORMAT, name=request.format)
        if request.rounds is not None and not 1 <= request.rounds <= MOST_ROUNDS:
            raise errors.TournamentRefused(
                errors.Code.BAD_TOURNAMENT_ROUNDS, rounds=request.rounds, most=MOST_ROUNDS
            )
        settings = check_game_options(
            self._kit.config,
            TOURNAMENT_RULES,
            games=request.games,
            ruleset=request.ruleset,
            time_per_move=request.time_per_move,
        )
        return st.NewTournament(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=actor.user_id,
            name=name,
            format=format,
            rounds=request.rounds or 0,
            game_count=settings.game_count,
            ruleset=settings.ruleset,
            layout=settings.layout,
            max_plies=settings.max_plies,
            time_per_move_seconds=settings.time_per_move_seconds,
        )

    async def attach_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (its count is kept up to date)."""
        await self._kit.store.tournaments.attach_message(tournament_id, message_id)

    async def join(self, tournament_id: int, actor: Actor) -> TournamentView:
        """Sign up (Join). Refused once the tournament has started."""
        record = await self._tournament(tournament_id)
        await self._kit.names.remember(Place(record.guild_id, record.channel_id), actor)
        try:
            await self._kit.store.tournaments.join(tournament_id, actor.user_id)
        except st.TournamentClosed:
            raise errors.TournamentRefused(errors.Code.SIGNUP_CLOSED) from None
        return await self.view(tournament_id)

    async def unjoin(self, tournament_id: int, actor: Actor) -> TournamentView:
        """Take oneself off the list during sign-up (Leave). Refused once it has started."""
        try:
            await self._kit.store.tournaments.leave(tournament_id, actor.user_id)
        except st.TournamentClosed:
            raise errors.TournamentRefused(errors.Code.SIGNUP_CLOSED) from None
        except st.NotFound:
            raise errors.NoGameHere(errors.Code.NO_TOURNAMENT) from None
        return await self.view(tournament_id)

    async def view(self, tournament_id: int) -> TournamentView:
        """The tournament with its entries and their names."""
        record = await self._tournament(tournament_id)
        entries = tuple(await self._kit.store.tournaments.entries(tournament_id))
        names = await self.rounds.names(record, {e.user_id for e in entries})
        return TournamentView(record, entries, names)

    async def _tournament(self, tournament_id: int) -> st.TournamentRecord:
        try:
            return await self._kit.store.tournaments.get(tournament_id)
        except st.NotFound:
            raise errors.NoGameHere(errors.Code.NO_TOURNAMENT) from None

    async def _in(self, place: Place) -> st.TournamentRecord:
        """The channel's open tournament, or its last one. Raises ``NoGameHere``."""
        record = await self._kit.store.tournaments.latest_in(place.channel_id)
        if record is None:
            raise errors.NoGameHere(errors.Code.NO_TOURNAMENT)
        return record

    # -- start ----------------------------------------------------------------------------

    async def start(
        self, place: Place, actor: Actor, *, moderator: bool, is_member: IsMember
    ) -> RoundView:
        """Close sign-up and pair round 1, starting its matches. Refuses non-moderators, fewer
        than three players, more rounds than the players allow, an entered player who has left
        the server (``is_member`` says), and a tournament already started (also when two
        moderators press start at once: the store lets one through)."""
        if not moderator:
            raise errors.NotAllowed(errors.Code.TOURNAMENT_NEEDS_MANAGER)
        record = await self._in(place)
        if record.status != "signup":
            raise errors.TournamentRefused(errors.Code.SIGNUP_CLOSED)
        entries = await self._kit.store.tournaments.entries(record.id)
        count = len(entries)
        if count < draw.MIN_PLAYERS:
            raise errors.TournamentRefused(
                errors.Code.TOO_FEW_PLAYERS, count=count, least=draw.MIN_PLAYERS
            )
        most = draw.max_rounds(record.format, count)
        if planned_rounds(record, count) > most:
            raise errors.TournamentRefused(
                errors.Code.TOO_MANY_ROUNDS, rounds=record.rounds, most=most, count=count
            )
        for entry in entries:
            if not await is_member(entry.user_id):
                name = await self._kit.names(record.guild_id, entry.user_id)
                raise errors.TournamentRefused(errors.Code.PLAYER_LEFT_SERVER, name=name)
        event = event_of(entries, [])
        drawn = draw.pair_round(record.format, event, 1)
        try:
            record = await self.rounds.pair(record, drawn, event.withdrawn)
        except st.StaleTournament:
            raise errors.TournamentRefused(errors.Code.SIGNUP_CLOSED) from None
        return await self.rounds.round_view(record, 1)

    # -- results --------------------------------------------------------------------------

    async def match_ended(self, event: MatchEnded) -> None:
        """A match ended (by any ending): if it is a tournament pairing, record its result and
        wake the job that advances tournaments."""
        store = self._kit.store.tournaments
        pairing = await store.pairing_of_match(event.match.id)
        if pairing is None or pairing.decided:
            return
        result = await self.rounds.result_of(event.match)
        if await store.decide(pairing.tournament_id, pairing.round, pairing.board, result):
            self.rounds.changed.set()

    async def force(self, place: Place, actor: Actor, *, moderator: bool) -> ForcedRound:
        """A moderator ends the current round: each unfinished match is decided by the games
        finished so far (the player ahead on them wins; level is a draw; the game in play does
        not count) and its game is stopped. Returns the round and each match it decided, with
        the result the table counts (the thread's standings say the same)."""
        if not moderator:
            raise errors.NotAllowed(errors.Code.TOURNAMENT_NEEDS_MANAGER)
        record = await self._running(place)
        forced: list[ForcedMatch] = []
        for pairing in await self._kit.store.tournaments.pairings(record.id):
            if pairing.round != record.current_round or pairing.decided:
                continue
            if pairing.match_id is None or pairing.second_id is None:  # never started
                drawn = st.PairingResult(None, forced_by=actor.user_id)
                await self._decide_and_stop(pairing, drawn, actor)
                continue
            match = await self._kit.store.games.match(pairing.match_id)
            played = await self.rounds.result_of(match)
            result = dataclasses.replace(played, forced_by=actor.user_id)
            if await self._decide_and_stop(pairing, result, actor):
                forced.append(
                    ForcedMatch(match.channel_id, pairing.first_id, pairing.second_id, result)
                )
        self.rounds.changed.set()
        view = await self.rounds.round_view(record, record.current_round)
        return ForcedRound(view, actor.user_id, tuple(forced))

    async def leave(
        self, place: Place, actor: Actor, *, player: int | None = None, moderator: bool = False
    ) -> TournamentView:
        """Leave the channel's tournament (a moderator may name another ``player``). During
        sign-up the entry is simply removed; once started it is a withdrawal: the current
        match is forfeited, later rounds pair the player no more, results played stay."""
        who = actor.user_id if player is None else player
        if who != actor.user_id and not moderator:
            raise errors.NotAllowed(errors.Code.TOURNAMENT_NEEDS_MANAGER)
        record = await self._in(place)
        entries = {e.user_id: e for e in await self._kit.store.tournaments.entries(record.id)}
        entry = entries.get(who)
        if record.status == "finished" or entry is None or entry.withdrawn:
            raise errors.TournamentRefused(errors.Code.NOT_IN_TOURNAMENT, player=who)
        if record.status == "signup":
            await self._kit.store.tournaments.leave(record.id, who)
            return await self.view(record.id)
        await self._kit.store.tournaments.withdraw(record.id, who)
        for pairing in await self._kit.store.tournaments.pairings(record.id):
            current = pairing.round == record.current_round and not pairing.decided
            if current and who in pairing.player_ids and pairing.second_id is not None:
                absent = draw.Pairing(pairing.first_id, pairing.second_id)
                lost = draw.forfeit(pairing.round, absent, absent=who)
                await self._decide_and_stop(
                    pairing, st.PairingResult(lost.winner, forfeit=True), actor
                )
        self.rounds.changed.set()
        return await self.view(record.id)

    async def _decide_and_stop(
        self, pairing: st.PairingRecord, result: st.PairingResult, actor: Actor
    ) -> bool:
        """Record ``result`` first (so the abort's match-ending event finds it decided), then
        end the match's game in play as aborted. Whether ``result`` is the one recorded (the
        match may have ended by itself meanwhile, with its own result)."""
        store = self._kit.store
        decided = await store.tournaments.decide(
            pairing.tournament_id, pairing.round, pairing.board, result
        )
        if pairing.match_id is None or not decided:
            return decided
        channel_id = (await store.games.match(pairing.match_id)).channel_id
        async with self._kit.locks(channel_id):
            game = await store.games.active(channel_id)
            if game is None or game.match_id != pairing.match_id:
                return True
            abort = Result("aborted", None, "aborted", actor.user_id)
            # A move that got in first leaves the game on; the round goes on regardless.
            with contextlib.suppress(errors.GameChanged):
                await self._ender.end(game, abort, game=game.engine)
        return True

    async def _running(self, place: Place) -> st.TournamentRecord:
        record = await self._in(place)
        if record.status != "running":
            raise errors.TournamentRefused(errors.Code.TOURNAMENT_NOT_RUNNING)
        return record

    # -- what to show ---------------------------------------------------------------------

    async def pairings(self, place: Place, number: int | None = None) -> RoundView:
        """Round ``number``'s pairings (default: the current round)."""
        record = await self._in(place)
        if record.current_round == 0:
            raise errors.TournamentRefused(errors.Code.TOURNAMENT_NOT_RUNNING)
        number = record.current_round if number is None else number
        if not 1 <= number <= record.current_round:
            raise errors.TournamentRefused(
                errors.Code.NO_SUCH_ROUND, round=number, current=record.current_round
            )
        return await self.rounds.round_view(record, number)

    async def standings(self, place: Place) -> TableView:
        """The table of the channel's tournament (final once it has ended). While the next one
        signs up, the last finished one's final table stays on show; refuses a channel that
        never had a tournament, and one whose only tournament has not started."""
        record = await self._in(place)
        if record.current_round == 0:
            last = await self.history.last_final_in(place.channel_id)
            if last is None:
                raise errors.TournamentRefused(errors.Code.TOURNAMENT_NOT_RUNNING)
            return last
        return await self.rounds.stored_table(record)


__all__ = ["FORMATS", "IsMember", "TournamentCases"]
