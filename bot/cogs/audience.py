"""The language of a post: a private answer speaks its reader's Discord locale; a post that
everyone in a server reads speaks the language the server chose with ``/jarmo server
language``, else the server's own locale (see ``bot.cogs.words.public_language``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.cogs.guards import place_of
from bot.cogs.words import public_language

if TYPE_CHECKING:
    from bot.client import JarmoBot


async def channel_language(interaction: discord.Interaction[JarmoBot]) -> str:
    """The language of a public post in the channel (or thread) of ``interaction``. Outside
    the bot's servers no server's settings are read: a chat there speaks the language of
    whoever acts."""
    place = place_of(interaction)
    if place.guild_id is None:
        return public_language(None, interaction.locale)
    settings = await interaction.client.service.servers.settings(place.guild_id)
    return public_language(settings.language, interaction.guild_locale)


async def server_language(bot: JarmoBot, guild_id: int | None) -> str:
    """The language of a public post on the server ``guild_id`` outside any interaction (the
    background announcements, a deleted thread's notice, a thread's new name); outside
    servers (a direct message about a game there), the default."""
    if guild_id is None:
        return public_language(None, None)
    settings = await bot.service.servers.settings(guild_id)
    guild = None if guild_id is None else bot.get_guild(guild_id)
    return public_language(settings.language, guild.preferred_locale if guild else None)
