"""The Berger tables: everyone meets everyone once, the published order and colours, byes."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.service.tournaments.draw import (
    Event,
    Pairing,
    PairingError,
    max_rounds,
    round_robin_round,
    round_robin_rounds,
)
from bot.service.tournaments.draw.ledger import ledger
from tests.tournament.tournament_helpers import play_event


def test_six_players_follow_the_published_berger_table() -> None:
    event = Event((1, 2, 3, 4, 5, 6))
    table = [[p.players for p in round_robin_round(event, n).pairings] for n in range(1, 6)]
    assert table == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("size", range(3, 15))
def test_everyone_meets_everyone_once_with_one_bye_each_when_odd(size: int) -> None:
    event, draws = play_event("round-robin", size, round_robin_rounds(size))
    met = sorted(tuple(sorted(p.players)) for d in draws for p in d.pairings)
    assert met == sorted(combinations(range(1, size + 1), 2))
    byes = sorted(d.bye for d in draws if d.bye is not None)
    assert byes == (list(range(1, size + 1)) if size % 2 else [])
    assert all(abs(r.colour_balance) <= 1 for r in ledger(event).values())


@pytest.mark.parametrize(("size", "rounds"), [(3, 3), (4, 3), (7, 7), (8, 7)])
def test_a_round_robin_allows_no_more_rounds_than_its_cycle(size: int, rounds: int) -> None:
    assert round_robin_rounds(size) == max_rounds("round-robin", size) == rounds
    event = Event(tuple(range(1, size + 1)))
    with pytest.raises(PairingError):
        round_robin_round(event, rounds + 1)
    with pytest.raises(PairingError):
        round_robin_round(event, 0)


def test_pairings_with_a_withdrawn_player_are_walkovers_won_by_the_other() -> None:
    event = Event((1, 2, 3, 4)).with_withdrawal(4)
    draw = round_robin_round(event, 1)
    assert draw.pairings == (Pairing(2, 3),)
    assert draw.walkovers == (Pairing(1, 4),)
    (result,) = draw.walkover_results(event.withdrawn)
    assert (result.winner, result.forfeit, result.points) == (1, True, (0, 0))


@pytest.mark.parametrize(("size", "rounds"), [(3, 3), (8, 7), (16, 15), (17, 15), (200, 15)])
def test_a_swiss_event_has_at_most_a_cycle_and_never_more_than_fifteen(
    size: int, rounds: int
) -> None:
    assert max_rounds("swiss", size) == rounds
