"""A server's settings are read for every public post, so they are kept in memory: bounded,
changed at once by the process that changes them, and read again after a while in case another
process (another shard of a cluster) changed them."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import errors, servers
from bot.service.servers import FRESH_SECONDS, ServerSettingsCases


class CountedState:
    """The bot's state in a dict, counting reads; ``hold`` makes the next read of a language
    wait (having read its value) until it is set, like a slow database."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.reads = 0
        self.hold: asyncio.Event | None = None
        self.holding = asyncio.Event()

    async def get(self, key: str) -> str | None:
        self.reads += 1
        value = self.values.get(key)
        hold = self.hold if key.endswith(":language") else None
        if hold is not None:
            self.hold = None
            self.holding.set()
            await hold.wait()
        return value

    async def set(self, key: str, value: str) -> None:
        self.values[key] = value

    async def set_default(self, key: str, value: str) -> str:
        return self.values.setdefault(key, value)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def state() -> CountedState:
    return CountedState()


@pytest.fixture
def clock() -> Clock:
    return Clock()


def cases(state: CountedState, clock: Clock) -> ServerSettingsCases:
    return ServerSettingsCases(state, clock=clock)


async def test_settings_are_read_once_then_kept(state: CountedState, clock: Clock) -> None:
    settings = cases(state, clock)
    first = await settings.settings(1)
    reads = state.reads
    assert await settings.settings(1) == first
    assert state.reads == reads


async def test_a_change_here_is_seen_at_once(state: CountedState, clock: Clock) -> None:
    settings = cases(state, clock)
    assert (await settings.settings(1)).language is None
    await settings.set_language(1, "eo", can_manage=True)
    assert (await settings.settings(1)).language == "eo"
    await settings.set_threads(1, False, can_manage=True)
    assert (await settings.settings(1)).threads is False


async def test_a_change_elsewhere_is_seen_once_the_memory_is_stale(
    state: CountedState, clock: Clock
) -> None:
    here, elsewhere = cases(state, clock), cases(state, clock)
    assert (await here.settings(1)).language is None
    await elsewhere.set_language(1, "de", can_manage=True)
    clock.now += FRESH_SECONDS - 1
    assert (await here.settings(1)).language is None
    clock.now += 1
    assert (await here.settings(1)).language == "de"


async def test_only_the_latest_servers_are_kept(
    state: CountedState, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(servers, "CACHED_SERVERS", 2)
    settings = cases(state, clock)
    for guild in (1, 2, 3):
        await settings.settings(guild)
    reads = state.reads
    await settings.settings(3)
    assert state.reads == reads  # kept
    await settings.settings(1)
    assert state.reads > reads  # forgotten, read again


async def test_a_slow_read_does_not_hide_a_change_made_meanwhile(
    state: CountedState, clock: Clock
) -> None:
    settings = cases(state, clock)
    gate = state.hold = asyncio.Event()
    slow = asyncio.create_task(settings.settings(1))  # reads "no language", then waits
    await asyncio.wait_for(state.holding.wait(), 5)
    clock.now += 1
    await settings.set_language(1, "pl", can_manage=True)
    gate.set()
    assert (await asyncio.wait_for(slow, 5)).language is None  # what it read, before
    reads = state.reads
    assert (await settings.settings(1)).language == "pl"  # the change stays in memory
    assert state.reads == reads


async def test_the_live_board_shows_a_servers_games_until_a_manager_turns_it_off(
    state: CountedState, clock: Clock
) -> None:
    settings = cases(state, clock)
    assert (await settings.settings(1)).watching is True
    assert (await settings.set_watching(1, False, can_manage=True)).watching is False
    with pytest.raises(errors.NotAllowed):
        await settings.set_watching(1, True, can_manage=False)
    # Kept in the bot's state: another process reads the same.
    assert (await cases(state, clock).settings(1)).watching is False
    assert (await settings.settings(2)).watching is True
