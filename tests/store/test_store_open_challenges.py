"""Open challenges in the store: the rating range kept, the acceptor taken as the challenged
player, and two accepts at once settled by the database."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import (
    ChallengeClosed,
    GameRecord,
    MatchRecord,
    NewChallenge,
    RatingRange,
    Store,
    open_any,
)
from tests.store.store_helpers import ALICE, BOB, CHANNEL, T0, challenge, new_game
from tests.store.test_store_migrations import AT, database_at, rows_but_versions

CAROL = 303


def open_challenge(limits: RatingRange | None = None, expires_in: float = 300) -> NewChallenge:
    """ALICE challenges anyone in CHANNEL, within ``limits``."""
    return replace(challenge(expires_in=expires_in), challenged_id=None, rating_range=limits)


async def test_the_rating_range_is_kept_and_read_back(store: Store) -> None:
    posted = await store.challenges.create(open_challenge(RatingRange(1000, 1300)), now=T0)
    assert posted.rating_range == RatingRange(1000, 1300)
    assert await store.challenges.get(posted.id) == posted


@pytest.mark.parametrize("limits", [RatingRange(1300, 1000), RatingRange(-5, 20)])
async def test_a_reversed_or_negative_range_is_refused(store: Store, limits: RatingRange) -> None:
    with pytest.raises(ValueError, match="rating range"):
        await store.challenges.create(open_challenge(limits), now=T0)
    assert await store.challenges.pending(CHANNEL, now=T0) is None


async def test_a_named_challenge_takes_no_rating_range(store: Store) -> None:
    with pytest.raises(ValueError, match="open challenge"):
        await store.challenges.create(replace(challenge(), rating_range=RatingRange(1, 2)), now=T0)


async def test_accepting_an_open_challenge_makes_the_acceptor_its_opponent(store: Store) -> None:
    posted = await store.challenges.create(open_challenge(), now=T0)
    match, game = await store.challenges.accept(
        posted.id, first_white_id=CAROL, first_game=new_game(), now=T0, acceptor_id=CAROL
    )
    assert (match.first_white_id, match.first_black_id) == (CAROL, ALICE)
    assert (game.white_id, game.black_id) == (CAROL, ALICE)
    accepted = await store.challenges.get(posted.id)
    assert (accepted.status, accepted.challenged_id, accepted.closed_at) == ("accepted", CAROL, T0)


async def test_the_challenger_cannot_accept_their_own_open_challenge(store: Store) -> None:
    posted = await store.challenges.create(open_challenge(), now=T0)
    with pytest.raises(ValueError, match="may not accept"):
        await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0, acceptor_id=ALICE
        )
    assert await store.challenges.get(posted.id) == posted
    assert await store.games.latest_match(CHANNEL) is None


async def test_only_the_named_player_accepts_a_named_challenge(store: Store) -> None:
    posted = await store.challenges.create(challenge(), now=T0)
    with pytest.raises(ValueError, match="may not accept"):
        await store.challenges.accept(
            posted.id, first_white_id=ALICE, first_game=new_game(), now=T0, acceptor_id=CAROL
        )
    assert await store.challenges.get(posted.id) == posted


async def test_an_overdue_open_challenge_is_stored_as_expired(store: Store) -> None:
    posted = await store.challenges.create(open_challenge(expires_in=60), now=T0)
    late = posted.expires_at
    with pytest.raises(ChallengeClosed) as closed:
        await store.challenges.accept(
            posted.id, first_white_id=BOB, first_game=new_game(), now=late, acceptor_id=BOB
        )
    assert closed.value.status == "expired"
    assert (await store.challenges.get(posted.id)).status == "expired"


@pytest.mark.parametrize("attempt", range(5))
async def test_two_accepts_at_once_from_two_processes_give_one_game(
    store_target: Path | str, attempt: int
) -> None:
    # On PostgreSQL two stores on one database stand for two shard processes, sharing no lock
    # in memory; a SQLite file is one process's alone, so its two clicks share one store.
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(open_any(store_target))
        second = first
        if isinstance(store_target, str):
            second = await stack.enter_async_context(open_any(store_target))
        posted = await first.challenges.create(open_challenge(), now=T0)

        async def accept(store: Store, player: int) -> tuple[MatchRecord, GameRecord]:
            return await store.challenges.accept(
                posted.id, first_white_id=player, first_game=new_game(), now=T0,
                acceptor_id=player,
            )  # fmt: skip

        results = await asyncio.gather(
            accept(first, BOB), accept(second, CAROL), return_exceptions=True
        )
        won = [result for result in results if isinstance(result, tuple)]
        lost = [result for result in results if isinstance(result, ChallengeClosed)]
        assert (len(won), len(lost)) == (1, 1), results
        assert lost[0].status == "accepted"
        match, _ = won[0]
        accepted = await second.challenges.get(posted.id)
        assert accepted.challenged_id == match.first_white_id
        assert accepted.challenged_id in (BOB, CAROL)
        games = await first.games.active_of_player(ALICE)
        assert [game.match_id for game in games] == [match.id]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_challenges_stored_before_rating_ranges_keep_every_row_and_take_anyone(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    rows_at_13 = [
        "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, challenged_id,"
        " game_count, ruleset, layout, side, max_plies, status, created_at, expires_at)"
        f" VALUES (1, 7, 70, 5, 6, 1, 'classic', 'bow', 'white', 200, 'declined', '{AT}', '{AT}'),"
        f" (2, 7, 71, 5, NULL, 1, 'ludos', 'bow', 'random', 150, 'pending', '{AT}', '{AT}')"
    ]
    target = await database_at(request, db_path, backend, 13, rows_at_13)
    before = await rows_but_versions(target)
    async with open_any(target) as store:
        kept = [await store.challenges.get(challenge_id) for challenge_id in (1, 2)]
    assert [(c.challenged_id, c.rating_range) for c in kept] == [(6, None), (None, None)]
    after = await rows_but_versions(target)
    assert after.pop("challenges") == [(*row, None, None) for row in before.pop("challenges")]
    assert after == before
