"""Whole tournaments through the service on a real SQLite file: every round paired in its own
matches, results coming back from the matches' endings, and the expected final table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service import JarmoService
from bot.service.tournaments.draw import Format, MatchResult, Pairing, PlayerId, standings
from bot.service.tournaments.views import TableView
from bot.service.venues import NewMatch
from bot.store import SqliteStore, open_store
from tests.fakes import FakeClock
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    make_service,
    play_current_round,
    player,
    points_of,
    sign_up,
    stronger_wins,
)
from tests.tournament.tournament_helpers import play_event


def with_points(round_number: int, pairing: Pairing) -> tuple[PlayerId | None, tuple[int, int]]:
    """The pure helpers' rule with the game points the service's matches end with."""
    winner = stronger_wins(round_number, pairing)
    return winner, points_of(winner)


async def run_event(
    service: JarmoService,
    host: RecordingHost,
    count: int,
    format: str,
    rounds: int | None = None,
) -> int:
    tournament_id = await sign_up(service, count, format=format, rounds=rounds)
    first = await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    assert first.number == 1
    await host.deliver(service)
    while not host.tables:
        await play_current_round(service, tournament_id)
    return tournament_id


def table_rows(view: TableView) -> list[tuple[int, int, int]]:
    return [(row.rank, row.player, row.match_points) for row in view.standings.rows]


async def test_a_round_robin_of_four_ends_with_the_table_worked_out_by_hand(
    service: JarmoService, host: RecordingHost
) -> None:
    await run_event(service, host, 4, "round-robin")

    # Lower id wins, neighbours draw: 1 draws 2 and beats 3 and 4 (5 match points); 2 draws 1
    # and 3 and beats 4 (4); 3 loses to 1, draws 2 and 4 (2); 4 only draws 3 (1).
    (final,) = host.tables
    assert final.final and final.rounds == 3
    assert table_rows(final) == [(1, 1, 5), (2, 2, 4), (3, 3, 2), (4, 4, 1)]
    # A drawn match is two games stopped at 5-5 (10 each); a won one a resignation at 5-5.
    assert [row.game_points for row in final.standings.rows] == [20, 25, 25, 20]
    assert len(host.rounds) == 3 and all(len(r.pairings) == 2 for r in host.rounds)
    assert len(host.opened) == 6  # one place per match, each pair once


async def test_tournament_games_count_for_ratings_like_any_other(
    service: JarmoService, host: RecordingHost, store: SqliteStore
) -> None:
    await run_event(service, host, 4, "round-robin")

    ranked = await store.ratings.leaderboard(1, "classic", offset=0, limit=10)
    assert [r.rating.user_id for r in ranked][:1] == [1] and len(ranked) == 4
    # Six matches: three resigned in game 1 (one rated game), three drawn over two games.
    assert sum(r.rating.games for r in ranked) == 2 * (3 * 1 + 3 * 2)


async def test_a_round_robin_of_three_gives_each_a_bye(
    service: JarmoService, host: RecordingHost
) -> None:
    await run_event(service, host, 3, "round-robin")

    # 1 draws 2, beats 3; 2 draws 1 and 3; 3 draws 2. Each sits out once (a bye: 2 points).
    (final,) = host.tables
    assert table_rows(final) == [(1, 1, 5), (2, 2, 4), (3, 3, 3)]
    byes = [p.first_id for r in host.rounds for p in r.pairings if p.is_bye]
    assert sorted(byes) == [1, 2, 3]


@pytest.mark.parametrize(
    ("format", "count"),
    [
        ("round-robin", 3),
        ("round-robin", 4),
        ("round-robin", 7),
        ("round-robin", 8),
        ("swiss", 3),
        ("swiss", 4),
        ("swiss", 7),
        ("swiss", 8),
    ],
)
async def test_a_whole_event_ends_with_the_table_of_its_draw(
    service: JarmoService, host: RecordingHost, format: Format, count: int
) -> None:
    tournament_id = await run_event(service, host, count, format)

    (final,) = host.tables
    expected, draws = play_event(format, count, final.rounds, with_points)
    assert final.standings == standings(expected)
    assert [len(r.pairings) for r in host.rounds] == [
        len(d.pairings) + (d.bye is not None) for d in draws
    ]
    record = await service.kit.store.tournaments.get(tournament_id)
    assert record.status == "finished" and record.current_round == final.rounds
    assert await service.tournaments.standings(LOBBY) == final


async def test_swiss_of_eight_plays_three_rounds_and_the_top_seed_wins(
    service: JarmoService, host: RecordingHost
) -> None:
    await run_event(service, host, 8, "swiss")

    (final,) = host.tables
    assert final.rounds == 3
    assert final.standings.rows[0].player == 1
    met = [(p.first_id, p.second_id) for r in host.rounds for p in r.pairings]
    assert len({frozenset(pair) for pair in met}) == len(met)  # no rematch


async def test_a_result_comes_back_by_itself_and_the_round_waits_for_the_last(
    service: JarmoService, host: RecordingHost, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    first, second = (p for p in await store.tournaments.pairings(tournament_id))
    assert first.match_id is not None and first.second_id is not None
    match = await store.games.match(first.match_id)
    await service.play.resign(
        type(LOBBY)(LOBBY.guild_id, match.channel_id), player(first.second_id)
    )

    decided = (await store.tournaments.pairings(tournament_id))[0]
    assert decided.decided and decided.winner_id == first.first_id
    assert service.tournaments.rounds.changed.is_set()
    await service.tournaments.rounds.advance_all()
    assert (await store.tournaments.get(tournament_id)).current_round == 1  # one still playing

    assert second.match_id is not None
    other = await store.games.match(second.match_id)
    await service.play.abort(
        type(LOBBY)(LOBBY.guild_id, other.channel_id), MODERATOR, can_manage=True
    )
    await service.tournaments.rounds.advance_all()
    assert (await store.tournaments.get(tournament_id)).current_round == 2
    aborted = (await store.tournaments.pairings(tournament_id))[1]
    assert aborted.decided and aborted.winner_id is None  # level when aborted: drawn


async def test_the_event_goes_on_after_a_restart_that_lost_the_ending(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "jarmo.sqlite3"
    async with open_store(path) as store:
        service = make_service(store, clock)
        service.tournaments.attach(RecordingHost())
        tournament_id = await sign_up(service, 4, format="swiss", rounds=2)
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
        pairing = (await store.tournaments.pairings(tournament_id))[0]
        assert pairing.match_id is not None and pairing.second_id is not None
        match = await store.games.match(pairing.match_id)

        # The process stops after the game ended but before the tournament heard of it.
        async def crash(match_id: int) -> None:
            raise RuntimeError("the process stopped here")

        monkeypatch.setattr(store.tournaments, "pairing_of_match", crash)
        await service.play.resign(
            type(LOBBY)(LOBBY.guild_id, match.channel_id), player(pairing.second_id)
        )
        assert (await store.games.match(match.id)).state == "forfeited"  # the ending stands
        assert not (await store.tournaments.pairings(tournament_id))[0].decided
        monkeypatch.undo()

    async with open_store(path) as store:
        host = RecordingHost()
        service = make_service(store, clock)
        service.tournaments.attach(host)
        await service.tournaments.rounds.advance_all()
        assert (await store.tournaments.pairings(tournament_id))[0].decided
        await play_current_round(service, tournament_id)
        assert (await store.tournaments.get(tournament_id)).current_round == 2
        await play_current_round(service, tournament_id)
        assert len(host.tables) == 1


async def test_two_moderators_pressing_start_at_once_start_it_once(
    service: JarmoService, host: RecordingHost, store: SqliteStore
) -> None:
    import asyncio

    from bot.service import Refusal

    tournament_id = await sign_up(service, 5, format="swiss")
    outcomes = await asyncio.gather(
        *(
            service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
            for _ in range(2)
        ),
        return_exceptions=True,
    )

    refused = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(refused) == 1 and refused[0].code == "signup-closed"
    await host.deliver(service)
    assert len(host.rounds) == 1 and len(host.opened) == 2
    assert {p.round for p in await store.tournaments.pairings(tournament_id)} == {1}


async def test_a_withdrawal_forfeits_the_match_and_keeps_results_played(
    service: JarmoService, host: RecordingHost, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    await play_current_round(service, tournament_id)  # round 1: 1-4 (1 wins), 2-3 (draw)

    await service.tournaments.leave(LOBBY, player(3))

    round_two = [p for p in await store.tournaments.pairings(tournament_id) if p.round == 2]
    with_three = next(p for p in round_two if 3 in p.player_ids)
    assert with_three.decided and with_three.forfeit and with_three.winner_id != 3
    assert with_three.match_id is not None
    match = await store.games.match(with_three.match_id)
    assert match.state == "aborted"  # the game in play was stopped
    await play_current_round(service, tournament_id)
    await play_current_round(service, tournament_id)

    (final,) = host.tables
    row = next(r for r in final.standings.rows if r.player == 3)
    assert row.withdrawn
    assert row.rounds[0] is not None and row.rounds[0].outcome == "draw"  # played: kept
    assert all(c is not None and c.outcome == "forfeit-loss" for c in row.rounds[1:])


async def test_a_moderator_forces_the_unfinished_matches_to_their_score(
    service: JarmoService, host: RecordingHost, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="swiss", rounds=2)
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)

    await service.tournaments.force(LOBBY, MODERATOR, moderator=True)
    await service.tournaments.rounds.advance_all()

    round_one = [p for p in await store.tournaments.pairings(tournament_id) if p.round == 1]
    assert all(p.decided and p.winner_id is None for p in round_one)  # level: drawn
    for pairing in round_one:
        assert pairing.match_id is not None
        assert (await store.games.match(pairing.match_id)).state == "aborted"
    assert (await store.tournaments.get(tournament_id)).current_round == 2


def test_match_results_of_the_fixture_rule_are_what_the_table_expects() -> None:
    assert MatchResult(1, 1, 3, *with_points(1, Pairing(1, 3))).points == (5, 5)
    assert with_points(1, Pairing(2, 3)) == (None, (10, 10))


class SlowHost(RecordingHost):
    """Opening a thread takes a while (a Discord call): ``opening`` is set while one is open."""

    def __init__(self) -> None:
        super().__init__()
        self.opening = asyncio.Event()
        self.go_on = asyncio.Event()

    async def open(self, match: NewMatch) -> int | None:
        self.opening.set()
        await self.go_on.wait()
        return await super().open(match)


async def test_the_background_advance_does_not_start_a_match_that_start_is_starting(
    store: SqliteStore, clock: FakeClock
) -> None:
    service = make_service(store, clock)
    host = SlowHost()
    service.tournaments.attach(host)
    tournament_id = await sign_up(service, 4, format="round-robin")
    starting = asyncio.create_task(
        service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    )
    await asyncio.wait_for(host.opening.wait(), 10)  # round 1 stored, its first thread opening
    advancing = asyncio.create_task(service.tournaments.rounds.advance_all())
    host.go_on.set()
    await asyncio.wait_for(asyncio.gather(starting, advancing), 10)

    pairings = await store.tournaments.pairings(tournament_id)
    assert len(host.opened) == len(pairings) == 2  # one thread and one match per pairing
    assert len({p.match_id for p in pairings}) == 2


async def test_a_process_advances_only_the_tournaments_of_its_servers(
    store: SqliteStore, clock: FakeClock, host: RecordingHost
) -> None:
    service = make_service(store, clock)
    service.tournaments.attach(host)
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    first, second = await store.tournaments.pairings(tournament_id)
    for pairing in (first, second):
        assert pairing.match_id is not None and pairing.second_id is not None
        match = await store.games.match(pairing.match_id)
        await service.play.resign(
            type(LOBBY)(LOBBY.guild_id, match.channel_id), player(pairing.second_id)
        )

    await service.tournaments.rounds.advance_all(lambda guild_id: guild_id != LOBBY.guild_id)
    assert (await store.tournaments.get(tournament_id)).current_round == 1  # another's server
    await service.tournaments.rounds.advance_all(lambda guild_id: guild_id == LOBBY.guild_id)
    assert (await store.tournaments.get(tournament_id)).current_round == 2
