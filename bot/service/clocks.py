"""The correspondence clock's use cases: pausing and resuming by agreement, and the
deadline scheduler's reminders and timeouts.

They run under the channel lock, like every other change to a game, and re-check the stored game
there: a reminder or timeout for a game that has moved on, ended, or been paused meanwhile does
nothing. Once-only across processes comes from the store's guarded writes.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot import store as st
from bot.jarmo.position import Side
from bot.service import errors
from bot.service._ending import GameEnder, Result
from bot.service._reports import Reports
from bot.service._seats import check_clock, game_changed, players_game
from bot.service.deadlines import DeadlineEvent, DeadlineKind, event_post
from bot.service.kit import ServiceKit
from bot.service.models import Actor, BoardView, Place, Report
from bot.service.offers import PauseOffer
from bot.service.shards import ShardSet
from bot.service.timecontrol import reminder_times, reminders_due


class ClockCases:
    """Pausing and resuming the clock, reminders and timeouts, over one service kit."""

    def __init__(self, kit: ServiceKit, reports: Reports, ender: GameEnder) -> None:
        self._kit = kit
        self._reports = reports
        self._ender = ender

    async def running(self, shards: ShardSet | None = None) -> list[st.RunningClock]:
        """Every active game whose clock runs, earliest deadline first (in the servers of
        ``shards``; default: all)."""
        if shards is None:
            return await self._kit.store.clocks.running()
        return await self._kit.store.clocks.running(shard_count=shards.count, shard_ids=shards.ids)

    # ------------------------------------------------------------------ pause and resume

    async def offer_pause(self, place: Place, actor: Actor) -> PauseOffer:
        """Propose to stop the clock; the opponent accepts with :meth:`accept_pause`."""
        record = await players_game(self._kit, place, actor)
        if not record.clock.running and not record.clock.paused:
            raise errors.ClockUnavailable(errors.Code.NO_CLOCK)
        if record.clock.paused:
            raise errors.ClockUnavailable(errors.Code.ALREADY_PAUSED)
        check_clock(self._kit, record)
        return PauseOffer.to_opponent(record, actor.user_id)

    async def accept_pause(self, place: Place, actor: Actor, offer: PauseOffer) -> BoardView:
        """The opponent agrees: the clock stops and keeps the time that was left."""
        if actor.user_id != offer.answer_by:
            raise errors.NotAllowed(errors.Code.ONLY_ASKED_ACCEPTS_PAUSE)
        kit = self._kit
        async with kit.locks(place.channel_id):
            record = await players_game(kit, place, actor)
            if not offer.still_stands(record):
                raise errors.GameChanged(errors.Code.PAUSE_OFFER_OUTDATED)
            if record.clock.paused:
                raise errors.ClockUnavailable(errors.Code.ALREADY_PAUSED)
            check_clock(kit, record)
            try:
                paused = await kit.store.clocks.pause(
                    record.id, expected_version=record.version, now=kit.now()
                )
            except st.StaleGame:
                raise errors.GameChanged(errors.Code.PAUSE_OFFER_OUTDATED) from None
            return await self._reports.view(paused)

    async def resume(self, place: Place, actor: Actor) -> BoardView:
        """Either player restarts the paused clock with the time that was left."""
        kit = self._kit
        async with kit.locks(place.channel_id):
            record = await players_game(kit, place, actor)
            if not record.clock.paused:
                raise errors.ClockUnavailable(errors.Code.NOT_PAUSED)
            try:
                resumed = await kit.store.clocks.resume(
                    record.id, expected_version=record.version, now=kit.now()
                )
            except st.StaleGame:
                raise game_changed() from None
            kit.signals.new_deadline(resumed.match)
            return await self._reports.view(resumed)

    # ------------------------------------------------------------------ claiming on time

    def time_is_out(self, record: st.GameRecord) -> bool:
        """Whether the player to move in ``record`` has run out of time now, so that their
        opponent may :meth:`claim_win_on_time`."""
        return time_is_out(record, self._kit.now())

    async def claim_win_on_time(
        self, place: Place, actor: Actor, *, game_id: int | None = None
    ) -> Report:
        """The waiting player ends the game on time once the player to move has run out of
        it: exactly the scheduler's :meth:`time_out`, for places where no scheduler posts. The
        caller shows the ending, so nothing is announced.

        ``game_id`` guards a button shown earlier: if that game is no longer the one in play,
        nothing happens (``GameChanged``)."""
        kit = self._kit
        async with kit.locks(place.channel_id):
            try:
                record = await players_game(kit, place, actor)
            except errors.NoGameHere:
                if game_id is None:
                    raise
                raise errors.GameChanged(errors.Code.CLAIM_OUTDATED) from None
            if game_id is not None and record.id != game_id:
                raise errors.GameChanged(errors.Code.CLAIM_OUTDATED)
            loser = record.engine.turn
            if record.player_id(loser) == actor.user_id:
                raise errors.NotAllowed(errors.Code.MOVER_CANNOT_CLAIM)
            clock = record.clock
            if clock.paused:
                raise errors.GamePaused(errors.Code.CLOCK_PAUSED)
            if clock.deadline_at is None:
                raise errors.ClockUnavailable(errors.Code.OPPONENT_HAS_TIME)
            if not time_is_out(record, kit.now()):
                left = (clock.deadline_at - kit.now()).total_seconds()
                raise errors.ClockUnavailable(errors.Code.OPPONENT_HAS_TIME, seconds=int(left))
            return await self._ender.end(record, _timeout(record), game=record.engine)

    # ------------------------------------------------------------------ the scheduler's cases

    async def remind(self, clock: st.RunningClock, *, now: datetime) -> DeadlineEvent | None:
        """Send the reminders due at ``now`` for ``clock`` (one event, however many were
        missed); ``None`` if none is due or another run already sent it."""
        count = reminders_due(clock, now)
        if count <= clock.reminders_sent or now >= clock.deadline_at:
            return None
        kit = self._kit
        async with kit.locks(clock.channel_id):
            record = await self._current(clock)
            if record is None:
                return None
            due = reminder_times(clock.deadline_at, clock.time_per_move_seconds)[count - 1]
            event = _event("reminder", due, clock, record)
            # A player who asked for direct messages is reminded by one; one who turned pings
            # off is reminded without a mention.
            mode = record.ping_setting(event.user_id).mode
            dm = mode == "dm"
            event = dataclasses.replace(event, pinged=mode != "off")
            claimed = await kit.store.clocks.mark_reminders_sent(
                clock.game_id,
                expected_version=clock.version,
                deadline_at=clock.deadline_at,
                count=count,
                announce=[
                    st.announcement(
                        f"reminder:{clock.game_id}:{clock.version}:{count}",
                        event_post(event),
                        to_user=event.user_id if dm else None,
                    )
                ],
                now=now,
            )
            if not claimed:
                return None
        kit.signals.announcements_changed.set()
        return event

    async def time_out(self, clock: st.RunningClock, *, now: datetime) -> DeadlineEvent | None:
        """End the game on time if ``clock``'s deadline has passed at ``now``: the player to
        move loses and forfeits the match, exactly as by resigning. ``None`` if the game moved
        on, ended or was paused first."""
        if now < clock.deadline_at:
            return None
        kit = self._kit
        async with kit.locks(clock.channel_id):
            record = await self._current(clock)
            if record is None:
                return None
            event = _event("timeout", clock.deadline_at, clock, record)
            announce = [st.announcement(f"timeout:{clock.game_id}", event_post(event))]
            try:
                report = await self._ender.end(
                    record, _timeout(record), game=record.engine, announce=announce
                )
            except errors.GameChanged:  # the version check refused it: something came first
                return None
        kit.signals.announcements_changed.set()
        return _event("timeout", clock.deadline_at, clock, record, report)

    async def _current(self, clock: st.RunningClock) -> st.GameRecord | None:
        """The game, if it is still exactly where ``clock`` saw it."""
        try:
            record = await self._kit.store.games.get(clock.game_id)
        except st.NotFound:
            return None
        same = record.version == clock.version and record.clock.deadline_at == clock.deadline_at
        return record if record.is_active and same else None


def time_is_out(record: st.GameRecord, now: datetime) -> bool:
    """Whether the player to move in ``record`` has no time left at ``now`` (a paused clock and
    a game without a time limit never run out)."""
    deadline = record.clock.deadline_at
    return record.is_active and deadline is not None and now >= deadline


def _timeout(record: st.GameRecord) -> Result:
    """The player to move loses on time, and forfeits the rest of the match."""
    loser = record.engine.turn
    winner: Side = "black" if loser == "white" else "white"
    return Result("timeout", winner, "timeout", record.player_id(loser))


def _event(
    kind: DeadlineKind,
    due: datetime,
    clock: st.RunningClock,
    record: st.GameRecord,
    report: Report | None = None,
) -> DeadlineEvent:
    return DeadlineEvent(
        kind=kind,
        due_at=due,
        game_id=clock.game_id,
        guild_id=clock.guild_id,
        channel_id=clock.channel_id,
        user_id=record.player_id(record.engine.turn),
        deadline_at=clock.deadline_at,
        report=report,
    )
