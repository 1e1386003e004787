"""Offers one player makes to the other (stop the game here, pause the clock)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import GameRecord


@dataclass(frozen=True, slots=True)
class Offer:
    """A proposal to the opponent. Only ``answer_by`` can accept it, and only while the game is
    exactly as it was when it was made (same game, same version)."""

    game_id: int
    version: int
    offered_by: int
    answer_by: int

    @classmethod
    def to_opponent(cls, record: GameRecord, offered_by: int) -> Offer:
        """An offer from ``offered_by`` to the other player of ``record``."""
        other = record.black_id if offered_by == record.white_id else record.white_id
        return cls(record.id, record.version, offered_by, other)

    def still_stands(self, record: GameRecord) -> bool:
        """Whether ``record`` is still the position the offer was made in."""
        return record.id == self.game_id and record.version == self.version


StopOffer = Offer  # /jarmo stop: end the game as it stands
PauseOffer = Offer  # /jarmo pause: stop the clock
