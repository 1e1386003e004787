"""Memory stays bounded: per-channel and per-server locks live only while used, and the caches
of names and of checked game snapshots forget the least recently used entries."""

from __future__ import annotations

import asyncio

import pytest

import bot.store._games
import bot.store._replay
from bot.jarmo import Game
from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.service.bounded import BoundedCache, KeyedLocks
from bot.service.kit import PlayerNames
from bot.store import PlayerRecord, PlayerStore, SqliteStore
from bot.store._replay import StoredGame
from tests.service.service_helpers import ANN, BOB, HERE

LIMIT = 5.0


async def test_a_lock_is_shared_while_in_use_and_dropped_after() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    async with locks(7):
        assert locks(7).locked() and not locks(8).locked()
        assert len(locks) == 1  # 8 was asked for but never held: already gone
    assert len(locks) == 0


async def test_a_waiter_keeps_the_lock_alive_and_gets_it_next() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []
    asking = asyncio.Event()

    async def second() -> None:
        asking.set()  # it queues on the lock before it yields again
        async with locks(7):
            order.append("second")

    async with locks(7):
        waiting = asyncio.create_task(second())
        await asyncio.wait_for(asking.wait(), LIMIT)
        order.append("first")
    assert len(locks) == 1  # released, yet alive: the waiter holds it
    await asyncio.wait_for(waiting, LIMIT)
    assert order == ["first", "second"] and len(locks) == 0


async def test_moves_in_many_channels_leave_no_channel_lock_behind(service: JarmoService) -> None:
    places = [Place(HERE.guild_id, 500 + number) for number in range(20)]
    for place in places:
        view = await service.challenges.post(place, ANN, ChallengeRequest(BOB, side="white"))
        await service.challenges.accept(BOB, view.challenge.id)
    await asyncio.gather(*(service.play.move(place, ANN, read_action("A1-C2")) for place in places))
    assert len(service.kit.locks) == 0


def test_the_cache_forgets_the_least_recently_used_key() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # now "b" is the oldest
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)
    with pytest.raises(ValueError):
        BoundedCache(0)


class CountingPlayers:
    """The store's player role, counting reads."""

    def __init__(self, players: PlayerStore) -> None:
        self.players = players
        self.reads = 0

    async def upsert(self, guild_id: int | None, user_id: int, display_name: str) -> None:
        await self.players.upsert(guild_id, user_id, display_name)

    async def get(self, guild_id: int | None, user_id: int) -> PlayerRecord:
        self.reads += 1
        return await self.players.get(guild_id, user_id)


async def test_names_past_the_cache_size_are_read_again_from_the_store(store: SqliteStore) -> None:
    players = CountingPlayers(store.players)
    names = PlayerNames(players, cached=2)
    people = [Actor(1000 + n, f"Player number {n}") for n in range(3)]
    for person in people:
        await names.remember(HERE, person)
    assert await names(HERE.guild_id, people[2].user_id) == "Player number 2"
    assert players.reads == 0
    assert await names(HERE.guild_id, people[0].user_id) == "Player number 0"  # forgotten
    assert players.reads == 1


async def test_checked_snapshots_past_the_bound_are_replayed_once_more(
    service: JarmoService, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays: list[int] = []
    real_verify = bot.store._replay.verify  # what the games store calls

    def counting_verify(stored: StoredGame) -> Game:
        replays.append(stored.version)
        return real_verify(stored)

    monkeypatch.setattr(bot.store._games, "verify", counting_verify)
    monkeypatch.setattr(bot.store._games, "TRUSTED_GAMES", 2)
    places = [Place(HERE.guild_id, 600 + number) for number in range(3)]
    for place in places:  # accepting trusts each new game's snapshot: the first is forgotten
        view = await service.challenges.post(place, ANN, ChallengeRequest(BOB, side="white"))
        await service.challenges.accept(BOB, view.challenge.id)
    for place in reversed(places[1:]):
        await store.games.active(place.channel_id)
    assert replays == []
    record = await store.games.active(places[0].channel_id)
    assert record is not None
    assert replays == [0] and record.version == 0
