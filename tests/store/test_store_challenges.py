"""Challenges: posting, the one-per-channel rule, closing, expiry and acceptance."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.store import (
    ChallengeClosed,
    ChallengeOptions,
    ChannelTaken,
    NotFound,
    SqliteStore,
)
from tests.store.store_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    T0,
    StartMatch,
    challenge,
    new_game,
    only_sqlite,
)


async def test_a_new_challenge_is_pending_and_can_be_read_back(store: SqliteStore) -> None:
    new = challenge(game_count=4, ruleset="ludos", side="black", vs_computer_level="easy")
    posted = await store.challenges.create(new, now=T0)
    assert posted.status == "pending"
    assert (posted.guild_id, posted.channel_id) == (GUILD, CHANNEL)
    assert (posted.challenger_id, posted.challenged_id) == (ALICE, BOB)
    assert posted.options == ChallengeOptions(4, "ludos", "traditional", "black", 200, "easy")
    assert (posted.created_at, posted.expires_at) == (T0, new.expires_at)
    assert posted.closed_at is None and posted.message_id is None
    assert await store.challenges.get(posted.id) == posted


async def test_an_open_challenge_names_no_opponent(store: SqliteStore) -> None:
    posted = await store.challenges.create(replace(challenge(), challenged_id=None), now=T0)
    assert (posted.challenger_id, posted.challenged_id, posted.status) == (ALICE, None, "pending")
    assert await store.challenges.get(posted.id) == posted
    assert await store.challenges.pending(CHANNEL, now=T0) == posted


async def test_an_open_challenge_cannot_start_a_match_without_an_opponent(
    store: SqliteStore,
) -> None:
    posted = await store.challenges.create(replace(challenge(), challenged_id=None), now=T0)
    with pytest.raises(ValueError, match="open"):
        await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
        )
    assert (await store.challenges.get(posted.id)).status == "pending"
    assert await store.games.latest_match(CHANNEL) is None


async def test_times_are_stored_as_utc(store: SqliteStore) -> None:
    plus_two = timezone(timedelta(hours=2))
    posted = await store.challenges.create(challenge(), now=T0.astimezone(plus_two))
    assert posted.created_at == T0
    assert posted.created_at.utcoffset() == timedelta(0)


async def test_naive_times_are_refused(store: SqliteStore) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await store.challenges.create(challenge(), now=datetime(2025, 1, 1))


@pytest.mark.parametrize(
    "new",
    [
        challenge(game_count=3),
        challenge(side="green"),
        challenge(max_plies=0),
        replace(challenge(), challenged_id=ALICE),
    ],
    ids=["game_count", "side", "max_plies", "self"],
)
async def test_invalid_challenges_are_refused(store: SqliteStore, new: object) -> None:
    with pytest.raises(ValueError):
        await store.challenges.create(new, now=T0)  # type: ignore[arg-type]  # wrong on purpose
    assert await store.challenges.pending(CHANNEL, now=T0) is None


async def test_unknown_challenge_ids_raise_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound) as caught:
        await store.challenges.get(42)
    assert (caught.value.kind, caught.value.key) == ("challenge", 42)
    with pytest.raises(NotFound):
        await store.challenges.attach_message(42, 1)
    with pytest.raises(NotFound):
        await store.challenges.close(42, "declined", now=T0)
    with pytest.raises(NotFound):
        await store.challenges.accept(42, first_white_id=ALICE, first_game=new_game(), now=T0)


async def test_one_pending_challenge_per_channel(store: SqliteStore) -> None:
    first = await store.challenges.create(challenge(), now=T0)
    with pytest.raises(ChannelTaken) as caught:
        await store.challenges.create(challenge(), now=T0 + timedelta(seconds=299))
    assert (caught.value.reason, caught.value.holder_id) == ("challenge", first.id)
    other = await store.challenges.create(challenge(channel=CHANNEL + 1), now=T0)
    assert other.status == "pending"


async def test_an_active_game_makes_the_channel_busy(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, game = await start_match()
    with pytest.raises(ChannelTaken) as caught:
        await store.challenges.create(challenge(), now=T0)
    assert (caught.value.reason, caught.value.holder_id) == ("game", game.id)


async def test_an_overdue_challenge_makes_way_for_a_new_one(store: SqliteStore) -> None:
    old = await store.challenges.create(challenge(expires_in=60), now=T0)
    later = T0 + timedelta(seconds=60)
    new = await store.challenges.create(challenge(), now=later)
    assert new.status == "pending"
    assert (await store.challenges.get(old.id)).status == "expired"
    assert (await store.challenges.get(old.id)).closed_at == later


async def test_pending_challenge_ignores_overdue_and_closed_ones(store: SqliteStore) -> None:
    posted = await store.challenges.create(challenge(expires_in=60), now=T0)
    assert await store.challenges.pending(CHANNEL, now=T0) == posted
    assert await store.challenges.pending(CHANNEL + 1, now=T0) is None
    assert await store.challenges.pending(CHANNEL, now=T0 + timedelta(seconds=60)) is None
    await store.challenges.close(posted.id, "cancelled", now=T0)
    assert await store.challenges.pending(CHANNEL, now=T0) is None


async def test_the_message_id_can_be_set_later(store: SqliteStore) -> None:
    posted = await store.challenges.create(challenge(), now=T0)
    await store.challenges.attach_message(posted.id, 987654321012345678)
    assert (await store.challenges.get(posted.id)).message_id == 987654321012345678


@pytest.mark.parametrize("status", ["declined", "cancelled", "expired"])
async def test_closing_a_pending_challenge(store: SqliteStore, status: str) -> None:
    posted = await store.challenges.create(challenge(), now=T0)
    closed = await store.challenges.close(posted.id, status, now=T0 + timedelta(seconds=5))  # type: ignore[arg-type]  # a status from the parameters
    assert (closed.status, closed.closed_at) == (status, T0 + timedelta(seconds=5))
    assert await store.challenges.get(posted.id) == closed
    with pytest.raises(ChallengeClosed) as caught:
        await store.challenges.close(posted.id, "declined", now=T0)
    assert caught.value.status == status
    # The channel is free again.
    await store.challenges.create(challenge(), now=T0 + timedelta(seconds=6))


async def test_closing_with_a_bad_status_is_refused(store: SqliteStore) -> None:
    posted = await store.challenges.create(challenge(), now=T0)
    with pytest.raises(ValueError):
        await store.challenges.close(posted.id, "accepted", now=T0)  # type: ignore[arg-type]  # wrong on purpose
    assert (await store.challenges.get(posted.id)).status == "pending"


async def test_declining_an_overdue_challenge_reports_and_stores_expired(
    store: SqliteStore,
) -> None:
    posted = await store.challenges.create(challenge(expires_in=60), now=T0)
    with pytest.raises(ChallengeClosed) as caught:
        await store.challenges.close(posted.id, "declined", now=T0 + timedelta(seconds=61))
    assert caught.value.status == "expired"
    assert (await store.challenges.get(posted.id)).status == "expired"


async def test_expire_challenges_marks_only_overdue_ones(store: SqliteStore) -> None:
    soon = await store.challenges.create(challenge(channel=1, expires_in=10), now=T0)
    later = await store.challenges.create(challenge(channel=2, expires_in=100), now=T0)
    sooner = await store.challenges.create(challenge(channel=3, expires_in=5), now=T0)
    declined = await store.challenges.create(challenge(channel=4, expires_in=1), now=T0)
    await store.challenges.close(declined.id, "declined", now=T0)

    expired = await store.challenges.expire_overdue(now=T0 + timedelta(seconds=10))
    assert [c.id for c in expired] == [soon.id, sooner.id]
    assert all(c.status == "expired" and c.closed_at == T0 + timedelta(seconds=10) for c in expired)
    assert (await store.challenges.get(later.id)).status == "pending"
    assert (await store.challenges.get(declined.id)).status == "declined"
    assert await store.challenges.expire_overdue(now=T0 + timedelta(seconds=10)) == []


async def test_accepting_creates_the_match_and_its_first_game(store: SqliteStore) -> None:
    posted = await store.challenges.create(challenge(game_count=2, max_plies=150), now=T0)
    first = new_game(150)
    at = T0 + timedelta(seconds=30)
    match, game = await store.challenges.accept(
        posted.id, first_white_id=BOB, first_game=first, now=at
    )

    assert (await store.challenges.get(posted.id)).status == "accepted"
    assert (match.first_white_id, match.first_black_id) == (BOB, ALICE)
    assert (match.game_count, match.max_plies, match.ruleset, match.layout) == (
        2,
        150,
        "classic",
        "traditional",
    )
    assert (match.state, match.winner_id, match.challenge_id) == ("running", None, posted.id)
    assert match.created_at == at and match.finished_at is None
    assert (game.match_id, game.index, game.white_id, game.black_id) == (match.id, 0, BOB, ALICE)
    assert (game.status, game.version, game.channel_id, game.guild_id) == (
        "active",
        0,
        CHANNEL,
        GUILD,
    )
    assert game.engine is first and game.points is None and game.winner is None
    assert game.started_at == game.last_activity == at
    assert await store.games.match(match.id) == match
    assert await store.games.active(CHANNEL) == game


async def test_accepting_twice_is_refused(store: SqliteStore, start_match: StartMatch) -> None:
    match, _ = await start_match()
    assert match.challenge_id is not None
    with pytest.raises(ChallengeClosed) as caught:
        await store.challenges.accept(
            match.challenge_id, first_white_id=ALICE, first_game=new_game(), now=T0
        )
    assert caught.value.status == "accepted"


async def test_accepting_an_overdue_challenge_stores_it_as_expired(store: SqliteStore) -> None:
    posted = await store.challenges.create(challenge(expires_in=60), now=T0)
    with pytest.raises(ChallengeClosed) as caught:
        await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0 + timedelta(seconds=60)
        )
    assert caught.value.status == "expired"
    assert (await store.challenges.get(posted.id)).status == "expired"
    assert await store.games.active(CHANNEL) is None
    assert await store.games.latest_match(CHANNEL) is None


async def test_a_failed_accept_writes_nothing(store: SqliteStore) -> None:
    posted = await store.challenges.create(challenge(), now=T0)
    with pytest.raises(ValueError):
        await store.challenges.accept(posted.id, first_white_id=999, first_game=new_game(), now=T0)
    played = new_game()
    played.play(played.legal_moves()[0])
    with pytest.raises(ValueError):
        await store.challenges.accept(posted.id, first_white_id=ALICE, first_game=played, now=T0)
    assert (await store.challenges.get(posted.id)).status == "pending"
    assert await store.games.latest_match(CHANNEL) is None


@only_sqlite
async def test_accepting_into_a_channel_with_an_active_game_is_refused(
    store: SqliteStore, start_match: StartMatch, db_path: Path
) -> None:
    _, game = await start_match()
    # Not reachable through the store's own methods (create_challenge refuses first), so the
    # pending challenge is written directly: the database's unique index is what stops it.
    with sqlite3.connect(db_path) as db:
        sneaky = db.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenged_id,"
            " game_count, ruleset, layout, side, max_plies, created_at, expires_at)"
            " VALUES (?, ?, ?, ?, 1, 'classic', 'bow', 'random', 200, ?, ?)",
            (GUILD, CHANNEL, ALICE, BOB, T0.isoformat(), (T0 + timedelta(hours=1)).isoformat()),
        ).lastrowid
    assert sneaky is not None
    with pytest.raises(ChannelTaken) as caught:
        await store.challenges.accept(sneaky, first_white_id=ALICE, first_game=new_game(), now=T0)
    assert (caught.value.reason, caught.value.holder_id) == ("game", game.id)
    assert (await store.challenges.get(sneaky)).status == "pending"
    assert (await store.games.latest_match(CHANNEL)).id == game.match_id  # type: ignore[union-attr]  # the match just started
