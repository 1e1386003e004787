"""Each player's record so far, read once from an event's results and byes."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.tournaments.draw.models import BYE_POINTS, Event, PlayerId


@dataclass(slots=True)
class Record:
    """What pairing and the table need to know of one player."""

    match_points: int = 0
    game_points: int = 0
    byes: int = 0
    colour_balance: int = 0  # matches started minus matches not started (played ones only)
    last_started: bool | None = None  # in the latest match played
    opponents: list[tuple[PlayerId, int]] = field(default_factory=list)  # (who, my match pts)

    @property
    def met(self) -> set[PlayerId]:
        """Everyone this player has been paired with (forfeits included)."""
        return {who for who, _ in self.opponents}


def ledger(event: Event) -> dict[PlayerId, Record]:
    """Every entered player's record, results taken in round order."""
    records = {player: Record() for player in event.players}
    for bye in event.byes:
        records[bye.player].match_points += BYE_POINTS
        records[bye.player].byes += 1
    for result in sorted(event.results, key=lambda r: r.round):
        for mine, theirs, started in ((0, 1, True), (1, 0, False)):
            player, opponent = result.players[mine], result.players[theirs]
            record = records[player]
            scored = result.match_points(player)
            record.match_points += scored
            record.opponents.append((opponent, scored))
            if not result.forfeit:
                record.game_points += result.points[mine]
                record.colour_balance += 1 if started else -1
                record.last_started = started
    return records
