"""Publishing the slash commands when the bot starts, only when they changed.

Discord limits how often commands may be re-published, and a global publish takes a while to
reach every client, so ``jarmo-bot run`` publishes only when needed: when the payload differs
from the one it last published (its hash is kept in the database), or when Discord no longer
lists the commands (someone removed them, or another build of the bot replaced them).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, Protocol

import discord
from discord import app_commands

log = logging.getLogger(__name__)


class StateStore(Protocol):
    """Where the hash of the last published payload is kept."""

    async def get(self, key: str) -> str | None: ...
    async def set(self, key: str, value: str) -> None: ...


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A stable hash of the commands' payload (key order does not matter)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


async def publish_if_changed(
    tree: app_commands.CommandTree[Any],
    store: StateStore,
    *,
    application_id: int,
    guild: discord.abc.Snowflake | None,
) -> bool:
    """Publish the tree's commands (to ``guild``, or globally) unless Discord already has
    exactly what was last published from the same payload; returns whether it published."""
    commands = tree.get_commands(guild=guild)
    # With a translator the payload holds the localizations, so a new translation is published.
    translator = tree.translator
    if translator is None:
        payload = [command.to_dict(tree) for command in commands]
    else:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    scope = f"guild {guild.id}" if guild is not None else "global"
    key = f"published_commands:{application_id}:{scope}"
    wanted = payload_hash(payload)
    if await store.get(key) == wanted:
        listed = await tree.fetch_commands(guild=guild)
        if sorted(c.name for c in listed) == sorted(c.name for c in commands):
            log.info("slash commands (%s) are up to date", scope)
            return False
        log.info("Discord does not list the published commands (%s): publishing again", scope)
    await tree.sync(guild=guild)
    await store.set(key, wanted)
    log.info("published %d slash command(s) (%s)", len(payload), scope)
    return True
