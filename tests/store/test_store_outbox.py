"""The outbox on every backend (the ``store`` fixture): a change's announcements (several at
once, each to a channel or to a user) are written in the transaction of the change they
announce (a failure leaves neither), and only the holder of an entry's lease may settle it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot import store as st
from tests.store.store_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    StartMatch,
    fork,
    quiet_move,
)

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
CUP = st.NewTournament(
    guild_id=GUILD,
    channel_id=77,
    organiser_id=99,
    name="Cup",
    format="round-robin",
    rounds=0,
    game_count=2,
    ruleset="classic",
    layout="bow",
    max_plies=200,
)
ROUND = [st.NewPairing(1, 2), st.NewPairing(3, None, decided=True, winner_id=3)]
ROUND_POST = st.Announcement(
    "round_paired:1:1", "round_paired", {"tournament_id": 1, "round": 1}, held_seconds=300
)
# The store refuses this kind: writing it fails inside the change's transaction, after a good
# announcement of the same write was written.
BROKEN = [
    st.Announcement("fine:1", "round_paired", {"tournament_id": 1, "round": 1}),
    st.Announcement("broken:1", "no such kind"),  # type: ignore[arg-type]  # an unknown kind, on purpose
]
REFUSED_KIND = "no announcement is of kind 'no such kind'"


def later(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)


async def running_cup(store: st.Store) -> st.TournamentRecord:
    record = await store.tournaments.create(CUP, now=NOW)
    for user_id in (1, 2, 3):
        await store.tournaments.join(record.id, user_id)
    return record


async def pending(store: st.Store, at: datetime) -> list[st.OutboxEntry]:
    """Every entry that may be taken at ``at`` (taking them)."""
    return await store.outbox.claim(now=at, lease_seconds=60, limit=100)


async def test_a_round_is_stored_with_its_post_held_for_the_writer(store: Any) -> None:
    record = await running_cup(store)

    await store.tournaments.start_round(
        record.id, expected_round=0, pairings=ROUND, announce=[ROUND_POST], now=NOW
    )

    assert await pending(store, later(1)) == []  # held: the writer starts the matches first
    assert await store.outbox.settle(ROUND_POST.key, "retry", lease=st.WRITER_LEASE, now=later(2))
    (entry,) = await pending(store, later(2))
    assert (entry.key, entry.kind, entry.guild_id, entry.address, entry.game_id) == (
        "round_paired:1:1",
        "round_paired",
        GUILD,
        st.ChannelAddress(CUP.channel_id),
        None,
    )
    assert dict(entry.payload) == {"tournament_id": 1, "round": 1}


async def test_a_round_whose_post_cannot_be_written_is_not_stored_either(store: Any) -> None:
    record = await running_cup(store)

    with pytest.raises(Exception, match=REFUSED_KIND):
        await store.tournaments.start_round(
            record.id, expected_round=0, pairings=ROUND, announce=BROKEN, now=NOW
        )

    after = await store.tournaments.get(record.id)
    assert (after.status, after.current_round) == ("signup", 0)
    assert await store.tournaments.pairings(record.id) == []
    assert await pending(store, later(3_600)) == []


async def test_a_stale_round_change_writes_no_post(store: Any) -> None:
    record = await running_cup(store)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)

    with pytest.raises(st.StaleTournament):
        await store.tournaments.start_round(
            record.id, expected_round=0, pairings=ROUND, announce=[ROUND_POST], now=NOW
        )

    assert await pending(store, later(3_600)) == []


async def test_an_announcement_needs_a_time(store: Any) -> None:
    record = await running_cup(store)

    with pytest.raises(ValueError, match="without a time"):
        await store.tournaments.start_round(
            record.id, expected_round=0, pairings=ROUND, announce=[ROUND_POST]
        )

    assert (await store.tournaments.get(record.id)).current_round == 0


async def test_the_end_is_stored_with_its_final_table_or_not_at_all(store: Any) -> None:
    record = await running_cup(store)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)

    with pytest.raises(Exception, match=REFUSED_KIND):
        await store.tournaments.finish(record.id, expected_round=1, now=NOW, announce=BROKEN)
    assert (await store.tournaments.get(record.id)).status == "running"

    table = st.Announcement("final_table:1", "final_table", {"tournament_id": 1})
    await store.tournaments.finish(record.id, expected_round=1, now=NOW, announce=[table])

    assert (await store.tournaments.get(record.id)).status == "finished"
    (entry,) = await pending(store, NOW)
    assert (entry.key, entry.address, entry.game_id) == (
        "final_table:1",
        st.ChannelAddress(77),
        None,
    )


async def test_a_match_is_attached_with_its_welcome_in_its_own_channel_or_not_at_all(
    store: Any, start_match: StartMatch
) -> None:
    record = await running_cup(store)
    await store.tournaments.start_round(record.id, expected_round=0, pairings=ROUND)
    match, first_game = await start_match()

    with pytest.raises(Exception, match=REFUSED_KIND):
        await store.tournaments.attach_match(record.id, 1, 1, match.id, announce=BROKEN, now=NOW)
    assert (await store.tournaments.pairings(record.id))[0].match_id is None

    welcome = st.Announcement("match_welcome:1:1:1", "match_welcome", {"board": 1})
    await store.tournaments.attach_match(record.id, 1, 1, match.id, announce=[welcome], now=NOW)

    assert (await store.tournaments.pairings(record.id))[0].match_id == match.id
    (entry,) = await pending(store, NOW)
    assert (entry.kind, entry.address, entry.game_id) == (
        "match_welcome",
        st.ChannelAddress(CHANNEL),
        first_game.id,
    )


async def test_only_the_claim_that_holds_the_lease_settles_an_entry(store: Any) -> None:
    record = await running_cup(store)
    post = st.Announcement("round_paired:1:1", "round_paired", {"tournament_id": 1, "round": 1})
    await store.tournaments.start_round(
        record.id, expected_round=0, pairings=ROUND, announce=[post], now=NOW
    )
    (first,) = await pending(store, NOW)  # leased for 60 s ...
    (second,) = await pending(store, later(61))  # ... ran out, and another claim took it
    assert first.lease != second.lease and second.attempts == 2

    # The first holder, late: neither "sent" nor "retry" counts any more.
    assert not await store.outbox.settle(post.key, "sent", lease=first.lease, now=later(62))
    assert not await store.outbox.settle(
        post.key, "retry", lease=first.lease, now=later(62), retry_at=later(62)
    )
    assert await pending(store, later(63)) == []  # still the second claim's
    assert await store.outbox.settle(post.key, "sent", lease=second.lease, now=later(64))
    assert await pending(store, later(3_600)) == []
    assert not await store.outbox.settle(post.key, "sent", lease=second.lease, now=later(65))
    with pytest.raises(st.NotFound):
        await store.outbox.settle("no-such-key", "sent", lease=second.lease, now=later(66))


async def test_a_writer_whose_hold_ran_out_and_was_claimed_no_longer_settles(store: Any) -> None:
    record = await running_cup(store)
    await store.tournaments.start_round(
        record.id, expected_round=0, pairings=ROUND, announce=[ROUND_POST], now=NOW
    )

    (claimed,) = await pending(store, later(301))  # the hold ran out: delivered without it

    assert not await store.outbox.settle(
        ROUND_POST.key, "retry", lease=st.WRITER_LEASE, now=later(302)
    )
    assert await store.outbox.next_due() == later(361)  # the claim's lease stands
    assert await store.outbox.settle(ROUND_POST.key, "sent", lease=claimed.lease, now=later(303))


async def test_a_move_writes_several_announcements_to_its_channel_and_to_a_user(
    store: Any, start_match: StartMatch
) -> None:
    _, start = await start_match()
    game = fork(start.engine)
    move = quiet_move(game, random.Random(3))
    in_channel = st.Announcement("computer_move:1:1", "computer_move", {"version": 1})
    direct = st.Announcement("reminder:1:1:1", "reminder", {"user_id": BOB}, to_user=BOB)

    await store.games.record_move(
        start.id,
        expected_version=0,
        player_id=ALICE,
        move=move,
        game=game,
        now=NOW,
        announce=[in_channel, direct],
    )

    entries = await pending(store, NOW)
    assert [(e.key, e.address, e.guild_id, e.game_id) for e in entries] == [
        ("computer_move:1:1", st.ChannelAddress(CHANNEL), GUILD, start.id),
        ("reminder:1:1:1", st.UserAddress(BOB), GUILD, start.id),
    ]
    assert entries[0].channel_id == CHANNEL
    with pytest.raises(ValueError, match="goes to a user"):
        _ = entries[1].channel_id


async def test_a_move_whose_announcements_cannot_all_be_written_is_not_stored(
    store: Any, start_match: StartMatch
) -> None:
    _, start = await start_match()
    game = fork(start.engine)
    move = quiet_move(game, random.Random(3))

    with pytest.raises(ValueError, match=REFUSED_KIND):
        await store.games.record_move(
            start.id,
            expected_version=0,
            player_id=ALICE,
            move=move,
            game=game,
            now=NOW,
            announce=BROKEN,
        )

    assert (await store.games.get(start.id)).version == 0
    assert await pending(store, later(3_600)) == []


async def test_a_tournament_post_may_go_to_a_user_instead_of_its_channel(store: Any) -> None:
    record = await running_cup(store)
    to_organiser = st.Announcement(
        "round_paired:1:1:organiser", "round_paired", {"tournament_id": 1, "round": 1}, to_user=99
    )
    await store.tournaments.start_round(
        record.id,
        expected_round=0,
        pairings=ROUND,
        announce=[ROUND_POST, to_organiser],
        now=NOW,
    )

    assert [(e.key, e.address) for e in await pending(store, later(301))] == [
        ("round_paired:1:1", st.ChannelAddress(CUP.channel_id)),
        ("round_paired:1:1:organiser", st.UserAddress(99)),
    ]
