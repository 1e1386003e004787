"""Checks every interaction passes before any command or button runs."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger(__name__)

OUTSIDE_SERVERS = (
    "Jarmo is played in servers. Use /jarmo in a server channel where this bot is a member "
    "(a server admin can invite it)."
)


def in_served_guild(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a server the bot is in (not a DM, not a server
    where only a user installed the app): games, players and ratings all belong to one."""
    guild_id = interaction.guild_id
    return guild_id is not None and interaction.client.get_guild(guild_id) is not None


async def allow_only_servers(interaction: discord.Interaction) -> bool:
    """``True`` to go on; otherwise the interaction is answered privately and nothing runs."""
    if in_served_guild(interaction):
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
            await interaction.response.send_message(OUTSIDE_SERVERS, ephemeral=True)
    except discord.HTTPException:
        log.debug("could not answer an interaction from outside a served server")
    return False


class ServerOnly:
    """Mixed into the persistent buttons (``DynamicItem``s), which the command tree's check
    does not cover: a button copied into a DM, say, is refused like a command."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Only interactions from a server the bot is in run the callback."""
        return await allow_only_servers(interaction)
