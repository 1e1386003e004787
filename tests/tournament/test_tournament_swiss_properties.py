"""Swiss draws checked against brute force on random small events: nobody paired twice, no
rematch or colour clash that some other draw would have avoided, byes handed round."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service.tournaments.draw import (
    Bye,
    Event,
    MatchResult,
    Pairing,
    PlayerId,
    Round,
    swiss_round,
)
from bot.service.tournaments.draw.ledger import Record, ledger
from tests.tournament.tournament_helpers import perfect_pairings, play_round

Pair = tuple[PlayerId, PlayerId]


def _eligible_draws(event: Event, records: dict[PlayerId, Record]) -> list[list[Pair]]:
    """Every draw that gives the bye to a player with the fewest byes (none if even)."""
    active = list(event.active)
    if len(active) % 2 == 0:
        return list(perfect_pairings(active))
    fewest = min(records[p].byes for p in active)
    return [
        pairs
        for bye in active
        if records[bye].byes == fewest
        for pairs in perfect_pairings([p for p in active if p != bye])
    ]


def _rematches(pairs: list[Pair], records: dict[PlayerId, Record]) -> int:
    return sum(b in records[a].met for a, b in pairs)


def _clashes(pairs: list[Pair], records: dict[PlayerId, Record]) -> int:
    return sum(records[a].colour_balance * records[b].colour_balance > 0 for a, b in pairs)


def _check_draw(event: Event, draw: Round) -> None:
    records = ledger(event)
    seated = [p for pairing in draw.pairings for p in pairing.players]
    if draw.bye is not None:
        seated.append(draw.bye)
    assert sorted(seated) == sorted(event.active), "each player still in sits exactly once"
    pairs = [pairing.players for pairing in draw.pairings]
    rematches = _rematches(pairs, records)
    if draw.bye is not None:
        assert records[draw.bye].byes == min(records[p].byes for p in event.active)
    eligible = _eligible_draws(event, records)
    if rematches:
        assert all(_rematches(other, records) for other in eligible), "an avoidable rematch"
    elif _clashes(pairs, records):
        rematch_free = [other for other in eligible if not _rematches(other, records)]
        assert all(_clashes(other, records) for other in rematch_free), "an avoidable clash"
    else:
        after = ledger(_with_draws(event, draw))
        for player in (p for pairing in draw.pairings for p in pairing.players):
            balance, was = abs(after[player].colour_balance), abs(records[player].colour_balance)
            assert balance <= 1 or balance < was, "colours drift without a clash"


def _with_draws(event: Event, draw: Round) -> Event:
    return play_round(event, draw, lambda _n, _p: (None, (1, 1)))


@st.composite
def swiss_events(draw: st.DrawFn) -> tuple[Event, int]:
    """A Swiss event of 3 to 9 players part-way through, with random results and withdrawals,
    and the number of its next round."""
    size = draw(st.integers(3, 9))
    event = Event(tuple(range(100, 100 + size)))
    for number in range(1, draw(st.integers(0, size - 1)) + 1):
        if len(event.active) > 2 and draw(st.integers(0, 9)) == 0:
            event = event.with_withdrawal(draw(st.sampled_from(event.active)))
        pairing = swiss_round(event, number)
        results = tuple(_random_result(draw, number, p) for p in pairing.pairings)
        event = event.with_round(results, None if pairing.bye is None else Bye(number, pairing.bye))
    return event, event.rounds_played + 1


def _random_result(draw: st.DrawFn, number: int, pairing: Pairing) -> MatchResult:
    winner = draw(st.sampled_from([pairing.first, pairing.second, None]))
    points = (draw(st.integers(0, 12)), draw(st.integers(0, 12)))
    return MatchResult(number, pairing.first, pairing.second, winner, points)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swiss_events())
def test_swiss_draws_keep_every_rule_that_can_be_kept(case: tuple[Event, int]) -> None:
    event, number = case
    _check_draw(event, swiss_round(event, number))


@pytest.mark.parametrize("size", [3, 5, 7, 9, 11])
def test_byes_rotate_through_an_odd_field(size: int) -> None:
    """Nobody gets a second bye while someone still in has none; the first bye goes to the
    lowest-ranked player."""
    event = Event(tuple(range(1, size + 1)))
    byes = []
    for number in range(1, size):
        draw = swiss_round(event, number)
        before = ledger(event)
        assert draw.bye is not None
        assert before[draw.bye].byes == min(r.byes for r in before.values())
        byes.append(draw.bye)
        event = play_round(event, draw, lambda _n, p: (p.first, (5, 3)))
    assert byes[0] == size
    assert len(set(byes)) == len(byes)


def test_withdrawn_players_are_not_paired() -> None:
    event = Event((1, 2, 3, 4, 5, 6)).with_withdrawal(3)
    draw = swiss_round(event, 1)
    seated = {p for pairing in draw.pairings for p in pairing.players} | {draw.bye}
    assert seated == {1, 2, 4, 5, 6}
    assert draw.bye == 6  # the lowest-ranked player still in
