"""What every interaction passes before any command or component runs, and where it happens.

The bot serves a server it is in as it always did. Anywhere else (a DM, a group DM, a server
where only a player installed the app) it is there through the player's user install: it answers
interactions and never posts by itself, and nothing there is attributed to a server (the place
has no server id, so no server's settings are read or written)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.cogs.words import discord_words, reader_language
from bot.i18n import N_
from bot.service import Place

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)

# The commands that need the bot in the server: they post by themselves, or belong to a
# server (its settings, its tournaments, its leaderboard, its moderators).
NEEDS_SERVER = ("jarmo tournament", "jarmo server", "jarmo leaderboard", "jarmo abort")
NEEDS_THE_BOT = N_(
    "This needs Jarmo added to this server: tournaments, the leaderboard, server settings, "
    "aborting games and game threads all do. A server admin can add it from Jarmo's profile "
    "(Add App → Add to Server). Games, moves, takebacks, rematches, history, reviews, "
    "/jarmo games and /jarmo stats work here as they are."
)
ONLY_PRIVATELY = N_(
    "Jarmo can only answer you privately here: this server does not let apps that members "
    "added themselves post, or you may not send messages in this channel. Play in a DM or "
    "group DM instead, or ask a server admin to add Jarmo to the server "
    "(Jarmo's profile → Add App → Add to Server)."
)


def in_served_guild(interaction: discord.Interaction[JarmoBot]) -> bool:
    """Whether the interaction comes from a server the bot is in (not a DM, a group DM, or a
    server where only a user installed the app): games, players and ratings there belong to
    that server."""
    guild_id = interaction.guild_id
    return guild_id is not None and interaction.client.get_guild(guild_id) is not None


def place_of(interaction: discord.Interaction[JarmoBot]) -> Place:
    """The place of the interaction: its server if the bot is in it, else outside servers."""
    guild_id = interaction.guild_id if in_served_guild(interaction) else None
    return Place(guild_id, interaction.channel_id or 0)


def _refusal(interaction: discord.Interaction[JarmoBot]) -> str | None:
    """Why the interaction cannot be served where it comes from (a catalogue message id)."""
    if in_served_guild(interaction):
        return None
    command = interaction.command
    if command is not None and command.qualified_name.startswith(NEEDS_SERVER):
        return NEEDS_THE_BOT
    if interaction.guild_id is not None:
        # Discord forces every answer private where the server turned external apps off; a
        # member who may not post here gets private answers too. A game cannot be played in
        # private, so say so rather than play.
        allowed = interaction.permissions
        if not (allowed.use_external_apps and allowed.send_messages):
            return ONLY_PRIVATELY
    return None


async def admit(interaction: discord.Interaction[JarmoBot]) -> bool:
    """``True`` to go on (the bot then counts the interaction as in flight, so that a shutdown
    lets it finish); otherwise the interaction is answered privately and nothing runs."""
    refusal = _refusal(interaction)
    if refusal is None:
        interaction.client.in_flight.add_current()
        return True
    log.debug(
        "refused an interaction from user %s outside a served server (guild %s): %s",
        interaction.user.id,
        interaction.guild_id,
        refusal,
    )
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            text = discord_words(reader_language(interaction)).gettext(refusal)
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.debug("could not answer an interaction from outside a served server")
    return False
