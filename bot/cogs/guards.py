"""What every interaction passes before any command or component runs."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.cogs.words import discord_words, reader_language
from bot.i18n import N_

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)

OUTSIDE_SERVERS = N_(
    "Jarmo is played in servers. Use /jarmo in a server channel where this bot is a member "
    "(a server admin can invite it)."
)


def in_served_guild(interaction: discord.Interaction[JarmoBot]) -> bool:
    """Whether the interaction comes from a server the bot is in (not a DM, not a server
    where only a user installed the app): games, players and ratings all belong to one."""
    guild_id = interaction.guild_id
    return guild_id is not None and interaction.client.get_guild(guild_id) is not None


async def admit(interaction: discord.Interaction[JarmoBot]) -> bool:
    """``True`` to go on (the bot then counts the interaction as in flight, so that a shutdown
    lets it finish); otherwise the interaction is answered privately and nothing runs."""
    if in_served_guild(interaction):
        interaction.client.in_flight.add_current()
        return True
    log.debug(
        "refused an interaction from user %s outside a served server (guild %s)",
        interaction.user.id,
        interaction.guild_id,
    )
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            text = discord_words(reader_language(interaction)).gettext(OUTSIDE_SERVERS)
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.debug("could not answer an interaction from outside a served server")
    return False
