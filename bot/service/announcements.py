"""Settling an announcement that the caller posted itself (the computer's move): the outbox
keeps it until then, and delivers it later if the caller could not."""

from __future__ import annotations

from bot.service.unit import UnitOfWork


class AnnouncementCases:
    """What the caller that holds an announcement reports back, over one unit of work."""

    def __init__(self, unit: UnitOfWork) -> None:
        self._unit = unit

    async def posted(self, key: str) -> None:
        """The caller posted the announcement ``key``: it will not be delivered again."""
        await self._unit.store.outbox.settle(key, "sent", now=self._unit.now())

    async def post_later(self, key: str, error: str) -> None:
        """The caller could not post ``key``: the delivery loop will, as soon as it can."""
        await self._unit.store.outbox.settle(key, "retry", now=self._unit.now(), error=error)
        self._unit.signals.announcements_changed.set()
