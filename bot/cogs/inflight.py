"""The interactions the bot is answering right now, so that a shutdown can let them finish."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)


class InFlight:
    """The tasks answering interactions, each added by the check that admits its interaction
    and dropped when it is done."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def add_current(self) -> None:
        """Count the running task (the one handling an interaction) until it is done."""
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def finish(self, grace_seconds: float) -> None:
        """Wait up to ``grace_seconds`` for the interactions being answered to send their
        answers (their writes are atomic either way; this saves the replies)."""
        tasks = list(self._tasks)
        if tasks:
            log.info("waiting for %d interaction(s) to finish", len(tasks))
            await asyncio.wait(tasks, timeout=grace_seconds)
