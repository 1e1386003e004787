"""Whole events of 3, 4, 7 and 8 players in both formats, played to the end by a fixed rule
(the lower id wins 8-4, neighbours draw 6-6), against final tables worked out by hand."""

from __future__ import annotations

import pytest

from bot.service.tournaments.draw import (
    Event,
    Format,
    MatchResult,
    PairingError,
    PlayerId,
    standings,
    swiss_round,
)
from tests.tournament.tournament_helpers import play_event

# (rank, player, match points, game points, Buchholz, Sonneborn-Berger)
Row = tuple[int, PlayerId, int, int, int, float]

EVENTS: list[tuple[Format, int, int, dict[int, PlayerId] | None, list[Row]]] = [
    # Every round has a bye; 1 beats 3, every other match is drawn.
    ("round-robin", 3, 3, None, [(1, 1, 5, 14, 7, 5), (2, 2, 4, 12, 8, 4), (3, 3, 3, 10, 9, 2)]),
    (
        "round-robin",
        4,
        3,
        None,
        [(1, 1, 5, 22, 7, 5), (2, 2, 4, 20, 8, 4.5), (3, 3, 2, 16, 10, 2.5), (4, 4, 1, 14, 11, 1)],
    ),
    # Player 6 withdraws before round 4: their three remaining pairings are walkovers, their
    # results (a loss to 3 and to 4, a draw with 5) stand.
    (
        "round-robin",
        7,
        7,
        {4: 6},
        [
            (1, 1, 13, 38, 41, 35),
            (2, 2, 12, 36, 42, 30.5),
            (3, 3, 10, 40, 44, 21),
            (4, 4, 8, 36, 46, 13),
            (5, 5, 6, 32, 48, 8.5),
            (6, 7, 4, 20, 50, 1),
            (7, 6, 1, 14, 53, 3),
        ],
    ),
    # 28 matches make 56 match points: 1's Buchholz is everyone else's, 56 - 13.
    (
        "round-robin",
        8,
        7,
        None,
        [
            (1, 1, 13, 54, 43, 37),
            (2, 2, 12, 52, 44, 32.5),
            (3, 3, 10, 48, 46, 23),
            (4, 4, 8, 44, 48, 15),
            (5, 5, 6, 40, 50, 9),
            (6, 6, 4, 36, 52, 5),
            (7, 7, 2, 32, 54, 2.5),
            (8, 8, 1, 30, 55, 1),
        ],
    ),
    ("swiss", 3, 3, None, [(1, 1, 5, 14, 7, 5), (2, 2, 4, 12, 8, 4), (3, 3, 3, 10, 9, 2)]),
    (
        "swiss",
        4,
        3,
        None,
        [(1, 1, 5, 22, 7, 5), (2, 2, 4, 20, 8, 4.5), (3, 3, 2, 16, 10, 2.5), (4, 4, 1, 14, 11, 1)],
    ),
    # Byes to 7, 6 and 5 in turn; 6 withdraws before round 4 and keeps their bye and losses.
    (
        "swiss",
        7,
        4,
        {4: 6},
        [
            (1, 1, 7, 30, 15, 12),
            (2, 2, 6, 28, 18, 11.5),
            (3, 3, 6, 28, 14, 9),
            (4, 4, 4, 24, 18, 6.5),
            (5, 5, 3, 14, 17, 2),
            (6, 7, 2, 12, 19, 0),
            (7, 6, 2, 8, 10, 0),
        ],
    ),
    (
        "swiss",
        8,
        3,
        None,
        [
            (1, 1, 5, 22, 10, 8),
            (2, 2, 4, 20, 11, 6.5),
            (3, 3, 4, 20, 9, 5.5),
            (4, 4, 3, 18, 10, 3),
            (5, 5, 3, 18, 8, 2),
            (6, 6, 2, 16, 9, 2.5),
            (7, 7, 2, 16, 7, 1.5),
            (8, 8, 1, 14, 8, 1),
        ],
    ),
]


@pytest.mark.parametrize(
    ("format", "players", "rounds", "withdrawals", "table"),
    EVENTS,
    ids=[f"{e[0]}-{e[1]}" for e in EVENTS],
)
def test_a_whole_event_ends_with_the_expected_table(
    format: Format,
    players: int,
    rounds: int,
    withdrawals: dict[int, PlayerId] | None,
    table: list[Row],
) -> None:
    event, draws = play_event(format, players, rounds, withdrawals=withdrawals)
    assert [d.number for d in draws] == list(range(1, rounds + 1))
    final = standings(event)
    assert final.rounds == rounds
    rows = [
        (r.rank, r.player, r.match_points, r.game_points, r.buchholz, r.sonneborn_berger)
        for r in final.rows
    ]
    assert rows == table
    assert [r.player for r in final.rows if r.withdrawn] == list((withdrawals or {}).values())


def test_the_swiss_pairs_score_groups_top_half_against_bottom_half() -> None:
    _, draws = play_event("swiss", 8, 2)
    assert [p.players for p in draws[0].pairings] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    # Winners 1-4 and losers 5-8 each pair among themselves; 1 v 3 would give both a second
    # start in a row, so 1 meets 4 and 2 meets 3 (likewise 5-8 and 6-7 below).
    assert [p.players for p in draws[1].pairings] == [(4, 1), (2, 3), (5, 8), (7, 6)]


def test_results_by_round_show_opponent_outcome_start_and_points() -> None:
    event, _ = play_event("round-robin", 3, 3)
    table = standings(event)
    first = table.rows[0]
    assert [(c.outcome, c.opponent, c.started, c.points) for c in first.rounds if c] == [
        ("bye", None, False, (0, 0)),
        ("draw", 2, True, (6, 6)),
        ("win", 3, False, (8, 4)),
    ]
    assert table.rank_of(3) == 3


def test_players_level_on_every_count_share_a_rank_in_seed_order() -> None:
    event = Event((1, 2, 3, 4)).with_round(
        (MatchResult(1, 1, 2, 1, (8, 4)), MatchResult(1, 3, 4, 3, (8, 4)))
    )
    table = standings(event)
    assert [(r.rank, r.player) for r in table.rows] == [(1, 1), (1, 3), (3, 2), (3, 4)]


def test_bad_input_is_refused_with_a_pairing_error() -> None:
    with pytest.raises(PairingError):
        MatchResult(1, 1, 2, 3)  # the winner did not play
    with pytest.raises(PairingError):
        Event((1, 1, 2))  # entered twice
    with pytest.raises(PairingError):
        Event((1, 2), results=(MatchResult(1, 1, 9, 1),))  # 9 never entered
    with pytest.raises(PairingError):
        swiss_round(Event((1, 2, 3)), 2)  # round 1 comes first
    with pytest.raises(PairingError):
        swiss_round(Event((1, 2, 3)).with_withdrawal(1).with_withdrawal(2), 1)
