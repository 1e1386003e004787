"""Records of the announcement outbox: what must be posted because something happened in a game
that nobody's interaction is waiting for (a timeout, a reminder, the computer's move)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

AnnouncementKind = Literal["reminder", "timeout", "computer_move"]
Settlement = Literal["sent", "dropped", "retry"]


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
    game_id: int
    payload: Mapping[str, Any]
    created_at: datetime
    attempts: int  # including this one
