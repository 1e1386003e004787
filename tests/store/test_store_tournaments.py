"""The tournament role of the store: sign-up order, version-checked round changes, results
recorded once, and one open tournament per channel enforced by the database. On every backend
(the ``store`` fixture)."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import store as st
from bot.jarmo import Game
from bot.store import open_any

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
CUP = st.NewTournament(
    guild_id=1,
    channel_id=10,
    organiser_id=99,
    name="Cup",
    format="swiss",
    rounds=0,
    game_count=2,
    ruleset="classic",
    layout="bow",
    max_plies=200,
)
ROUND = [st.NewPairing(1, 2), st.NewPairing(3, None, decided=True, winner_id=3)]


async def signed_up(store: st.Store, *players: int) -> st.TournamentRecord:
    record = await store.tournaments.create(CUP, now=NOW)
    for user_id in players:
        await store.tournaments.join(record.id, user_id)
    return record


async def test_entries_keep_the_order_of_joining_and_joining_twice_changes_nothing(
    store: Any,
) -> None:
    record = await signed_up(store, 5, 3, 5, 4)
    await store.tournaments.leave(record.id, 3)
    entries = await store.tournaments.join(record.id, 3)

    assert [(e.user_id, e.seed) for e in entries] == [(5, 1), (4, 3), (3, 4)]


async def test_a_round_starts_once_from_the_round_it_expects(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)

    started = await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    with pytest.raises(st.StaleTournament):
        await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)

    assert (started.status, started.current_round) == ("running", 1)
    rows = await store.tournaments.pairings(record.id)
    assert [(p.board, p.player_ids, p.decided) for p in rows] == [
        (1, (1, 2), False),
        (2, (3,), True),
    ]
    with pytest.raises(st.TournamentClosed):
        await store.tournaments.join(record.id, 4)


async def test_concurrent_starts_let_exactly_one_through(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)

    outcomes = await asyncio.gather(
        *(
            store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
            for _ in range(5)
        ),
        return_exceptions=True,
    )

    assert sum(isinstance(o, st.TournamentRecord) for o in outcomes) == 1
    assert sum(isinstance(o, st.StaleTournament) for o in outcomes) == 4
    assert len(await store.tournaments.pairings(record.id)) == 2


async def test_a_result_is_recorded_once(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)

    first = await store.tournaments.decide(record.id, 1, 1, st.PairingResult(2, 5, 10))
    second = await store.tournaments.decide(record.id, 1, 1, st.PairingResult(1, 10, 5))

    assert (first, second) == (True, False)
    pairing = (await store.tournaments.pairings(record.id))[0]
    assert (pairing.winner_id, pairing.first_points, pairing.second_points) == (2, 5, 10)
    with pytest.raises(st.NotFound):
        await store.tournaments.decide(record.id, 1, 9, st.PairingResult(None))


async def test_one_open_tournament_per_channel_and_finished_ones_stay_findable(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)
    with pytest.raises(st.ChannelHasTournament):
        await store.tournaments.create(CUP, now=NOW)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    with pytest.raises(st.StaleTournament):
        await store.tournaments.finish(record.id, expected_round=2, now=NOW)

    finished = await store.tournaments.finish(record.id, expected_round=1, now=NOW)
    assert finished.status == "finished" and finished.finished_at == NOW
    assert await store.tournaments.running() == []
    assert await store.tournaments.latest_in(10) == finished
    again = await store.tournaments.create(CUP, now=NOW)
    assert (await store.tournaments.latest_in(10)).id == again.id != record.id


async def test_a_pairing_is_found_by_its_match(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    challenge = await store.challenges.create(
        st.NewChallenge(1, 500, 1, 2, st.ChallengeOptions(game_count=2), NOW.replace(hour=13)),
        now=NOW,
    )
    match, _ = await store.challenges.accept(
        challenge.id, first_white_id=1, first_game=Game.new("classic", "bow", 200), now=NOW
    )
    assert await store.tournaments.attach_match(record.id, 1, 1, match.id)

    found = await store.tournaments.pairing_of_match(match.id)
    assert found is not None and (found.round, found.board) == (1, 1)
    assert await store.tournaments.pairing_of_match(match.id + 1) is None


async def test_a_pairing_keeps_the_first_match_started_for_it(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    matches = []
    for channel in (500, 501):  # two processes each opened a thread and started a match
        challenge = await store.challenges.create(
            st.NewChallenge(1, channel, 1, 2, st.ChallengeOptions(), NOW.replace(hour=13)),
            now=NOW,
        )
        match, _ = await store.challenges.accept(
            challenge.id, first_white_id=1, first_game=Game.new("classic", "bow", 200), now=NOW
        )
        matches.append(match)

    attached = await asyncio.gather(
        *(store.tournaments.attach_match(record.id, 1, 1, m.id) for m in matches)
    )

    assert sorted(attached) == [False, True]
    winner = matches[attached.index(True)]
    assert (await store.tournaments.pairings(record.id))[0].match_id == winner.id
    with pytest.raises(st.NotFound):
        await store.tournaments.attach_match(record.id, 1, 9, winner.id)


async def test_the_tournament_tables_survive_reopening(store_target: Path | str) -> None:
    async with open_any(store_target) as store:
        record = await signed_up(store, 1, 2, 3)
        await store.tournaments.withdraw(record.id, 2)
    async with open_any(store_target) as store:
        entries = await store.tournaments.entries(record.id)
        assert [(e.user_id, e.withdrawn) for e in entries] == [(1, False), (2, True), (3, False)]


async def test_tournaments_created_at_once_in_different_channels_all_get_their_own_id(
    store: Any,
) -> None:
    made = await asyncio.gather(
        *(
            store.tournaments.create(dataclasses.replace(CUP, channel_id=100 + n), now=NOW)
            for n in range(4)
        )
    )

    assert sorted(t.id for t in made) == [1, 2, 3, 4]
    assert {t.channel_id for t in made} == {100, 101, 102, 103}


async def finished_cup(
    store: st.Store, *players: int, channel: int = 10, guild: int = 1, at: datetime = NOW
) -> st.TournamentRecord:
    """A tournament of ``players`` in ``channel`` that played one round and finished ``at``."""
    new = dataclasses.replace(CUP, channel_id=channel, guild_id=guild)
    record = await store.tournaments.create(new, now=at)
    for user_id in players:
        await store.tournaments.join(record.id, user_id)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    return await store.tournaments.finish(record.id, expected_round=1, now=at)


async def test_a_players_finished_tournaments_come_newest_first_in_their_server_only(
    store: Any,
) -> None:
    hour = timedelta(hours=1)
    older = await finished_cup(store, 1, 2, 3, channel=10, at=NOW)
    newer = await finished_cup(store, 3, 1, 2, channel=11, at=NOW + hour)
    await finished_cup(store, 2, 3, 4, channel=12, at=NOW + 2 * hour)  # without player 1
    await finished_cup(store, 1, 2, 3, channel=13, guild=2, at=NOW + 3 * hour)  # elsewhere
    await signed_up(store, 1, 2, 3)  # in sign-up in channel 10: not finished
    running = await store.tournaments.create(dataclasses.replace(CUP, channel_id=14), now=NOW)
    for user_id in (1, 2, 3):
        await store.tournaments.join(running.id, user_id)
    await store.tournaments.start_round(running.id, expected_round=0, pairings=ROUND)

    found = await store.tournaments.finished_with(1, 1, limit=10)
    assert [t.id for t in found] == [newer.id, older.id]
    assert found[0] == newer
    assert [t.id for t in await store.tournaments.finished_with(1, 1, limit=1)] == [newer.id]
    assert await store.tournaments.finished_with(1, 99, limit=10) == []


async def test_a_withdrawn_player_keeps_the_tournament_in_their_list(store: Any) -> None:
    record = await signed_up(store, 1, 2, 3)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    await store.tournaments.withdraw(record.id, 2)
    await store.tournaments.finish(record.id, expected_round=1, now=NOW)

    assert [t.id for t in await store.tournaments.finished_with(1, 2, limit=10)] == [record.id]


async def test_the_last_finished_tournament_of_a_channel_outlives_the_next_sign_up(
    store: Any,
) -> None:
    assert await store.tournaments.last_finished_in(10) is None
    first = await finished_cup(store, 1, 2, 3, at=NOW)
    second = await finished_cup(store, 1, 2, 3, at=NOW + timedelta(days=1))
    await finished_cup(store, 1, 2, 3, channel=11, at=NOW + timedelta(days=2))
    await signed_up(store, 4, 5, 6)  # the next one, in sign-up in channel 10

    assert await store.tournaments.last_finished_in(10) == second != first
    assert (await store.tournaments.latest_in(10)).status == "signup"
