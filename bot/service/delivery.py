"""Delivering the announcement outbox: what was written with a change (a timeout, a reminder,
the computer's move, a tournament's round, a match's welcome, a final table) is rebuilt from the
store, handed to the front end to post, and settled.

Posting happens after the transaction, so a crash between the two is possible; the outbox makes
that harmless: whatever is not settled is delivered on the next pass, after a restart too.
The front end's ``post`` raises :class:`Undeliverable` when trying again cannot help (the
channel is gone, the bot may not write there); any other failure is retried later, waiting
longer each time, and given up after ``MAX_ATTEMPTS``.

Several processes may deliver from one database: a claim leases each announcement to one of
them, and a post that outlasts half the lease is abandoned (and retried), so the lease never
runs out while its holder is still posting. Should it run out all the same (a process frozen
past it), the store refuses the late holder's settling: the new claim settles it.

A post that reached Discord before its holder died unsettled is delivered again, and must not
show twice. Every path that posts an announcement marks it with the same
:func:`idempotency_token`: the front end hands it to Discord as the message's nonce, which
makes Discord answer a repeat within a few minutes with the first message. The computer's move
is the one announcement also posted another way, as a follow-up to the player's move, which
Discord takes without a nonce; so its message carries the token where Discord keeps it (the
board's file name), and before posting a computer's move again the front end looks for it
among the channel's latest messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot import store as st
from bot.service.backoff import delay_after
from bot.service.deadlines import DeadlineEvent, event_from_post
from bot.service.models import Report
from bot.service.tournaments.posts import NotReady
from bot.service.tournaments.views import MatchWelcome, RoundView, TableView

if TYPE_CHECKING:
    from bot.service.service import JarmoService

log = logging.getLogger(__name__)
LEASE_SECONDS = 60.0  # longer than a post can take; a lease is only reclaimed after a crash
MAX_ATTEMPTS = 8  # with the backoff: given up after about four minutes of failures
MAX_WAIT_SECONDS = 60.0
POST_LIMIT_SECONDS = LEASE_SECONDS / 2  # a post still running then is abandoned and retried
TOKEN_LENGTH = 24  # characters; Discord takes a nonce of up to 25


def idempotency_token(key: str) -> str:
    """A short token naming the announcement ``key``: posting twice with the same token lets
    the receiver keep only one."""
    return hashlib.blake2b(key.encode(), digest_size=TOKEN_LENGTH // 2).hexdigest()


class Undeliverable(Exception):
    """Raised by a front end's ``post`` when the announcement can never be posted."""


@dataclass(frozen=True, slots=True)
class ClockNotice:
    """A reminder, or a game lost on time (its ``event`` holds the final board)."""

    entry: st.OutboxEntry
    event: DeadlineEvent


@dataclass(frozen=True, slots=True)
class ComputerMoveNotice:
    """The computer's move, with the board after it."""

    entry: st.OutboxEntry
    report: Report


@dataclass(frozen=True, slots=True)
class RoundNotice:
    """A tournament's round, with where each match is played."""

    entry: st.OutboxEntry
    round: RoundView


@dataclass(frozen=True, slots=True)
class WelcomeNotice:
    """A tournament match's welcome in its thread."""

    entry: st.OutboxEntry
    welcome: MatchWelcome


@dataclass(frozen=True, slots=True)
class TableNotice:
    """A tournament's final table."""

    entry: st.OutboxEntry
    table: TableView


@dataclass(frozen=True, slots=True)
class PingNotice:
    """A direct message telling ``user_id`` it is their move in the game of ``report`` (the
    board after the move), played in ``channel_id``."""

    entry: st.OutboxEntry
    report: Report
    user_id: int
    channel_id: int


@dataclass(frozen=True, slots=True)
class VacationNotice:
    """A player (``user_id``) went on vacation until ``ends_at`` at the latest, or (``ends_at``
    None) came back, by themselves or because their days ran out (``automatic``):
    ``opponent_id`` is told; ``deadline_at`` is the player's own deadline when they are back
    and to move."""

    entry: st.OutboxEntry
    user_id: int
    opponent_id: int
    ends_at: datetime | None
    automatic: bool = False
    deadline_at: datetime | None = None


# An announcement to post, rebuilt from the store: one kind of notice per kind of post.
Delivery = (
    ClockNotice
    | ComputerMoveNotice
    | RoundNotice
    | WelcomeNotice
    | TableNotice
    | PingNotice
    | VacationNotice
)


Poster = Callable[[Delivery], Awaitable[None]]


def direct_to(delivery: Delivery) -> int | None:
    """The user ``delivery`` is a direct message to, or ``None`` for a channel's post."""
    address = delivery.entry.address
    return address.user_id if isinstance(address, st.UserAddress) else None


class AnnouncementDelivery:
    """Takes deliverable announcements from the store, posts them, and settles them."""

    def __init__(
        self,
        service: JarmoService,
        post: Poster,
        *,
        post_limit: float = POST_LIMIT_SECONDS,
        shard_zero: bool = True,
    ) -> None:
        """``shard_zero``: whether this process runs shard 0, which Discord gives the direct
        messages of places outside servers (it delivers theirs)."""
        self._kit = service.kit
        self._shard_zero = shard_zero
        self._post_limit = post_limit
        self._outbox = service.kit.store.outbox
        self._games = service.kit.store.games
        self._standings = service.standings
        self._tournament_posts = service.tournaments.posts
        self._post = post

    async def deliver_due(self) -> list[Delivery]:
        """One pass over what can be delivered now; returns what was posted."""
        self._kit.signals.announcements_changed.clear()  # a change from here on wakes the wait
        now = self._kit.now()
        entries = await self._outbox.claim(
            now=now, lease_seconds=LEASE_SECONDS, shard_zero=self._shard_zero
        )
        posted = []
        for entry in entries:
            delivery = await self._deliver(entry, now)
            if delivery is not None:
                posted.append(delivery)
        return posted

    async def _deliver(self, entry: st.OutboxEntry, now: datetime) -> Delivery | None:
        try:
            delivery = await self.rebuild(entry)
        except (st.CorruptGame, st.NotFound) as exc:
            await self._settle(entry, "dropped", now, f"cannot rebuild it: {exc}")
            return None
        except NotReady as exc:  # the round's threads are still being opened
            log.info("announcement %s waits: %s", entry.key, exc)
            retry = now + timedelta(seconds=delay_after(entry.attempts))
            await self._settle(entry, "retry", now, str(exc), retry)
            return None
        except Exception as exc:  # one entry's fault must not hold up the others
            await self._failed(entry, now, exc)
            return None
        try:
            async with asyncio.timeout(self._post_limit):
                await self._post(delivery)
        except Undeliverable as exc:
            log.warning("dropped announcement %s: %s", entry.key, exc)
            await self._settle(entry, "dropped", now, str(exc))
            return None
        except Exception as exc:
            await self._failed(entry, now, exc)
            return None
        await self._settle(entry, "sent", now)
        return delivery

    async def _failed(self, entry: st.OutboxEntry, now: datetime, exc: Exception) -> None:
        """Try ``entry`` again later, waiting longer each time; give up after MAX_ATTEMPTS."""
        if entry.attempts >= MAX_ATTEMPTS:
            log.error(
                "gave up announcement %s after %d attempts: %r", entry.key, entry.attempts, exc
            )
            await self._settle(entry, "dropped", now, repr(exc))
        else:
            log.warning("could not deliver announcement %s (%r); will retry", entry.key, exc)
            retry = now + timedelta(seconds=delay_after(entry.attempts))
            await self._settle(entry, "retry", now, repr(exc), retry)

    async def _settle(
        self,
        entry: st.OutboxEntry,
        outcome: st.Settlement,
        now: datetime,
        error: str | None = None,
        retry_at: datetime | None = None,
    ) -> None:
        settled = await self._outbox.settle(
            entry.key, outcome, lease=entry.lease, now=now, error=error, retry_at=retry_at
        )
        if not settled:  # our lease ran out and another claim took it: that one settles it
            log.warning("announcement %s was claimed again before it was settled", entry.key)

    async def rebuild(self, entry: st.OutboxEntry) -> Delivery:
        """The message data of ``entry``, from the store as it is now. Raises ``NotFound``
        or ``CorruptGame`` when what it is about cannot be read (or it holds no post)."""
        try:
            post = entry.post
        except ValueError as exc:
            raise st.NotFound("announcement", f"{entry.key} ({exc})") from None
        posts = self._tournament_posts
        match post:
            case st.RoundPost():
                # The last attempt posts the round as it stands rather than never.
                waits = entry.attempts < MAX_ATTEMPTS
                return RoundNotice(entry, await posts.round(post, wait_for_places=waits))
            case st.WelcomePost():
                return WelcomeNotice(entry, await posts.welcome(post))
            case st.FinalTablePost():
                return TableNotice(entry, await posts.table(post))
        if entry.game_id is None:
            raise st.NotFound("game of announcement", entry.key)
        match post:
            case st.ReminderPost():
                channel_id = await self._channel_of(entry, entry.game_id)
                return ClockNotice(entry, event_from_post(entry, post, channel_id=channel_id))
            case st.TimeoutPost():
                record = await self._games.get(entry.game_id)
                report = await self._standings.ended_report(
                    record, actor_id=post.user_id, move=None
                )
                return ClockNotice(
                    entry, event_from_post(entry, post, report, channel_id=record.channel_id)
                )
            case st.VacationStartPost():
                record = await self._games.get(entry.game_id)
                opponent = _opponent(record, post.user_id)
                return VacationNotice(entry, post.user_id, opponent, post.ends_at)
            case st.VacationEndPost():
                record = await self._games.get(entry.game_id)
                to_move = record.player_id(record.engine.turn) == post.user_id
                deadline = record.clock.deadline_at if to_move and record.is_active else None
                opponent = _opponent(record, post.user_id)
                return VacationNotice(entry, post.user_id, opponent, None, post.automatic, deadline)
            case st.ComputerMovePost():
                report = await self._standings.report_at(
                    entry.game_id,
                    post.version,
                    post.plies_after,
                    actor_id=post.actor_id,
                    move=post.move,
                )
                # The computer's answer pings nobody: its player is looking.
                quiet = dataclasses.replace(report, announcement=None, turn_ping="off")
                return ComputerMoveNotice(entry, quiet)
            case st.TurnPingPost():
                report = await self._standings.report_at(
                    entry.game_id,
                    post.version,
                    post.plies,
                    actor_id=post.actor_id,
                    move=post.move,
                )
                channel_id = report.board.game.channel_id
                return PingNotice(entry, report, post.user_id, channel_id)

    async def _channel_of(self, entry: st.OutboxEntry, game_id: int) -> int:
        """The channel of the game ``entry`` is about (read only for a direct message)."""
        if isinstance(entry.address, st.ChannelAddress):
            return entry.address.channel_id
        return (await self._games.get(game_id)).channel_id

    async def wait(self, *, limit: float = MAX_WAIT_SECONDS) -> None:
        """Sleep until an announcement can be taken, a new one is written, or ``limit``
        seconds pass."""
        upcoming = await self._outbox.next_due()
        delay = limit
        if upcoming is not None:
            delay = min(max((upcoming - self._kit.now()).total_seconds(), 0.0), limit)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._kit.signals.announcements_changed.wait(), delay)


def _opponent(record: st.GameRecord, user_id: int) -> int:
    return record.black_id if record.white_id == user_id else record.white_id
