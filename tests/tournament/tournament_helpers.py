"""Playing whole events on paper: pair a round, decide each match by a rule, go on."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from bot.service.tournaments.draw import (
    Bye,
    Event,
    Format,
    MatchResult,
    Pairing,
    PlayerId,
    Round,
    pair_round,
)

# (round, pairing) -> (winner or None, game points of first, second)
Decide = Callable[[int, Pairing], tuple[PlayerId | None, tuple[int, int]]]


def stronger_wins(round_number: int, pairing: Pairing) -> tuple[PlayerId | None, tuple[int, int]]:
    """The lower id wins 8-4, but neighbouring ids draw 6-6: a field that plays to its seeds."""
    a, b = pairing.players
    if abs(a - b) == 1:
        return None, (6, 6)
    winner = min(a, b)
    return winner, (8, 4) if winner == a else (4, 8)


def play_round(event: Event, draw: Round, decide: Decide) -> Event:
    """``event`` with ``draw`` played: each match decided, the bye and walkovers scored."""
    results = tuple(
        MatchResult(draw.number, p.first, p.second, *decide(draw.number, p)) for p in draw.pairings
    )
    results += draw.walkover_results(event.withdrawn)
    return event.with_round(results, None if draw.bye is None else Bye(draw.number, draw.bye))


def play_event(
    format: Format,
    players: int,
    rounds: int,
    decide: Decide = stronger_wins,
    withdrawals: dict[int, PlayerId] | None = None,
) -> tuple[Event, list[Round]]:
    """Players 1..``players`` (seed order) through ``rounds`` rounds; ``withdrawals`` maps a
    round to a player who withdraws before it is paired."""
    event = Event(tuple(range(1, players + 1)))
    draws = []
    for number in range(1, rounds + 1):
        if withdrawals and number in withdrawals:
            event = event.with_withdrawal(withdrawals[number])
        draw = pair_round(format, event, number)
        draws.append(draw)
        event = play_round(event, draw, decide)
    return event, draws


def perfect_pairings(players: list[PlayerId]) -> Iterator[list[tuple[PlayerId, PlayerId]]]:
    """Every way to pair an even list of players (brute force, for small fields)."""
    if not players:
        yield []
        return
    top, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for others in perfect_pairings(rest[:i] + rest[i + 1 :]):
            yield [(top, partner), *others]
