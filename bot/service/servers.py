"""Per-server settings: whether matches get threads, the language of public posts, and whether
rated games allow takebacks. They are
kept as the bot's own state (``BotStateStore`` keys), one key per setting and server, and read
for every public post, so the latest servers' settings are kept in memory too."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot import store as st
from bot.service import errors
from bot.service.bounded import BoundedCache

LANGUAGES = ("en", "pl", "de", "eo")  # English, Polish, German, Esperanto
_ON, _OFF = "on", "off"
CACHED_SERVERS = 4096  # the servers whose settings stay in memory (the most recently used)
# Another process (a cluster's other shards) may change a setting: read it again after this.
FRESH_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's choices; ``None`` where it has not chosen (the bot's configuration holds)."""

    guild_id: int | None  # None: outside servers, where no server has chosen anything
    threads: bool | None = None
    language: str | None = None
    takebacks: bool = True  # whether rated games allow takebacks (casual games always do)
    watching: bool = True  # whether the live board shows this server's games
    web_pages: bool = False  # whether the server's web page (ratings, games, tables) is served

    def threads_or(self, default: bool) -> bool:
        """Whether matches on this server move into threads, given the bot's default."""
        return default if self.threads is None else self.threads


def _key(guild_id: int, name: str) -> str:
    return f"server:{guild_id}:{name}"


class ServerSettingsCases:
    """Reading and changing a server's settings. Only members who can manage the server may
    change them; the front end says whether the actor can."""

    def __init__(
        self, state: st.BotStateStore, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._state = state
        self._clock = clock
        self._cache: BoundedCache[int, tuple[float, ServerSettings]] = BoundedCache(CACHED_SERVERS)

    async def settings(self, guild_id: int | None) -> ServerSettings:
        """The server's settings as stored (as read at most ``FRESH_SECONDS`` ago; a change
        made here is seen at once); outside servers (``None``), none chosen."""
        if guild_id is None:
            return ServerSettings(None)
        cached = self._cache.get(guild_id)
        if cached is not None and self._clock() - cached[0] < FRESH_SECONDS:
            return cached[1]
        return await self._read(guild_id)

    async def _read(self, guild_id: int) -> ServerSettings:
        read_at = self._clock()
        threads = await self._state.get(_key(guild_id, "threads"))
        language = await self._state.get(_key(guild_id, "language"))
        takebacks = await self._state.get(_key(guild_id, "takebacks"))
        watching = await self._state.get(_key(guild_id, "watching"))
        web_pages = await self._state.get(_key(guild_id, "web-pages"))
        settings = ServerSettings(
            guild_id,
            None if threads is None else threads == _ON,
            language,
            takebacks != _OFF,
            watching=watching != _OFF,
            web_pages=web_pages == _ON,
        )
        cached = self._cache.get(guild_id)
        if cached is None or cached[0] <= read_at:  # a read that began later knows better
            self._cache.put(guild_id, (read_at, settings))
        return settings

    async def set_threads(self, guild_id: int, on: bool, *, can_manage: bool) -> ServerSettings:
        """Turn threads for matches on or off. Raises ``NotAllowed`` for a non-manager."""
        _check_manager(can_manage)
        await self._state.set(_key(guild_id, "threads"), _ON if on else _OFF)
        return await self._read(guild_id)

    async def set_takebacks(self, guild_id: int, on: bool, *, can_manage: bool) -> ServerSettings:
        """Allow or refuse takebacks in rated games. Raises ``NotAllowed`` for a non-manager."""
        _check_manager(can_manage)
        await self._state.set(_key(guild_id, "takebacks"), _ON if on else _OFF)
        return await self._read(guild_id)

    async def set_watching(self, guild_id: int, on: bool, *, can_manage: bool) -> ServerSettings:
        """Let the live board show this server's games, or not. Raises ``NotAllowed`` for a
        non-manager."""
        _check_manager(can_manage)
        await self._state.set(_key(guild_id, "watching"), _ON if on else _OFF)
        return await self._read(guild_id)

    async def set_web_pages(self, guild_id: int, on: bool, *, can_manage: bool) -> ServerSettings:
        """Serve the server's web page, or stop serving it. Raises ``NotAllowed`` for a
        non-manager."""
        _check_manager(can_manage)
        await self._state.set(_key(guild_id, "web-pages"), _ON if on else _OFF)
        return await self._read(guild_id)

    async def set_language(
        self, guild_id: int, language: str, *, can_manage: bool
    ) -> ServerSettings:
        """Choose the language of public posts (one of ``LANGUAGES``). Raises ``NotAllowed``
        for a non-manager and ``BadSetting`` for an unknown language."""
        _check_manager(can_manage)
        if language not in LANGUAGES:
            raise errors.BadSetting(
                errors.Code.UNKNOWN_LANGUAGE, name=language, known=", ".join(LANGUAGES)
            )
        await self._state.set(_key(guild_id, "language"), language)
        return await self._read(guild_id)

    async def first_thread_notice(self, guild_id: int) -> bool:
        """Whether the server has yet to be told which permissions threads need (``True`` at
        most once per server: the notice is then counted as given)."""
        key = _key(guild_id, "thread-permission-notice")
        if await self._state.get(key) is not None:
            return False
        await self._state.set(key, "given")
        return True


def _check_manager(can_manage: bool) -> None:
    if not can_manage:
        raise errors.NotAllowed(errors.Code.SETTINGS_NEED_MANAGER)
