"""``/jarmo server``: a server's own settings, for members who can manage the server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tree import Unwelcome
from bot.cogs.watching import NOT_SET_UP, server_page_link
from bot.cogs.words import SERVER_LANGUAGES, discord_words, reader_language
from bot.service.servers import ServerSettings

if TYPE_CHECKING:
    from bot.client import JarmoBot


class ServerCommands(commands.Cog):
    """The server's settings. ``/jarmo``'s commands for it: a part of
    ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    server = app_commands.Group(
        name="server", description="This server's Jarmo settings (moderators)"
    )

    @server.command(name="threads")
    @app_commands.describe(on="True: a thread per match; False: play in the channel")
    async def threads(self, interaction: discord.Interaction[JarmoBot], on: bool) -> None:
        """Whether matches move into their own thread"""
        settings = await interaction.client.service.servers.set_threads(
            interaction.guild_id or 0, on, can_manage=_can_manage(interaction)
        )
        await _confirm(interaction, settings)

    @server.command(name="takebacks")
    @app_commands.describe(on="True: players may take back moves in rated games; False: not")
    async def takebacks(self, interaction: discord.Interaction[JarmoBot], on: bool) -> None:
        """Whether rated games allow takebacks (casual games always do)."""
        settings = await interaction.client.service.servers.set_takebacks(
            interaction.guild_id or 0, on, can_manage=_can_manage(interaction)
        )
        await _confirm(interaction, settings)

    @server.command(name="language")
    @app_commands.describe(language="The language of posts everyone reads")
    @app_commands.choices(
        language=[app_commands.Choice(name=n, value=v) for v, n in SERVER_LANGUAGES.items()]
    )
    async def language(self, interaction: discord.Interaction[JarmoBot], language: str) -> None:
        """The language of the bot's public posts here"""
        settings = await interaction.client.service.servers.set_language(
            interaction.guild_id or 0, language, can_manage=_can_manage(interaction)
        )
        await _confirm(interaction, settings)

    @server.command(name="watch")
    @app_commands.describe(on="True: allowed; False: not")
    async def watching(self, interaction: discord.Interaction[JarmoBot], on: bool) -> None:
        """Watching games here on the live board"""
        settings = await interaction.client.service.servers.set_watching(
            interaction.guild_id or 0, on, can_manage=_can_manage(interaction)
        )
        await _confirm(interaction, settings)

    @server.command(name="web")
    @app_commands.describe(on="True: a web page with this server's ratings, games and tables")
    async def web_pages(self, interaction: discord.Interaction[JarmoBot], on: bool) -> None:
        """This server's web page: ratings, recent games and tournament tables"""
        web = interaction.client.config.web
        if on and not (web.enabled and web.public_url):
            raise Unwelcome(NOT_SET_UP)
        settings = await interaction.client.service.servers.set_web_pages(
            interaction.guild_id or 0, on, can_manage=_can_manage(interaction)
        )
        await _confirm(interaction, settings)


def _can_manage(interaction: discord.Interaction[JarmoBot]) -> bool:
    return interaction.permissions.manage_guild


async def _confirm(interaction: discord.Interaction[JarmoBot], settings: ServerSettings) -> None:
    """Privately, the server's settings as they now are."""
    _ = discord_words(reader_language(interaction)).gettext
    threads = settings.threads_or(interaction.client.config.threads)
    language = SERVER_LANGUAGES.get(settings.language or "en", settings.language or "en")
    lines = [
        _("Saved. This server's Jarmo settings:"),
        _("Threads: each match in its own thread.") if threads else _("Threads: off."),
        _("Language of public posts: {language}.").format(language=language),
        _("Takebacks in rated games: allowed.")
        if settings.takebacks
        else _("Takebacks in rated games: off."),
        _("Live board: games here can be watched.") if settings.watching else _("Live board: off."),
    ]
    link = await server_page_link(interaction.client, settings.guild_id)
    if link is not None:
        lines.append(
            _(
                "Web page: on. A link for this week, to share with the server (anyone here gets "
                "a fresh one with /jarmo leaderboard):\n{link}"
            ).format(link=link)
        )
    elif settings.web_pages:
        lines.append(_("Web page: on, once the bot's live board is set up."))
    else:
        lines.append(_("Web page: off."))
    await interaction.response.send_message("\n".join(lines), ephemeral=True)
