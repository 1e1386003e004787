"""The command tree: which interactions may run, and how every failure is answered."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs.guards import admit, in_served_guild
from bot.cogs.words import discord_voice, discord_words, reader_language
from bot.i18n import N_
from bot.service.errors import Full, as_refusal
from bot.words import refusal_text

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)

SORRY = N_(
    "Sorry, something went wrong on our side. Your game is safe and nothing was changed; "
    "please try again in a moment."
)
NOT_A_MEMBER = N_(
    "{name} is not a member of this server, so they can't be picked here. Pick a member of this "
    "server."
)


class Unwelcome(Exception):
    """A refusal only the Discord front end makes (a button meant for someone else, a message
    from another server): ``message`` is a catalogue message id, filled in with ``fields``."""

    def __init__(self, message: str, **fields: str) -> None:
        self.message = message
        self.fields = fields
        super().__init__(message)


def check_member(
    interaction: discord.Interaction[JarmoBot], user: discord.Member | discord.User | None
) -> None:
    """In a server the bot is in, a picked user must be a member (not someone who just left);
    outside servers anyone Discord lets the player pick will do."""
    if in_served_guild(interaction) and isinstance(user, discord.User):
        raise Unwelcome(NOT_A_MEMBER, name=user.mention)


class ComponentError(app_commands.AppCommandError):
    """A button's or menu's callback failed: handed to the tree's ``on_error`` like a command's
    failure, so that both are answered in one place. ``what`` names it in the log."""

    def __init__(self, original: Exception, what: str) -> None:
        self.original = original
        self.what = what
        super().__init__(f"{what} failed")


class JarmoTree(app_commands.CommandTree["JarmoBot"]):
    """The command tree: only servers the bot is in, and the central error handler."""

    async def interaction_check(self, interaction: discord.Interaction[JarmoBot], /) -> bool:
        """Commands and autocomplete run only in servers the bot is in."""
        return await admit(interaction)

    async def on_error(
        self, interaction: discord.Interaction[JarmoBot], error: app_commands.AppCommandError, /
    ) -> None:
        """The one answer to every failure of a command or a component: a refusal the player
        caused (or can wait out) privately, with its message and a debug log; anything else
        logged in full with who and where, and a private apology with no details."""
        cause, what = _unwrap(interaction, error)
        known = as_refusal(cause)
        language = reader_language(interaction)
        if isinstance(cause, Unwelcome):
            log.debug("refused %s for user %s: %s", what, interaction.user.id, cause.message)
            text = discord_words(language).gettext(cause.message).format(**cause.fields)
        elif known is not None:
            if isinstance(known, Full):  # the operator has to act: the one entry with the cause
                log.warning("%s could not be saved: %s", what, known.reason)
            else:
                log.debug("refused %s for user %s: %s", what, interaction.user.id, known.code.value)
            text = refusal_text(known, discord_voice(language))
        else:
            log.error(
                "%s failed (user %s, guild %s, channel %s)",
                what,
                interaction.user.id,
                interaction.guild_id,
                interaction.channel_id,
                exc_info=cause,
            )
            text = discord_words(language).gettext(SORRY)
        try:
            await reply_privately(interaction, text)
        except discord.HTTPException:
            log.warning("could not tell user %s about a failed %s", interaction.user.id, what)


def _unwrap(
    interaction: discord.Interaction[JarmoBot], error: app_commands.AppCommandError
) -> tuple[BaseException, str]:
    """The exception that really happened, and what failed (for the log)."""
    if isinstance(error, ComponentError):
        return error.original, error.what
    what = f"/{interaction.command.qualified_name}" if interaction.command else "command"
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original, what
    if isinstance(error, app_commands.TransformerError):
        if error.__cause__ is not None:
            return error.__cause__, what  # an option's text refused by its transformer
        if _not_a_member(error):
            return Unwelcome(NOT_A_MEMBER, name=error.value.mention), what
    return error, what


def _not_a_member(error: app_commands.TransformerError) -> bool:
    """Whether a member option was given a user who is not in the server (who just left, say):
    Discord then resolves them as a user only."""
    return error.type is discord.AppCommandOptionType.user and isinstance(error.value, discord.User)


async def reply_privately(interaction: discord.Interaction[JarmoBot], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
