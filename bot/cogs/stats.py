"""Standings over time in Discord: ``/jarmo leaderboard``, ``/jarmo stats`` and
``/jarmo history``, the leaderboard's page buttons and the history's picker (games, and
finished tournaments' final tables). Both components are ``DynamicItem``s, so they
keep working after a restart."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language
from bot.cogs.challenges import Ruleset
from bot.cogs.guards import place_of
from bot.cogs.items import CustomIdSpec, JarmoItem, single
from bot.cogs.replies import EMBED_COLOUR, only_pinging
from bot.cogs.review import send_review
from bot.cogs.tournaments import table_messages
from bot.cogs.tree import Unwelcome, check_member
from bot.cogs.watching import server_page_link
from bot.cogs.words import (
    discord_voice,
    discord_words,
    picture_words,
    reader_language,
)
from bot.i18n import N_
from bot.service.stats_models import GameExport, HistoryPage, LeaderboardPage, Viewer
from bot.words import (
    history_option,
    history_text,
    history_title,
    leaderboard_text,
    leaderboard_title,
    move_list_text,
    placing_option,
    profile_text,
    side_label,
    vacation_line,
)
from bot.words.descriptions import chart_description, replay_description

if TYPE_CHECKING:
    from bot.client import JarmoBot


# -- leaderboard ---------------------------------------------------------------------------------


class LeaderboardButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=CustomIdSpec("lb", guild=int, ruleset="[a-z]+", page=int, viewer=int),
):
    """Previous / next page. The page shown is in the id; the person who asked for the board
    turns its pages in place, anyone else gets their own private copy (with their own row)."""

    what = "leaderboard page"

    def __init__(
        self, guild_id: int, ruleset: str, page: int, viewer_id: int, *, label: str = "Page",
        disabled: bool = False,
    ) -> None:  # fmt: skip
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=self.custom_id_spec.format(guild_id, ruleset, page, viewer_id),
            )
        )
        self.guild_id, self.ruleset, self.page, self.viewer_id = guild_id, ruleset, page, viewer_id

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        if interaction.guild_id != self.guild_id:
            raise Unwelcome(N_("This leaderboard belongs to another server."))
        page = await interaction.client.service.stats.leaderboard(
            self.guild_id, self.ruleset, page=self.page, viewer_id=interaction.user.id
        )
        mine = interaction.user.id == self.viewer_id
        language = await channel_language(interaction) if mine else reader_language(interaction)
        link = await server_page_link(interaction.client, self.guild_id)
        message = leaderboard_message(page, language, web_link=link)
        if mine:
            await interaction.response.edit_message(**message)
        else:
            await interaction.response.send_message(**message, ephemeral=True)


def leaderboard_message(
    page: LeaderboardPage, language: str | None = None, *, web_link: str | None = None
) -> dict[str, Any]:
    """Keyword arguments for a message showing ``page``, with page buttons if there are more,
    and a button to the server's web page where there is a ``web_link``."""
    voice = discord_voice(language)
    _ = discord_words(language).gettext
    embed = discord.Embed(
        title=leaderboard_title(page, voice),
        description=leaderboard_text(page, voice),
        colour=EMBED_COLOUR,
    )
    message: dict[str, Any] = {"embed": embed, "allowed_mentions": only_pinging()}
    view = discord.ui.View(timeout=None)
    if web_link is not None:
        view.add_item(discord.ui.Button(label=_("Web page"), url=web_link))
    if page.pages > 1:
        # The two targets always differ (first page: 0 and 1; last: n-2 and n-1), so the two
        # custom ids do too.
        back, forward = max(page.page - 1, 0), min(page.page + 1, page.pages - 1)
        if back == forward:
            back, forward = 0, 1
        for target, label, disabled in (
            (back, _("◀ Previous"), page.page == 0),
            (forward, _("Next ▶"), page.page == page.pages - 1),
        ):
            view.add_item(
                LeaderboardButton(
                    page.guild_id, page.ruleset, target, page.viewer_id, label=label,
                    disabled=disabled,
                )
            )  # fmt: skip
    if view.children:
        message["view"] = view
    return message


# -- history -------------------------------------------------------------------------------------


# A picked option's value: a game's id, or this prefix and a tournament's id (game values
# stay plain ids, so pickers posted before tournaments keep working).
TOURNAMENT_VALUE = "t"
# A picked review option's value: this prefix and the game's id.
REVIEW_VALUE = "r"
MAX_OPTIONS = 25  # Discord's limit for a select menu


class HistoryPicker(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    custom_id=CustomIdSpec("hist", guild=int, user=int, opponent=int),
):
    """The picker under a history: the chosen game's move list and replay, or its review, or
    the chosen tournament's final table (image and text), privately."""

    what = "history game"

    def __init__(self, page: HistoryPage | None, *, guild_id: int | None, user_id: int,
                 opponent_id: int | None, language: str | None = None) -> None:  # fmt: skip
        voice = discord_voice(language)
        _ = discord_words(language).gettext
        games, reviews, tournaments = [], [], []
        for number, line in enumerate(page.lines if page else [], 1):
            label, description = history_option(number, line, voice)
            games.append(
                discord.SelectOption(label=label, value=str(line.game.id), description=description)
            )
            reviews.append(
                discord.SelectOption(
                    label=_("Review: {game}").format(game=label)[:100],
                    value=f"{REVIEW_VALUE}{line.game.id}",
                    description=description,
                )
            )
        for number, placing in enumerate(page.tournaments if page else (), 1):
            label, description = placing_option(number, placing, voice)
            value = f"{TOURNAMENT_VALUE}{placing.tournament.id}"
            tournaments.append(
                discord.SelectOption(label=label, value=value, description=description)
            )
        # A picker holds at most 25 options: the reviews give way to the tournaments.
        room = MAX_OPTIONS - len(games) - len(tournaments)
        options = [*games, *reviews[: max(room, 0)], *tournaments]
        placeholder = (
            _("Pick a game for its replay or review, or a tournament for its final table")
            if page and page.tournaments
            else _("Pick a game for its move list and replay, or for its review")
        )
        super().__init__(
            discord.ui.Select(
                # 0: outside servers (a history of the friends pool)
                custom_id=self.custom_id_spec.format(guild_id or 0, user_id, opponent_id or 0),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )
        self.guild_id, self.user_id, self.opponent_id = guild_id, user_id, opponent_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryPicker:
        guild, user, opponent = cls.custom_id_spec.values(match)
        return cls(None, guild_id=guild or None, user_id=user, opponent_id=opponent or None)

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        if place_of(interaction).guild_id != self.guild_id:
            raise Unwelcome(N_("This history belongs to another server."))
        picked = self.item.values[0]
        if picked.startswith(REVIEW_VALUE):
            await send_review(interaction, int(picked.removeprefix(REVIEW_VALUE)), private=True)
            return
        if picked.startswith(TOURNAMENT_VALUE):
            await self._send_final_table(interaction, int(picked.removeprefix(TOURNAMENT_VALUE)))
            return
        game_id = int(picked)
        # Replaying a long game into a GIF can take longer than Discord's 3 s to answer.
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = reader_language(interaction)
        export = await interaction.client.service.stats.export_game(
            self.guild_id, game_id, words=picture_words(language), viewer=viewer_of(interaction)
        )
        moves = move_list_text(
            export.game,
            export.actions,
            discord_voice(language),
            white_name=export.white_name,
            black_name=export.black_name,
            taken_back=export.taken_back,
        )
        files = [
            discord.File(io.BytesIO(moves.encode()), filename=export.text_filename),
            discord.File(
                io.BytesIO(export.gif),
                filename=export.gif_filename,
                description=replay_description(export, discord_voice(language)),
            ),
        ]
        caption = export_caption(export, language)
        await interaction.followup.send(caption, files=files, ephemeral=True)

    async def _send_final_table(
        self, interaction: discord.Interaction[JarmoBot], tournament_id: int
    ) -> None:
        """The tournament's final table as ``/jarmo tournament standings`` shows it, privately."""
        if self.guild_id is None:  # tournaments are played in servers only
            raise Unwelcome(N_("This history belongs to another server."))
        history = interaction.client.service.tournaments.history
        table = await history.final_table(self.guild_id, tournament_id)
        # Drawing the table can take longer than Discord's 3 s to answer.
        await interaction.response.defer(ephemeral=True, thinking=True)
        for message in await table_messages(table, reader_language(interaction)):
            await interaction.followup.send(**message, ephemeral=True)


def export_caption(export: GameExport, language: str | None = None) -> str:
    """'Game 12: Ann (White) v Bob (Black), 1 move. The move list and the replay:'."""
    game = export.game
    voice = discord_voice(language)
    words = discord_words(language)
    moves = words.ngettext("{count} move", "{count} moves", game.plies).format(count=game.plies)
    return words.gettext(
        "Game {id}: {white_player} ({white}) v {black_player} ({black}), {moves}. "
        "The move list and the replay:"
    ).format(
        id=game.id,
        white_player=export.white_name,
        white=side_label("white", game.ruleset, voice),
        black_player=export.black_name,
        black=side_label("black", game.ruleset, voice),
        moves=moves,
    )


# -- the commands --------------------------------------------------------------------------------


class StatsCommands(commands.Cog):
    """Standings over time on this server: ratings, profiles and game histories. ``/jarmo``'s
    commands for it: a part of ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    @app_commands.command()
    @app_commands.describe(ruleset="Rules to rank by (default: the server's)")
    async def leaderboard(
        self, interaction: discord.Interaction[JarmoBot], ruleset: Ruleset | None = None
    ) -> None:
        """This server's players ranked by rating"""
        service = interaction.client.service
        page = await service.stats.leaderboard(
            interaction.guild_id or 0,
            ruleset or service.config.default_ruleset,
            viewer_id=interaction.user.id,
        )
        link = await server_page_link(interaction.client, interaction.guild_id)
        await interaction.response.send_message(
            **leaderboard_message(page, await channel_language(interaction), web_link=link)
        )

    @app_commands.command()
    @app_commands.describe(
        player="Whose stats (default: yours)",
        ruleset="Rules to chart (default: their most played)",
    )
    async def stats(
        self,
        interaction: discord.Interaction[JarmoBot],
        player: discord.Member | discord.User | None = None,
        ruleset: Ruleset | None = None,
    ) -> None:
        """A player's rating, its trend and results here"""
        check_member(interaction, player)
        user = player or interaction.user
        language = await channel_language(interaction)
        # Outside servers: the friends pool, the games played outside servers.
        profile = await interaction.client.service.stats.profile(
            place_of(interaction).guild_id,
            user.id,
            viewer_id=interaction.user.id,
            ruleset=ruleset,
            words=picture_words(language),
        )
        title = discord_words(language).gettext("{player} · Jarmo stats")
        vacation = await interaction.client.service.vacations.status(user.id)
        voice = discord_voice(language)
        embed = discord.Embed(
            title=title.format(player=profile.name),
            description=f"{profile_text(profile, voice)}\n{vacation_line(vacation, voice)}",
            colour=EMBED_COLOUR,
        )
        message: dict[str, Any] = {"embed": embed, "allowed_mentions": only_pinging()}
        if profile.chart is not None:
            message["file"] = discord.File(
                io.BytesIO(profile.chart),
                filename="rating.png",
                description=chart_description(profile, discord_voice(language)),
            )
            embed.set_image(url="attachment://rating.png")
        await interaction.response.send_message(**message)

    @app_commands.command()
    @app_commands.describe(
        player="Whose games (default: yours)", opponent="Only the games against this member"
    )
    async def history(
        self,
        interaction: discord.Interaction[JarmoBot],
        player: discord.Member | discord.User | None = None,
        opponent: discord.Member | discord.User | None = None,
    ) -> None:
        """Recent games and tournaments, with replays and tables"""
        check_member(interaction, player)
        check_member(interaction, opponent)
        user = player or interaction.user
        guild_id = place_of(interaction).guild_id  # None: the friends pool
        opponent_id = opponent.id if opponent else None
        service = interaction.client.service
        # Tournaments belong to the player's whole history, not to games against one opponent.
        placings = (
            await service.tournaments.history.placings(guild_id, user.id)
            if opponent_id is None and guild_id is not None
            else ()
        )
        page = await service.stats.history(
            guild_id, user.id, opponent_id, tournaments=placings, viewer=viewer_of(interaction)
        )
        language = await channel_language(interaction)
        voice = discord_voice(language)
        embed = discord.Embed(
            title=history_title(page, voice),
            description=history_text(page, voice),
            colour=EMBED_COLOUR,
        )
        picker = HistoryPicker(
            page, guild_id=guild_id, user_id=user.id, opponent_id=opponent_id, language=language
        )
        await interaction.response.send_message(
            embed=embed, view=single(picker), allowed_mentions=only_pinging()
        )


def viewer_of(interaction: discord.Interaction[Any]) -> Viewer:
    """The user asking, in the chat they ask from."""
    return Viewer(interaction.user.id, place_of(interaction).channel_id)
