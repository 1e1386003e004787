"""The live board from Discord: ``/jarmo watch`` (a private link to the channel's game on the
web page) and the **Play live** button under a public board (the same page as Discord's
Activity, opened in the channel)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.guards import place_of
from bot.cogs.items import JarmoItem
from bot.cogs.live_offer import PLAY_LIVE_ID, play_live_button
from bot.cogs.tree import Unwelcome
from bot.cogs.words import discord_words, reader_language, relative_time
from bot.i18n import N_
from bot.web.tokens import sign_server_token, sign_watch_token

if TYPE_CHECKING:
    from bot.client import JarmoBot

LINK_LIFETIME = timedelta(hours=24)
SERVER_LINK_LIFETIME = timedelta(days=7)
NOT_SET_UP = N_(
    "The live board is not set up on this bot. Its operator can turn it on: `enabled = true` "
    "and a `public_url` in the `[web]` part of the bot's configuration."
)
NO_ACTIVITY = N_(
    "The live board cannot open inside Discord on this bot. Use /jarmo watch for a link to it "
    "instead."
)
WATCHING_OFF = N_(
    "This server has turned the live board off. Someone who can manage the server can turn it "
    "on again with /jarmo server watch on."
)


async def server_page_link(bot: JarmoBot, guild_id: int | None) -> str | None:
    """A link to the server's web page, if the bot serves pages and the server shows its own."""
    web = bot.config.web
    if guild_id is None or not web.enabled or not web.public_url:
        return None
    if not (await bot.service.servers.settings(guild_id)).web_pages:
        return None
    expires_at = bot.service.now() + SERVER_LINK_LIFETIME
    token = sign_server_token(await bot.service.web_secret(), guild_id, expires_at=expires_at)
    return f"{web.public_url}/server#{token}"


class WatchCommands(commands.Cog):
    """``/jarmo watch``. A part of ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    @app_commands.command(name="watch")
    async def watch(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """A link to this game's live board"""
        bot = interaction.client
        web = bot.config.web
        if not web.enabled or not web.public_url:
            raise Unwelcome(NOT_SET_UP)
        place = place_of(interaction)
        board = await bot.service.play.board(place)  # refused where there is no game
        if not (await bot.service.servers.settings(place.guild_id)).watching:
            raise Unwelcome(WATCHING_OFF)
        expires_at = bot.service.now() + LINK_LIFETIME
        token = sign_watch_token(
            await bot.service.web_secret(),
            board.game.id,
            expires_at=expires_at,
            user_id=interaction.user.id,
        )
        _ = discord_words(reader_language(interaction)).gettext
        text = _(
            "Your own link to this game's live board; it works until {expiry}. Keep it to "
            "yourself: it lets you move as you.\n{link}"
        ).format(expiry=relative_time(expires_at), link=f"{web.public_url}/watch#{token}")
        await interaction.response.send_message(text, ephemeral=True)


class PlayLiveButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=PLAY_LIVE_ID,
):
    """**Play live** under a public board: Discord opens the Activity in the channel, and the
    page there finds the channel's game itself."""

    what = "play live"

    def __init__(self, game_id: int) -> None:
        super().__init__(play_live_button(game_id))
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        bot = interaction.client
        web = bot.config.web
        if not web.activity_ready:
            raise Unwelcome(NO_ACTIVITY)
        if not (await bot.service.servers.settings(place_of(interaction).guild_id)).watching:
            raise Unwelcome(WATCHING_OFF)
        await interaction.response.launch_activity()
