"""The use cases of the correspondence clock (issue 9), mixed into :class:`JarmoService`.

Pause, resume, reminders and timeouts run under the channel lock, like every other change to a
game, and re-check the stored game there: a reminder or timeout for a game that has moved on,
ended, or been paused meanwhile does nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from bot import store as st
from bot.service import errors
from bot.service.deadlines import DeadlineEvent, event_payload
from bot.service.models import Actor, BoardView, Place, Report
from bot.service.offers import PauseOffer
from bot.service.timecontrol import (
    TimeControlError,
    parse_time_per_move,
    reminder_times,
    reminders_due,
)

if TYPE_CHECKING:
    from bot.jarmo import Game
    from bot.service.models import ServiceConfig

_CHANGED_OFFER = "The game has moved on since that offer. Use /jarmo pause to offer again."


class ClockCases:
    """Pausing and resuming the clock, reminders and timeouts."""

    if TYPE_CHECKING:  # provided by JarmoService
        _store: st.Store
        _clock: Callable[[], datetime]
        deadlines_changed: asyncio.Event
        announcements_changed: asyncio.Event

        @property
        def config(self) -> ServiceConfig: ...
        def channel_lock(self, channel_id: int) -> asyncio.Lock: ...
        async def display_name(self, guild_id: int, user_id: int) -> str: ...
        async def _players_game(
            self, place: Place, actor: Actor, *, needs_turn: bool = False
        ) -> st.GameRecord: ...
        async def _view(
            self, record: st.GameRecord, match: st.MatchRecord, *, perspective: str = "white"
        ) -> BoardView: ...
        async def _end(
            self,
            record: st.GameRecord,
            *,
            game: Game,
            status: str,
            winner: str | None,
            termination: str,
            actor_id: int,
            move: tuple[int, str] | None = None,
            announce: st.Announcement | None = None,
        ) -> Report: ...

    def now(self) -> datetime:
        """The service's clock (UTC); the deadline scheduler runs on the same one."""
        return self._clock()

    async def running_clocks(self) -> list[st.RunningClock]:
        """Every active game whose clock runs, earliest deadline first."""
        return await self._store.running_clocks()

    def _time_per_move(self, text: str | None) -> int | None:
        """Seconds per move for a challenge: ``text`` read, or the configured default."""
        if text is None:
            return self.config.time_per_move_seconds
        try:
            return parse_time_per_move(text)
        except TimeControlError as exc:
            raise errors.ChallengeUnavailable(str(exc)) from None

    def _check_clock(self, record: st.GameRecord) -> None:
        """Refuse an action that needs the clock running and not run out."""
        clock = record.clock
        if clock.paused:
            raise errors.GamePaused(
                "The clock is paused, so no moves can be made. Use /jarmo resume to restart it "
                "(either player can)."
            )
        if clock.deadline_at is not None and self._clock() >= clock.deadline_at:
            self.deadlines_changed.set()  # let the scheduler apply the timeout right away
            raise errors.TimeUp(
                "The time for this move has run out, so the game is lost on time; the result "
                "will be posted here in a moment."
            )

    # ------------------------------------------------------------------ pause and resume

    async def offer_pause(self, place: Place, actor: Actor) -> PauseOffer:
        """Propose to stop the clock; the opponent accepts with :meth:`accept_pause`."""
        record = await self._players_game(place, actor)
        if not record.clock.running and not record.clock.paused:
            raise errors.ClockUnavailable(
                "This match has no time limit per move, so there is no clock to pause: "
                "take as long as you need."
            )
        if record.clock.paused:
            raise errors.ClockUnavailable(
                "The clock is already paused. Use /jarmo resume to restart it."
            )
        self._check_clock(record)
        return PauseOffer.to_opponent(record, actor.user_id)

    async def accept_pause(self, place: Place, actor: Actor, offer: PauseOffer) -> BoardView:
        """The opponent agrees: the clock stops and keeps the time that was left."""
        if actor.user_id != offer.answer_by:
            raise errors.NotAllowed(
                "Only the player the pause was offered to can accept it. "
                "To offer one yourself, use /jarmo pause."
            )
        async with self.channel_lock(place.channel_id):
            record = await self._players_game(place, actor)
            if not offer.still_stands(record):
                raise errors.GameChanged(_CHANGED_OFFER)
            if record.clock.paused:
                raise errors.ClockUnavailable(
                    "The clock is already paused. Use /jarmo resume to restart it."
                )
            self._check_clock(record)
            try:
                paused = await self._store.pause_clock(
                    record.id, expected_version=record.version, now=self._clock()
                )
            except st.StaleGame:
                raise errors.GameChanged(_CHANGED_OFFER) from None
            return await self._view(paused, await self._store.get_match(paused.match_id))

    async def resume(self, place: Place, actor: Actor) -> BoardView:
        """Either player restarts the paused clock with the time that was left."""
        async with self.channel_lock(place.channel_id):
            record = await self._players_game(place, actor)
            if not record.clock.paused:
                raise errors.ClockUnavailable(
                    "The clock is not paused. To stop it, use /jarmo pause; your opponent "
                    "has to agree."
                )
            try:
                resumed = await self._store.resume_clock(
                    record.id, expected_version=record.version, now=self._clock()
                )
            except st.StaleGame:
                raise errors.GameChanged(
                    "Another action was applied to this game at the same moment. Look at the "
                    "board (/jarmo board) and try again."
                ) from None
            self.deadlines_changed.set()
            return await self._view(resumed, await self._store.get_match(resumed.match_id))

    # ------------------------------------------------------------------ the scheduler's cases

    async def remind(self, clock: st.RunningClock, *, now: datetime) -> DeadlineEvent | None:
        """Send the reminders due at ``now`` for ``clock`` (one event, however many were
        missed); ``None`` if none is due or another run already sent it."""
        count = reminders_due(clock, now)
        if count <= clock.reminders_sent or now >= clock.deadline_at:
            return None
        async with self.channel_lock(clock.channel_id):
            record = await self._current(clock)
            if record is None:
                return None
            due = reminder_times(clock.deadline_at, clock.time_per_move_seconds)[count - 1]
            event = self._event("reminder", due, clock, record)
            claimed = await self._store.mark_reminders_sent(
                clock.game_id,
                expected_version=clock.version,
                deadline_at=clock.deadline_at,
                count=count,
                announce=st.Announcement(
                    key=f"reminder:{clock.game_id}:{clock.version}:{count}",
                    kind="reminder",
                    payload=event_payload(event),
                ),
                now=now,
            )
            if not claimed:
                return None
        self.announcements_changed.set()
        return event

    async def time_out(self, clock: st.RunningClock, *, now: datetime) -> DeadlineEvent | None:
        """End the game on time if ``clock``'s deadline has passed at ``now``: the player to
        move loses and forfeits the match, exactly as by resigning. ``None`` if the game moved
        on, ended or was paused first."""
        if now < clock.deadline_at:
            return None
        async with self.channel_lock(clock.channel_id):
            record = await self._current(clock)
            if record is None:
                return None
            loser = record.game.turn
            announce = st.Announcement(
                key=f"timeout:{clock.game_id}",
                kind="timeout",
                payload=event_payload(self._event("timeout", clock.deadline_at, clock, record)),
            )
            try:
                report = await self._end(
                    record,
                    game=record.game,
                    status="timeout",
                    winner="black" if loser == "white" else "white",
                    termination="timeout",
                    actor_id=record.player_id(loser),
                    announce=announce,
                )
            except errors.GameChanged:  # the version check refused it: something came first
                return None
        self.announcements_changed.set()
        return self._event("timeout", clock.deadline_at, clock, record, report)

    async def _current(self, clock: st.RunningClock) -> st.GameRecord | None:
        """The game, if it is still exactly where ``clock`` saw it."""
        try:
            record = await self._store.get_game(clock.game_id)
        except st.NotFound:
            return None
        same = record.version == clock.version and record.clock.deadline_at == clock.deadline_at
        return record if record.is_active and same else None

    @staticmethod
    def _event(
        kind: str,
        due: datetime,
        clock: st.RunningClock,
        record: st.GameRecord,
        report: Report | None = None,
    ) -> DeadlineEvent:
        return DeadlineEvent(
            kind=kind,  # type: ignore[arg-type]
            due_at=due,
            game_id=clock.game_id,
            guild_id=clock.guild_id,
            channel_id=clock.channel_id,
            user_id=record.player_id(record.game.turn),
            deadline_at=clock.deadline_at,
            report=report,
        )
