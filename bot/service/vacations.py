"""Vacations: a player goes away for some of their days a year, and every clock of theirs
stands meanwhile, in every server.

The days are counted to the hour (each started hour of a vacation counts) and per calendar year
(UTC): a vacation over New Year counts its hours before it to the old year and the rest to the
new one. Nothing is kept but the ledger's rows; the hours used are worked out from them.

A vacation ends when its player says so, or by itself when their days run out: the deadline
scheduler asks :meth:`VacationCases.end_due` on each pass, in every process, and the store's
guarded end lets one of them do it. The opponents are told through the outbox, in each game's
channel or thread, once: as the vacation starts, and as it ends.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot import store as st
from bot.service import errors
from bot.service.kit import ServiceKit

log = logging.getLogger(__name__)
HOUR = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class VacationAllowance:
    """A player's vacation time in one calendar year, in whole hours."""

    year: int
    hours_per_year: int
    hours_used: int

    @property
    def hours_left(self) -> int:
        """The hours still to take this year."""
        return max(self.hours_per_year - self.hours_used, 0)


@dataclass(frozen=True, slots=True)
class VacationStatus:
    """Where a player stands: their time this year, and their vacation if they are away."""

    allowance: VacationAllowance
    vacation: st.Vacation | None = None
    games: int = 0  # the player's active games (whose opponents are told)

    @property
    def away(self) -> bool:
        """Whether the player is away."""
        return self.vacation is not None


def year_start(year: int) -> datetime:
    """New Year of ``year``, UTC."""
    return datetime(year, 1, 1, tzinfo=UTC)


def hours_used(vacations: Sequence[st.Vacation], year: int, now: datetime) -> int:
    """The hours of ``year`` that ``vacations`` took by ``now``: each vacation's part in the
    year, every started hour counted."""
    first, last = year_start(year), year_start(year + 1)
    used = 0
    for vacation in vacations:
        begin = max(vacation.started_at, first)
        end = min(vacation.ended_at or now, last)
        if end > begin:
            used += math.ceil((end - begin) / HOUR)
    return used


def planned_end(now: datetime, hours_left: int, hours_per_year: int) -> datetime:
    """When a vacation from ``now`` ends by itself: once the year's hours left are spent, or,
    if New Year comes first, once the next year's are."""
    end = now + hours_left * HOUR
    new_year = year_start(now.year + 1)
    if end > new_year:
        end = new_year + hours_per_year * HOUR
    return end


class VacationCases:
    """Starting, ending and showing vacations, over one service kit."""

    def __init__(self, kit: ServiceKit) -> None:
        self._kit = kit

    @property
    def hours_per_year(self) -> int:
        """Every player's vacation time a year, from the configuration."""
        return self._kit.config.vacation_days_per_year * 24

    async def allowance(self, user_id: int) -> VacationAllowance:
        """The player's vacation time this year: what the games list, the stats and
        ``status`` show."""
        now = self._kit.now()
        taken = await self._kit.store.vacations.of_player(user_id, since=year_start(now.year))
        return VacationAllowance(now.year, self.hours_per_year, hours_used(taken, now.year, now))

    async def status(self, user_id: int) -> VacationStatus:
        """The player's time this year, and their vacation if they are away."""
        current = await self._kit.store.vacations.current(user_id)
        return VacationStatus(await self.allowance(user_id), current)

    async def start(self, user_id: int) -> VacationStatus:
        """Go away from now: every clock of the player stands until they come back, or until
        their days run out. Refuses ``ALREADY_ON_VACATION`` and ``NO_VACATION_DAYS_LEFT``."""
        kit = self._kit
        if await kit.store.vacations.current(user_id) is not None:
            raise errors.VacationRefused(errors.Code.ALREADY_ON_VACATION)
        allowance = await self.allowance(user_id)
        if allowance.hours_left == 0:
            raise errors.VacationRefused(
                errors.Code.NO_VACATION_DAYS_LEFT, days=kit.config.vacation_days_per_year
            )
        now = kit.now()
        ends_at = planned_end(now, allowance.hours_left, self.hours_per_year)
        games = await self._games_with_opponents(user_id)
        told = self._told_away(games, user_id, now, ends_at)
        vacation = await kit.store.vacations.start(user_id, now=now, ends_at=ends_at, announce=told)
        if vacation is None:  # another command of the player's came first
            raise errors.VacationRefused(errors.Code.ALREADY_ON_VACATION)
        self._wake(games)
        return VacationStatus(allowance, vacation, len(games))

    async def end(self, user_id: int) -> VacationStatus:
        """Come back now: each deadline of the player's moves on by the time it stood. Refuses
        ``NOT_ON_VACATION``."""
        kit = self._kit
        current = await kit.store.vacations.current(user_id)
        if current is None:
            raise errors.VacationRefused(errors.Code.NOT_ON_VACATION)
        games = await self._games_with_opponents(user_id)
        # Never past the days: a scheduler running late has not ended it yet.
        at = min(kit.now(), current.ends_at)
        ended = await self._close(current, at, games, automatic=at == current.ends_at)
        if ended is None:  # it ended by itself meanwhile
            raise errors.VacationRefused(errors.Code.NOT_ON_VACATION)
        return VacationStatus(await self.allowance(user_id), None, len(games))

    async def end_due(self, now: datetime) -> list[st.Vacation]:
        """End every vacation whose days ran out by ``now``, at the moment they ran out; the
        ones this call ended (another process may have ended the others)."""
        ended = []
        for vacation in await self._kit.store.vacations.open():
            if vacation.ends_at > now:
                break  # the rest run out later
            games = await self._games_with_opponents(vacation.user_id)
            closed = await self._close(vacation, vacation.ends_at, games, automatic=True)
            if closed is not None:
                log.info("the vacation of user %d ended by itself", vacation.user_id)
                ended.append(closed)
        return ended

    async def next_end(self) -> datetime | None:
        """When the next vacation ends by itself, if anyone is away."""
        away = await self._kit.store.vacations.open()
        return away[0].ends_at if away else None

    async def _close(
        self,
        vacation: st.Vacation,
        at: datetime,
        games: list[st.GameRecord],
        *,
        automatic: bool,
    ) -> st.Vacation | None:
        told = self._told_back(games, vacation, automatic)
        ended = await self._kit.store.vacations.end(vacation.id, at=at, announce=told)
        if ended is not None:
            self._wake(games)
        return ended

    async def _games_with_opponents(self, user_id: int) -> list[st.GameRecord]:
        """The player's active games against a person (the computer needs no telling)."""
        games = await self._kit.store.games.active_of_player(user_id)
        return [
            game
            for game in games
            if not self._kit.is_computer(
                game.black_id if game.white_id == user_id else game.white_id
            )
        ]

    def _told_away(
        self, games: list[st.GameRecord], user_id: int, now: datetime, ends_at: datetime
    ) -> list[tuple[int, st.Announcement]]:
        """What each game's channel is told as the player goes (written with the start only).
        The vacation's id is not known before it is written; its player and start name it as
        well, as a player is away once at a time."""
        post = st.VacationStartPost(user_id, ends_at)
        key = f"vacation-start:{user_id}:{now.isoformat()}"
        return [(game.id, st.announcement(f"{key}:{game.id}", post)) for game in games]

    def _told_back(
        self, games: list[st.GameRecord], vacation: st.Vacation, automatic: bool
    ) -> list[tuple[int, st.Announcement]]:
        """What each game's channel is told as the player comes back (written with the end
        only, so once)."""
        post = st.VacationEndPost(vacation.user_id, automatic)
        key = f"vacation-end:{vacation.id}"
        return [(game.id, st.announcement(f"{key}:{game.id}", post)) for game in games]

    def _wake(self, games: list[st.GameRecord]) -> None:
        self._kit.signals.deadlines_changed.set()
        if games:
            self._kit.signals.announcements_changed.set()
