"""Settling an announcement that the caller posted itself (the computer's move): the outbox
keeps it until then, and delivers it later if the caller could not. The caller holds it with
the writer's lease; once its hold ran out and the delivery loop claimed it, the caller's word no
longer counts (the loop posts it with the same idempotency token, so it shows once)."""

from __future__ import annotations

from bot.service.kit import ServiceKit
from bot.store import WRITER_LEASE


class AnnouncementCases:
    """What the caller that holds an announcement reports back, over one service kit."""

    def __init__(self, kit: ServiceKit) -> None:
        self._kit = kit

    async def posted(self, key: str) -> None:
        """The caller posted the announcement ``key``: it will not be delivered again."""
        await self._kit.store.outbox.settle(key, "sent", lease=WRITER_LEASE, now=self._kit.now())

    async def post_later(self, key: str, error: str) -> None:
        """The caller could not post ``key``: the delivery loop will, as soon as it can."""
        await self._kit.store.outbox.settle(
            key, "retry", lease=WRITER_LEASE, now=self._kit.now(), error=error
        )
        self._kit.signals.announcements_changed.set()
