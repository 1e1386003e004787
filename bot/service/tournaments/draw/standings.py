"""The table: match points, then Buchholz, Sonneborn-Berger and game points, with each
player's results by round.

The tie-breaks are the usual ones, counted in match points: Buchholz is the sum of the
opponents' match points; Sonneborn-Berger adds each beaten opponent's match points in full and
each drawn opponent's half (FIDE's definition), so it may end in a half. A bye adds nothing to
either, and an opponent met by forfeit counts like one met over the board.
"""

from __future__ import annotations

from bot.service.tournaments.draw.ledger import Record, ledger
from bot.service.tournaments.draw.models import (
    MATCH_WIN,
    Event,
    MatchResult,
    Outcome,
    PlayerId,
    RoundCell,
    Standing,
    Standings,
)


def standings(event: Event) -> Standings:
    """The event's table. Players level on every count share a rank (and keep seed order)."""
    records = ledger(event)
    scores = {
        player: (
            record.match_points,
            _buchholz(record, records),
            _sonneborn_berger(record, records),
            record.game_points,
        )
        for player, record in records.items()
    }
    order = sorted(event.players, key=lambda p: tuple(-x for x in scores[p]))  # stable: seeds
    cells = _cells(event, event.rounds_paired)
    rows: list[Standing] = []
    for place, player in enumerate(order, 1):
        tied = rows and scores[rows[-1].player] == scores[player]
        match_points, buchholz, sonneborn_berger, game_points = scores[player]
        rows.append(
            Standing(
                rank=rows[-1].rank if tied else place,
                player=player,
                match_points=match_points,
                game_points=game_points,
                buchholz=buchholz,
                sonneborn_berger=sonneborn_berger,
                rounds=cells[player],
                withdrawn=player in event.withdrawn,
            )
        )
    return Standings(tuple(rows), event.rounds_played, event.round_in_progress)


def _buchholz(record: Record, records: dict[PlayerId, Record]) -> int:
    return sum(records[who].match_points for who, _ in record.opponents)


def _sonneborn_berger(record: Record, records: dict[PlayerId, Record]) -> float:
    # ``scored`` is 2, 1 or 0: halved, the opponent's points count in full, half, or not at all
    doubled = sum(records[who].match_points * scored for who, scored in record.opponents)
    return doubled / MATCH_WIN


def _cells(event: Event, rounds: int) -> dict[PlayerId, tuple[RoundCell | None, ...]]:
    table: dict[PlayerId, list[RoundCell | None]] = {p: [None] * rounds for p in event.players}
    for bye in event.byes:
        table[bye.player][bye.round - 1] = RoundCell(bye.round, "bye")
    for result in event.results:
        for mine in (0, 1):
            player, opponent = result.players[mine], result.players[1 - mine]
            table[player][result.round - 1] = RoundCell(
                round=result.round,
                outcome=_outcome(result, player),
                opponent=opponent,
                started=mine == 0 and not result.forfeit,
                points=(result.points[mine], result.points[1 - mine]),
                forced_by=result.forced_by,
            )
    return {player: tuple(cells) for player, cells in table.items()}


def _outcome(result: MatchResult, player: PlayerId) -> Outcome:
    if result.forfeit:
        return "forfeit-win" if result.winner == player else "forfeit-loss"
    if result.winner is None:
        return "draw"
    return "win" if result.winner == player else "loss"
