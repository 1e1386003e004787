"""Per-server settings: whether matches get threads, and the language of public posts. They are
kept as the bot's own state (``BotStateStore`` keys), one key per setting and server."""

from __future__ import annotations

from dataclasses import dataclass

from bot import store as st
from bot.service import errors

LANGUAGES = ("en", "pl", "de", "eo")  # English, Polish, German, Esperanto
_ON, _OFF = "on", "off"


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's choices; ``None`` where it has not chosen (the bot's configuration holds)."""

    guild_id: int
    threads: bool | None = None
    language: str | None = None

    def threads_or(self, default: bool) -> bool:
        """Whether matches on this server move into threads, given the bot's default."""
        return default if self.threads is None else self.threads


def _key(guild_id: int, name: str) -> str:
    return f"server:{guild_id}:{name}"


class ServerSettingsCases:
    """Reading and changing a server's settings. Only members who can manage the server may
    change them; the front end says whether the actor can."""

    def __init__(self, state: st.BotStateStore) -> None:
        self._state = state

    async def settings(self, guild_id: int) -> ServerSettings:
        """The server's settings as stored."""
        threads = await self._state.get(_key(guild_id, "threads"))
        language = await self._state.get(_key(guild_id, "language"))
        return ServerSettings(guild_id, None if threads is None else threads == _ON, language)

    async def set_threads(self, guild_id: int, on: bool, *, can_manage: bool) -> ServerSettings:
        """Turn threads for matches on or off. Raises ``NotAllowed`` for a non-manager."""
        _check_manager(can_manage)
        await self._state.set(_key(guild_id, "threads"), _ON if on else _OFF)
        return await self.settings(guild_id)

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
        return await self.settings(guild_id)

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
