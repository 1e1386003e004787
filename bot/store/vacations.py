"""Records of the vacation ledger: a player's time away, during which their clocks stop."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Vacation:
    """One vacation of ``user_id``: from ``started_at``, ending by itself at ``ends_at`` (when
    the player's days run out) unless they come back first; ``ended_at`` is set once it is
    over."""

    id: int
    user_id: int
    started_at: datetime
    ends_at: datetime
    ended_at: datetime | None = None

    @property
    def away(self) -> bool:
        """Whether the player is still away."""
        return self.ended_at is None
