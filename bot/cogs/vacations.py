"""``/jarmo vacation start|end|status``: a player's time away, answered privately (the
opponents are told in each game's channel through the outbox)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.words import discord_voice, reader_language
from bot.words import vacation_ended_text, vacation_started_text, vacation_status_text

if TYPE_CHECKING:
    from bot.client import JarmoBot


class VacationCommands(commands.Cog):
    """A player's vacation. ``/jarmo``'s commands for it: a part of ``JarmoCog``
    (``bot.cogs.group``), never added on its own."""

    vacation = app_commands.Group(name="vacation", description="Stop all your clocks for a while")

    @vacation.command(name="start")
    async def vacation_start(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Go on vacation: your clocks stand until you return"""
        status = await interaction.client.service.vacations.start(interaction.user.id)
        voice = discord_voice(reader_language(interaction))
        await interaction.response.send_message(
            vacation_started_text(status, voice), ephemeral=True
        )

    @vacation.command(name="end")
    async def vacation_end(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Come back: your clocks run again, deadlines moved"""
        status = await interaction.client.service.vacations.end(interaction.user.id)
        voice = discord_voice(reader_language(interaction))
        await interaction.response.send_message(vacation_ended_text(status, voice), ephemeral=True)

    @vacation.command(name="status")
    async def vacation_status(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Your vacation, and the days left this year"""
        status = await interaction.client.service.vacations.status(interaction.user.id)
        voice = discord_voice(reader_language(interaction))
        await interaction.response.send_message(vacation_status_text(status, voice), ephemeral=True)
