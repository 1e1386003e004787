"""Records of the announcement outbox: what must be posted because something happened that
nobody's interaction is waiting for (a timeout, a reminder, the computer's move, a tournament's
round, a match's welcome in its thread, a tournament's final table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

AnnouncementKind = Literal[
    "reminder", "timeout", "computer_move", "round_paired", "match_welcome", "final_table"
]
Settlement = Literal["sent", "dropped", "retry"]
# The lease of an announcement its writer holds (``held_seconds``) to post it itself. A claim
# takes a fresh random lease instead, so a writer whose hold ran out and was claimed by the
# delivery loop can no longer settle it.
WRITER_LEASE = "writer"


@dataclass(frozen=True, slots=True)
class Announcement:
    """An announcement to write together with the change it announces.

    ``key`` names the event (``"timeout:12"``): the same event is written once, whoever tries.
    ``payload`` is JSON-able data the front end rebuilds the message from. ``held_seconds``:
    the writer's caller posts it itself and keeps it that long before the delivery loop may.
    """

    key: str
    kind: AnnouncementKind
    payload: Mapping[str, Any] = field(default_factory=dict)
    held_seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """A pending announcement, as the delivery loop takes it."""

    id: int
    key: str
    kind: AnnouncementKind
    guild_id: int
    channel_id: int
    game_id: int | None  # None: about a tournament, not one game
    payload: Mapping[str, Any]
    created_at: datetime
    attempts: int  # including this one
    lease: str  # this claim's token: settling needs it (see ``OutboxStore.settle``)
