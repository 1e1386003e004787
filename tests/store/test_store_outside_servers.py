"""Places outside servers (a DM, a group DM, a server without the bot): their rows keep no
server (``guild_id`` NULL), their ratings form the friends pool that no server's leaderboard
reads, and the background work passes over them, but for a direct message, which shard 0
sends."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from bot import store as st
from bot.store import (
    EVERY_POOL,
    GameEnding,
    GameRecord,
    MatchOver,
    MatchRecord,
    NewChallenge,
    RatingChange,
    RatingUpdate,
    Skill,
)
from tests.store.store_helpers import ALICE, BOB, GUILD, T0, challenge, new_game, play_to_end

DM = 500  # a group DM's channel: no server
LATER = T0 + timedelta(minutes=3)


def outside_servers(channel: int = DM, expires_in: float = 300, **options: Any) -> NewChallenge:
    """ALICE challenges BOB in ``channel``, outside servers."""
    return replace(challenge(channel=channel, expires_in=expires_in, **options), guild_id=None)


async def start(store: Any, new: NewChallenge, *, now: Any = T0) -> tuple[MatchRecord, GameRecord]:
    posted = await store.challenges.create(new, now=now)
    match, game = await store.challenges.accept(
        posted.id, first_white_id=ALICE, first_game=new_game(), now=now
    )
    return match, game


def rating(user_id: int, games_before: int, before: float, after: float) -> RatingChange:
    """A made-up change (the store only keeps ratings): ``before`` is what is stored now."""
    return RatingChange(
        user_id, games_before, Skill(25.0 + before, 8.0, before), Skill(25.0 + after, 8.0, after)
    )


async def resign_rated(store: Any, game: GameRecord, *changes: RatingChange) -> None:
    """BOB resigns ``game`` (ALICE wins), rated with ``changes``."""
    ending = GameEnding(
        status="resigned", winner="white", points=game.engine.points(), termination="resigned",
        game=game.engine, then=MatchOver("forfeited", ALICE),
        ratings=RatingUpdate("classic", (changes[0], changes[1])),
    )  # fmt: skip
    await store.games.end(game.id, ending, expected_version=game.version, now=LATER)


async def test_a_whole_game_outside_servers_keeps_no_server_and_rates_the_friends_pool(
    store: Any,
) -> None:
    challenged = await store.challenges.create(outside_servers(), now=T0)
    assert challenged.guild_id is None
    match, game = await store.challenges.accept(
        challenged.id, first_white_id=ALICE, first_game=new_game(), now=T0
    )
    assert (match.guild_id, game.guild_id) == (None, None)
    final = await play_to_end(store, game, random.Random(7))
    played = await store.games.get(game.id)
    assert played.guild_id is None and played.version == final.before.version > 0
    await store.players.upsert(None, ALICE, "Ann")
    await store.players.upsert(None, ALICE, "Ann B.")  # the same row, renamed
    await store.players.upsert(None, BOB, "Bo")
    await store.players.upsert(GUILD, ALICE, "Ann of the server")
    await resign_rated(store, played, rating(ALICE, 0, 0.0, 30.0), rating(BOB, 0, 0.0, -10.0))

    ended = await store.games.get(game.id)
    assert (ended.status, ended.guild_id) == ("resigned", None)
    assert await store.players.get(None, ALICE) == st.PlayerRecord(None, ALICE, "Ann B.")
    assert (await store.players.get(GUILD, ALICE)).display_name == "Ann of the server"
    board = await store.ratings.leaderboard(None, "classic", offset=0, limit=10)
    assert [(r.rank, r.rating.user_id, r.rating.display_name) for r in board] == [
        (1, ALICE, "Ann B."),
        (2, BOB, "Bo"),
    ]
    assert all(r.rating.guild_id is None for r in board)
    assert await store.ratings.leaderboard_size(None, "classic") == 2
    assert await store.ratings.leaderboard(GUILD, "classic", offset=0, limit=10) == []
    assert await store.ratings.player_ratings(GUILD, ALICE) == []
    (mine,) = await store.ratings.player_ratings(None, ALICE)
    assert (mine.games, mine.wins, mine.skill.rating) == (1, 1, 30.0)
    [change] = await store.ratings.history(None, ALICE, "classic", limit=5)
    assert (change.guild_id, change.after.rating) == (None, 30.0)
    rank = await store.ratings.player_rank(None, "classic", BOB)
    assert rank is not None and rank.rank == 2


async def test_the_friends_pool_and_a_servers_ratings_stay_apart(store: Any) -> None:
    _, friendly = await start(store, outside_servers())
    _, served = await start(store, challenge(channel=11))
    await resign_rated(store, friendly, rating(ALICE, 0, 0.0, 30.0), rating(BOB, 0, 0.0, -10.0))
    # The server's first rated game: nothing of the friends pool is its "before".
    await resign_rated(store, served, rating(ALICE, 0, 0.0, 20.0), rating(BOB, 0, 0.0, -5.0))
    _, again = await start(store, outside_servers(channel=DM + 1))
    await resign_rated(store, again, rating(ALICE, 1, 30.0, 35.0), rating(BOB, 1, -10.0, -12.0))

    def pool(records: list[st.RankedRating]) -> list[tuple[int, int, float]]:
        return [(r.rating.user_id, r.rating.games, r.rating.skill.rating) for r in records]

    friends = await store.ratings.leaderboard(None, "classic", offset=0, limit=10)
    assert pool(friends) == [(ALICE, 2, 35.0), (BOB, 2, -12.0)]
    server = await store.ratings.leaderboard(GUILD, "classic", offset=0, limit=10)
    assert pool(server) == [(ALICE, 1, 20.0), (BOB, 1, -5.0)]

    # A recomputation names its pool: the friends pool alone, or every pool.
    assert [g.id for g in await store.ratings.rated_games(None)] == [friendly.id, again.id]
    assert len(await store.ratings.rated_games(EVERY_POOL)) == 3
    tables = await store.ratings.tables(None)
    assert {r.guild_id for r in tables.ratings} == {None} and len(tables.history) == 4
    every = await store.ratings.tables()
    assert [r.guild_id for r in every.ratings] == [None, None, GUILD, GUILD]
    await store.ratings.replace(tables, scope=None, expected_games=2)
    replaced = await store.ratings.tables()  # the same rows (the friends' history now last)
    assert replaced.ratings == every.ratings

    def by_game(history: list[st.RatingHistoryRecord]) -> list[st.RatingHistoryRecord]:
        return sorted(history, key=lambda h: (h.game_id, h.user_id))

    assert by_game(replaced.history) == by_game(every.history)
    with pytest.raises(ValueError):
        await store.ratings.replace(every, scope=None, expected_games=2)


TIMED = {"time_per_move_seconds": 3600}


async def test_the_deadline_job_passes_over_clocks_outside_servers(store: Any) -> None:
    await start(store, outside_servers(**TIMED))
    _, server_game = await start(store, challenge(channel=11, **TIMED))
    assert [c.game_id for c in await store.clocks.running()] == [server_game.id]
    assert [c.game_id for c in await store.clocks.running(shard_count=2, shard_ids=(0,))] == [
        server_game.id  # GUILD >> 22 is 0
    ]


async def test_the_computers_catch_up_passes_over_games_outside_servers(store: Any) -> None:
    await start(store, outside_servers())
    _, server_game = await start(store, challenge(channel=11))
    assert [g.id for g in await store.games.idle(before=LATER)] == [server_game.id]


async def test_the_expiry_sweep_passes_over_challenges_outside_servers(store: Any) -> None:
    dm = await store.challenges.create(outside_servers(expires_in=60), now=T0)
    in_server = await store.challenges.create(challenge(channel=12, expires_in=60), now=T0)
    expired = await store.challenges.expire_overdue(now=T0 + timedelta(minutes=2))
    assert [c.id for c in expired] == [in_server.id]
    assert (await store.challenges.get(dm.id)).status == "pending"  # until someone acts there


async def play_first_move(store: Any, game: GameRecord, *, to_user: bool) -> str:
    """ALICE's first move in ``game``, announced to BOB (by DM, or in the channel); the
    announcement's key."""
    mover = game.engine
    move = mover.play(mover.legal_moves()[0])
    key = f"turn_ping:{game.id}:1"
    ping = st.announcement(
        key, st.TurnPingPost(1, 1, move, ALICE, BOB), to_user=BOB if to_user else None
    )
    await store.games.record_move(
        game.id, expected_version=0, player_id=ALICE, move=move, game=mover, now=T0,
        announce=(ping,),
    )  # fmt: skip
    return key


async def test_a_direct_message_from_outside_servers_is_sent_by_shard_zero_only(
    store: Any,
) -> None:
    _, dm_game = await start(store, outside_servers())
    _, channel_game = await start(store, outside_servers(channel=DM + 1))
    _, server_game = await start(store, challenge(channel=11))
    direct = await play_first_move(store, dm_game, to_user=True)
    await play_first_move(store, channel_game, to_user=False)  # the bot cannot post there
    in_server = await play_first_move(store, server_game, to_user=False)

    lease = 60
    others = await store.outbox.claim(now=LATER, lease_seconds=lease, shard_zero=False)
    assert [entry.key for entry in others] == [in_server]  # any process posts in servers
    (claimed,) = await store.outbox.claim(now=LATER, lease_seconds=lease, shard_zero=True)
    assert (claimed.key, claimed.guild_id, claimed.address) == (direct, None, st.UserAddress(BOB))
    later = LATER + timedelta(seconds=2 * lease)  # every lease has run out: nothing else is due
    assert sorted(e.key for e in await store.outbox.claim(now=later, lease_seconds=lease)) == (
        sorted([direct, in_server])
    )


async def test_nothing_is_written_to_be_posted_in_a_channel_outside_servers(store: Any) -> None:
    _, game = await start(store, outside_servers())
    await play_first_move(store, game, to_user=False)  # the shared write
    moved = await store.games.get(game.id)
    engine = moved.engine
    reply = engine.play(engine.legal_moves()[0])
    notice = st.announcement(
        f"turn_ping:{game.id}:2", st.TurnPingPost(2, 2, reply, BOB, ALICE)
    )  # and on PostgreSQL, the one-statement move
    await store.games.record_move(
        game.id, expected_version=moved.version, player_id=BOB, move=reply, game=engine,
        now=T0, announce=(notice,),
    )  # fmt: skip
    assert await store.outbox.next_due() is None
