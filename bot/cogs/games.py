"""A player's unfinished games in every server the bot shares with them: ``/jarmo games``,
privately, and its page buttons (a ``DynamicItem``, so they keep working after a restart)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.items import CustomIdSpec, JarmoItem
from bot.cogs.replies import EMBED_COLOUR, only_pinging
from bot.cogs.tree import Unwelcome
from bot.cogs.words import discord_voice, discord_words, reader_language
from bot.i18n import N_
from bot.service.player_games import PlayerGameLine, PlayerGamesPage
from bot.service.vacations import VacationStatus
from bot.words import vacation_line
from bot.words.player_games import no_games_text, player_games_text, player_games_title

if TYPE_CHECKING:
    from bot.client import JarmoBot


class GamesPageButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=CustomIdSpec("games", page=int, viewer=int),
):
    """Previous / next page of a player's games: the page to show is in the id, and only the
    player whose games they are may turn it."""

    what = "games page"

    def __init__(
        self, page: int, viewer_id: int, *, label: str = "Page", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=self.custom_id_spec.format(page, viewer_id),
            )
        )
        self.page, self.viewer_id = page, viewer_id

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        if interaction.user.id != self.viewer_id:
            raise Unwelcome(N_("These are someone else's games: use /jarmo games to see yours."))
        page, vacation = await games_page(interaction, self.page)
        await interaction.response.edit_message(**games_message(interaction, page, vacation))


async def games_page(
    interaction: discord.Interaction[JarmoBot], page: int
) -> tuple[PlayerGamesPage, VacationStatus]:
    """Page ``page`` of the user's unfinished games in the servers the bot shares with them,
    and their vacation."""
    servers = {guild.id for guild in interaction.client.guilds}
    service = interaction.client.service
    games = await service.player_games.page(interaction.user.id, page=page, servers=servers)
    return games, await service.vacations.status(interaction.user.id)


def games_message(
    interaction: discord.Interaction[JarmoBot], page: PlayerGamesPage, vacation: VacationStatus
) -> dict[str, Any]:
    """Keyword arguments for the private message showing ``page``, in the reader's language,
    with page buttons when there is more than one page, and the vacation the player has."""
    language = reader_language(interaction)
    voice = discord_voice(language)
    if page.empty:
        text = f"{no_games_text(voice)}\n{vacation_line(vacation, voice)}"
        return {"content": text, "embed": None, "view": None}
    _ = discord_words(language).gettext

    def server_name(guild_id: int | None) -> str:
        guild = None if guild_id is None else interaction.client.get_guild(guild_id)
        return guild.name if guild else _("server {id}").format(id=guild_id)

    def link(line: PlayerGameLine) -> str:
        # The game's channel (or its match's thread): it ends with the latest board.
        url = f"https://discord.com/channels/{line.guild_id}/{line.channel_id}"
        return _("[go to the game]({url})").format(url=url)

    embed = discord.Embed(
        title=player_games_title(page, voice),
        description=(
            f"{player_games_text(page, voice, server_name=server_name, link=link)}\n\n"
            + vacation_line(vacation, voice)
        ),
        colour=EMBED_COLOUR,
    )
    message: dict[str, Any] = {
        "content": None, "embed": embed, "allowed_mentions": only_pinging(), "view": None,
    }  # fmt: skip
    if page.pages > 1:
        view = discord.ui.View(timeout=None)
        # The two targets always differ, so the two custom ids do too.
        back, forward = max(page.page - 1, 0), min(page.page + 1, page.pages - 1)
        if back == forward:
            back, forward = 0, 1
        for target, label, disabled in (
            (back, _("◀ Previous"), page.page == 0),
            (forward, _("Next ▶"), page.page == page.pages - 1),
        ):
            view.add_item(GamesPageButton(target, page.user_id, label=label, disabled=disabled))
        message["view"] = view
    return message


class GamesCommands(commands.Cog):
    """A player's games in every server. ``/jarmo``'s command for it: a part of ``JarmoCog``
    (``bot.cogs.group``), never added on its own."""

    @app_commands.command()
    async def games(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Your unfinished games, in every server."""
        page, vacation = await games_page(interaction, 0)
        message = games_message(interaction, page, vacation)
        await interaction.response.send_message(
            **{key: value for key, value in message.items() if value is not None}, ephemeral=True
        )
