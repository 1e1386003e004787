"""Tournaments (``/jarmo tournament …``): the sign-up message and its Join / Leave buttons, the
moderators' commands, the service's ``Venue`` for its matches on Discord (a thread per pairing), and
the messages of each round, match welcome and final table that the outbox delivers.

Rounds move on in the background: the service records each match's result when it ends (any
ending), and the bot's tournament job (``Rounds.job``) pairs the next round once a round is
complete. It also runs every minute, so an event carries on after a restart."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language, server_language
from bot.cogs.challenges import Ruleset
from bot.cogs.clock import time_per_move_choices
from bot.cogs.guards import place_of
from bot.cogs.items import CustomIdSpec, JarmoItem
from bot.cogs.move_offer import MOVE_BUTTON_PREFIXES
from bot.cogs.replies import actor_of, only_pinging, report_message
from bot.cogs.threads import ARCHIVE_AFTER_MINUTES, thread_name
from bot.cogs.transformers import OneOf
from bot.cogs.words import discord_voice, discord_words, mention, reader_language
from bot.i18n import N_
from bot.render import render_standings_table
from bot.service import Report
from bot.service.game_options import TOURNAMENT_RULES
from bot.service.tournaments.views import (
    ForcedRound,
    MatchWelcome,
    RoundView,
    TableView,
    TournamentRequest,
    TournamentView,
)
from bot.service.venues import NewMatch
from bot.words.tournaments import (
    final_heading,
    forced_text,
    round_lines,
    round_started_note,
    signup_text,
    table_lines,
    table_words,
)

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # Discord's limit on a message's text
BOARDS_CLOSED = 10  # of a match's latest messages, those whose Move button a forced end removes
_BUTTONS = {"join": (N_("Join"), discord.ButtonStyle.success), "leave": (N_("Leave"), None)}
TournamentLength = app_commands.Transform[int, OneOf(TOURNAMENT_RULES.lengths)]


def can_run_tournaments(interaction: discord.Interaction[JarmoBot]) -> bool:
    """Members who can manage the server run tournaments, and those with the configured role."""
    if interaction.permissions.manage_guild:
        return True
    role = interaction.client.config.tournament_role_id
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None


def chunks(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """``lines`` joined into as few messages as fit ``limit`` each (a longer line is cut)."""
    messages: list[str] = []
    for line in lines:
        line = line[:limit]
        if messages and len(messages[-1]) + 1 + len(line) <= limit:
            messages[-1] += "\n" + line
        else:
            messages.append(line)
    return messages


def attach_host(bot: JarmoBot) -> None:
    """Give the service its Discord host (again after a reload, so the new code hosts)."""
    bot.service.tournaments.attach(DiscordHost(bot))


class TournamentCommands(commands.Cog):
    """Round robin and Swiss events, each pairing a match in its own thread. ``/jarmo``'s
    commands for it: a part of ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    tournament = app_commands.Group(name="tournament", description="Tournaments in this channel")

    @tournament.command(name="create")
    @app_commands.describe(
        name="The tournament's name",
        format="Everyone meets everyone, or Swiss pairing",
        rounds="Number of rounds (default: as the format needs)",
        games="Games per match; sides swap after each",
        ruleset="The rules (default: classic)",
        time_per_move="Time per move, e.g. 5m, 1h, 3d or none",
    )
    async def create(
        self,
        interaction: discord.Interaction[JarmoBot],
        name: app_commands.Range[str, 1, 60],
        format: Literal["round-robin", "swiss"],
        rounds: app_commands.Range[int, 1, 30] | None = None,
        games: TournamentLength = 2,
        ruleset: Ruleset | None = None,
        time_per_move: app_commands.Range[str, 1, 12] | None = None,
    ) -> None:
        """Open a tournament here for sign-up (moderators)"""
        service = interaction.client.service
        request = TournamentRequest(name, format, rounds, games, ruleset, time_per_move)
        view = await service.tournaments.create(
            place_of(interaction),
            actor_of(interaction),
            request,
            moderator=can_run_tournaments(interaction),
        )
        language = await channel_language(interaction)
        sent = await interaction.response.send_message(
            signup_text(view, discord_voice(language)),
            view=signup_buttons(view.tournament.id, language),
            allowed_mentions=only_pinging(),
        )
        if sent.message_id is not None:
            await service.tournaments.attach_message(view.tournament.id, sent.message_id)

    @create.autocomplete("time_per_move")
    async def _tournament_time_per_move_choices(
        self, interaction: discord.Interaction[JarmoBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return time_per_move_choices(current)

    @tournament.command(name="start")
    async def start(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Close sign-up and pair round 1"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = interaction.client.service
        guild = interaction.guild
        assert guild is not None  # guild-only

        async def is_member(user_id: int) -> bool:
            if guild.get_member(user_id) is not None:
                return True
            try:
                await guild.fetch_member(user_id)
            except discord.NotFound:
                return False
            return True

        view = await service.tournaments.start(
            place_of(interaction),
            actor_of(interaction),
            moderator=can_run_tournaments(interaction),
            is_member=is_member,
        )
        await close_signup(interaction, view.tournament.id)
        _ = discord_words(reader_language(interaction)).gettext
        await interaction.followup.send(_("Started: round 1 is paired."), ephemeral=True)

    @tournament.command(name="standings")
    async def tournament_standings(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """The table of this channel's tournament"""
        table = await interaction.client.service.tournaments.standings(place_of(interaction))
        await interaction.response.defer(thinking=True)
        messages = await table_messages(table, await channel_language(interaction))
        for message in messages:
            await interaction.followup.send(**message)

    @tournament.command(name="pairings")
    @app_commands.describe(round="Which round (default: the current one)")
    async def pairings(
        self,
        interaction: discord.Interaction[JarmoBot],
        round: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        """Who meets whom in a round, and the results"""
        view = await interaction.client.service.tournaments.pairings(place_of(interaction), round)
        voice = discord_voice(await channel_language(interaction))
        first, *rest = chunks(round_lines(view, voice, _channel_mention))
        await interaction.response.send_message(first, allowed_mentions=only_pinging())
        for text in rest:
            await interaction.followup.send(text, allowed_mentions=only_pinging())

    @tournament.command(name="leave")
    @app_commands.describe(player="Moderators: withdraw another player")
    async def leave(
        self, interaction: discord.Interaction[JarmoBot], player: discord.User | None = None
    ) -> None:
        """Leave the tournament (once started, you forfeit)"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await interaction.client.service.tournaments.leave(
            place_of(interaction),
            actor_of(interaction),
            player=None if player is None else player.id,
            moderator=can_run_tournaments(interaction),
        )
        await refresh_signup(interaction.client, view)
        _ = discord_words(reader_language(interaction)).gettext
        who = interaction.user.id if player is None else player.id
        await interaction.followup.send(
            _("{player} has left {name}.").format(player=mention(who), name=view.tournament.name),
            ephemeral=True,
        )

    @tournament.command(name="force")
    async def force(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """End the round now, as it stands (moderators)"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        forced = await interaction.client.service.tournaments.force(
            place_of(interaction),
            actor_of(interaction),
            moderator=can_run_tournaments(interaction),
        )
        language = await server_language(interaction.client, interaction.guild_id or 0)
        await tell_forced(interaction.client, forced, language)
        _ = discord_words(reader_language(interaction)).gettext
        await interaction.followup.send(
            _("Round {number} is decided; the next one follows.").format(
                number=forced.round.number
            ),
            ephemeral=True,
        )


async def tell_forced(bot: JarmoBot, forced: ForcedRound, language: str | None) -> None:
    """Each match the force decided is told so in its thread (who ended it, the result the
    table counts), and its boards lose their buttons: the game takes no more moves. (The
    thread is renamed by the match's ending, like any other.)"""
    voice = discord_voice(language)
    me = bot.user
    for match in forced.matches:
        channel = bot.get_partial_messageable(
            match.channel_id, guild_id=forced.round.tournament.guild_id
        )
        try:
            if me is not None:
                await close_boards(channel, me.id)
            await channel.send(
                forced_text(forced, match, voice),
                allowed_mentions=only_pinging(match.first_id, match.second_id),
            )
        except discord.HTTPException as exc:
            log.warning("could not tell thread %s of its forced result: %s", match.channel_id, exc)


async def close_boards(channel: discord.PartialMessageable, me_id: int) -> None:
    """Take the **Move** button off the bot's latest boards in ``channel``."""
    async for message in channel.history(limit=BOARDS_CLOSED):
        if message.author.id == me_id and _has_move_button(message):
            await message.edit(view=None)


def _has_move_button(message: discord.Message) -> bool:
    return any(
        isinstance(item, discord.Button) and (item.custom_id or "").startswith(MOVE_BUTTON_PREFIXES)
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for item in row.children
    )


def _channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"


class SignupButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=CustomIdSpec("tournament", id=int, answer="|".join(_BUTTONS)),
):
    """Join / Leave under a tournament's sign-up message (refused once it has started)."""

    def __init__(self, tournament_id: int, answer: str, language: str | None = None) -> None:
        label, style = _BUTTONS[answer]
        super().__init__(
            discord.ui.Button(
                label=discord_words(language).gettext(label),
                style=style or discord.ButtonStyle.secondary,
                custom_id=self.custom_id_spec.format(tournament_id, answer),
            )
        )
        self.tournament_id = tournament_id
        self.answer = answer
        self.what = f"tournament {answer}"

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        cases, actor = interaction.client.service.tournaments, actor_of(interaction)
        if self.answer == "join":
            view = await cases.join(self.tournament_id, actor)
        else:
            view = await cases.unjoin(self.tournament_id, actor)
        language = await channel_language(interaction)
        await interaction.response.edit_message(
            content=signup_text(view, discord_voice(language)),
            view=signup_buttons(self.tournament_id, language),
            allowed_mentions=only_pinging(),
        )


def signup_buttons(tournament_id: int, language: str | None = None) -> discord.ui.View:
    """Join and Leave."""
    view = discord.ui.View(timeout=None)
    for answer in _BUTTONS:
        view.add_item(SignupButton(tournament_id, answer, language))
    return view


async def close_signup(interaction: discord.Interaction[JarmoBot], tournament_id: int) -> None:
    """The sign-up message loses its buttons once the tournament has started."""
    view = await interaction.client.service.tournaments.view(tournament_id)
    await refresh_signup(interaction.client, view)


async def refresh_signup(bot: JarmoBot, view: TournamentView) -> None:
    """Show the sign-up message as the tournament now stands (buttons only during sign-up)."""
    record = view.tournament
    if record.message_id is None:
        return
    language = await server_language(bot, record.guild_id)
    buttons = signup_buttons(record.id, language) if record.status == "signup" else None
    message = bot.get_partial_messageable(record.channel_id).get_partial_message(record.message_id)
    try:
        await message.edit(
            content=signup_text(view, discord_voice(language)),
            view=buttons,
            allowed_mentions=only_pinging(),
        )
    except discord.HTTPException as exc:
        log.warning("could not update the sign-up of tournament %d: %s", record.id, exc)


async def table_messages(table: TableView, language: str | None) -> list[dict[str, Any]]:
    """The table as an image with its text version (for screen readers) after it."""
    voice = discord_voice(language)
    record = table.tournament
    rows = table.standings.rows
    words = table_words(
        voice,
        title=record.name,
        format=record.format,
        played=table.standings.rounds,
        rounds=table.rounds,
        in_progress=table.standings.in_progress,
        final=table.final,
    )
    image = await asyncio.to_thread(
        render_standings_table, rows, names=table.names, words=words, rounds=table.rounds
    )
    lines = table_lines(
        table.standings,
        voice,
        title=record.name,
        format=record.format,
        rounds=table.rounds,
        final=table.final,
    )
    if table.final:
        lines.insert(0, final_heading(record.name, _winner(table), voice))
    texts = chunks(lines)
    file = discord.File(io.BytesIO(image), filename="standings.png", description=texts[0][:1024])
    first: dict[str, Any] = {
        "content": texts[0],
        "file": file,
        "allowed_mentions": only_pinging(),
    }
    return [first, *({"content": t, "allowed_mentions": only_pinging()} for t in texts[1:])]


def _winner(table: TableView) -> int | None:
    rows = table.standings.rows
    if not rows or (len(rows) > 1 and rows[1].rank == rows[0].rank):
        return None
    return rows[0].player


def round_messages(view: RoundView, language: str | None) -> list[dict[str, Any]]:
    """The round for the tournament's channel: who meets whom in which thread (names only;
    the threads ping)."""
    voice = discord_voice(language)
    lines = [*round_lines(view, voice, _channel_mention), round_started_note(voice)]
    return [{"content": text, "allowed_mentions": only_pinging()} for text in chunks(lines)]


async def welcome_message(welcome: MatchWelcome, language: str | None) -> dict[str, Any]:
    """A match's first post in its thread: the board, pinging both players (which also adds
    them to the thread)."""
    first, second = welcome.first_id, welcome.second_id
    message = await report_message(Report(first, None, welcome.board), language)
    _ = discord_words(language).gettext
    text = _("{first} and {second}: your match of {name} is played in this thread.").format(
        first=mention(first), second=mention(second), name=welcome.tournament.name
    )
    content = message.get("content")
    message["content"] = f"{text}\n{content}" if content else text
    message["allowed_mentions"] = only_pinging(first, second)
    return message


class DiscordHost:
    """The service's ``Venue`` for tournament matches on Discord: a public thread per match in
    the tournament's channel. (Rounds, welcomes and the final table come from the outbox:
    ``bot.cogs.announcing``.)"""

    def __init__(self, bot: JarmoBot) -> None:
        self.bot = bot

    async def open(self, match: NewMatch) -> int | None:
        """A public thread, named after the players, from a short message in the tournament's
        channel that names the match (so the channel lists every match); ``None`` if Discord
        refuses either."""
        where = match.place
        channel = self.bot.get_channel(where.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament channel %s not found", where.channel_id)
            return None
        language = await server_language(self.bot, where.guild_id)
        name = thread_name(match.first_name, match.second_name, match.ruleset, language)
        try:
            starter = await channel.send(
                discord_words(language)
                .gettext("{name}: {match}")
                .format(name=match.tournament_name, match=name),
                allowed_mentions=only_pinging(),
            )
            thread = await starter.create_thread(
                name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES
            )
        except discord.HTTPException as exc:
            log.warning("tournament channel %s: could not open a thread: %s", channel.id, exc)
            return None
        return thread.id
