"""A thread per match: accepting a challenge opens a public thread from the challenge's message
and the match is played there. A thread is a channel of its own, so a channel hosts any number
of matches at once. When its match ends the thread is renamed with the result (Discord archives
it a day after its last message); a deleted thread ends its match as aborted."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord.ext import commands

from bot.cogs.audience import channel_language, server_language
from bot.cogs.guards import place_of
from bot.cogs.replies import only_pinging
from bot.cogs.words import discord_words, mention, reader_language
from bot.service import ChallengeView, MatchStandings, Place, Refusal
from bot.service.jobs import Job
from bot.service.match_events import MatchEnded
from bot.service.venues import NewMatch

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)

NAME_LIMIT = 100  # Discord's limit for a channel's (and a thread's) name
ARCHIVE_AFTER_MINUTES: Final = 1440  # Discord hides the thread a day after its last message
SWEEP_SECONDS = 60  # how often threads are checked, in case a rename at the ending was missed
RENAME_TRIES = 3
_NAME_PART = 20  # characters of each player's name in a thread name
# What a thread needs, as discord.py names the permissions (and as Discord shows them).
THREAD_PERMISSIONS = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def thread_name(first: str, second: str, ruleset: str, language: str | None = None) -> str:
    """'Ann vs Bob · classic', within Discord's limit whatever the players call themselves."""
    _ = discord_words(language).gettext
    name = _("{first} vs {second} · {ruleset}").format(
        first=_shorten(first), second=_shorten(second), ruleset=ruleset
    )
    return name[:NAME_LIMIT]


def finished_name(standings: MatchStandings, language: str | None = None) -> str:
    """The thread's name once its match is over: the players, the ruleset and the result."""
    _ = discord_words(language).gettext
    match = standings.match
    first, second = (standings.names[p] for p in match.player_ids)
    counted = standings.counted  # a tournament's result for a match stopped before its end
    winner = counted.winner_id if counted is not None else standings.winner_id
    if match.state == "aborted" and counted is None:
        result = _("aborted")
    elif winner is None:
        result = _("drawn")
    else:
        result = _("{player} won").format(player=_shorten(standings.names[winner]))
    base = thread_name(first, second, match.ruleset, language)
    suffix = f" — {result}"
    return base[: NAME_LIMIT - len(suffix)] + suffix


def _shorten(name: str) -> str:
    return name if len(name) <= _NAME_PART else name[: _NAME_PART - 1] + "…"


def missing_thread_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The permissions the bot lacks in the interaction's channel to play in threads."""
    granted = interaction.app_permissions
    return [shown for flag, shown in THREAD_PERMISSIONS.items() if not getattr(granted, flag)]


class ThreadVenue:
    """Opens a thread from the challenge's message when the challenge is accepted (the
    service's ``Venue`` for challenges); ``thread`` is the thread once opened."""

    def __init__(self, message: discord.Message, language: str | None) -> None:
        self._message = message
        self._language = language
        self.thread: discord.Thread | None = None

    async def open(self, match: NewMatch) -> int | None:
        """A new public thread named after the players and the ruleset; ``None`` (play in the
        channel) if Discord refuses one."""
        name = thread_name(match.first_name, match.second_name, match.ruleset, self._language)
        try:
            self.thread = await self._message.create_thread(
                name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES
            )
        except discord.HTTPException as exc:
            log.warning(
                "could not open a thread for challenge (message %s): %s", self._message.id, exc
            )
            return None
        return self.thread.id


async def thread_venue(
    interaction: discord.Interaction[JarmoBot],
) -> tuple[ThreadVenue | None, list[str]]:
    """Where an accepted challenge is played: a ``ThreadVenue`` when the server plays in
    threads and the bot may open them here; else ``None`` and the permissions it lacks (empty
    when threads are off, or the challenge is already in a thread)."""
    bot = interaction.client
    guild_id = place_of(interaction).guild_id
    if guild_id is None:  # outside the bot's servers it cannot open threads
        return None, []
    settings = await bot.service.servers.settings(guild_id)
    message = interaction.message
    if (
        not settings.threads_or(bot.config.threads)
        or message is None
        or not isinstance(interaction.channel, discord.TextChannel)
    ):
        return None, []
    missing = missing_thread_permissions(interaction)
    if missing:
        return None, missing
    return ThreadVenue(message, await channel_language(interaction)), []


async def tell_missing_permissions(
    interaction: discord.Interaction[JarmoBot], missing: list[str]
) -> None:
    """Once per server, tell (privately) which permissions would give matches their threads."""
    guild_id = interaction.guild_id
    if (
        not missing
        or guild_id is None
        or not await interaction.client.service.servers.first_thread_notice(guild_id)
    ):
        return
    _ = discord_words(reader_language(interaction)).gettext
    text = _(
        "This match is played here in the channel. To give every match a thread of its own, a "
        "server admin can grant me {permissions} in this channel (or turn threads off with "
        "/jarmo server threads). I won't mention this again."
    ).format(permissions=", ".join(f"**{name}**" for name in missing))
    await interaction.followup.send(text, ephemeral=True)


async def post_start_in_thread(
    thread: discord.Thread,
    view: ChallengeView,
    accepted_by: int,
    message: dict[str, Any],
    language: str | None,
) -> None:
    """Post the first board in the match's thread, naming both players, the challenger and
    ``accepted_by`` (which also adds them to the thread)."""
    record = view.challenge
    _ = discord_words(language).gettext
    welcome = _("{first} and {second}: your match is played in this thread.").format(
        first=mention(record.challenger_id), second=mention(accepted_by)
    )
    content = message.get("content")
    message["content"] = f"{welcome}\n{content}" if content else welcome
    message["allowed_mentions"] = only_pinging(record.challenger_id, accepted_by)
    await thread.send(**message)


class ThreadCog(commands.Cog):
    """Keeps matches' threads in step with their matches: renamed with the result as the match
    ends (``match_ended``, whatever ended it), with a sweep as the safety net."""

    def __init__(self, bot: JarmoBot) -> None:
        self.bot = bot
        self._jobs: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.bot.service.match_listeners.add(self.match_ended)
        self._start(thread_sweep(self.bot))

    async def cog_unload(self) -> None:
        self.bot.service.match_listeners.remove(self.match_ended)
        jobs, self._jobs = self._jobs, set()
        await self.bot.jobs.stop(self.bot.job_stop_seconds, only=jobs)

    def _start(self, job: Job) -> None:
        task = self.bot.jobs.start(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def match_ended(self, event: MatchEnded) -> None:
        """A match ended (a move typed or clicked, a resignation, a timeout, the computer, an
        abort or a forced result): rename its thread now. The rename is a job of its own, so
        a rename that Discord's rate limit holds back never holds up the ending's answer."""
        thread = self.bot.get_channel(event.match.channel_id)
        me = self.bot.user
        if not isinstance(thread, discord.Thread) or me is None or thread.owner_id != me.id:
            return
        rename = functools.partial(settle, self.bot, thread)
        # A few tries at once; after that the sweep tries again.
        self._start(Job(f"renaming thread {thread.id}", rename, tries=RENAME_TRIES))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, event: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread ends its match as aborted, and the parent channel is told."""
        service = self.bot.service
        report = await service.venues.vanished(Place(event.guild_id, event.thread_id))
        if report is None:
            return
        log.info(
            "thread %s was deleted: its game %s aborted", event.thread_id, report.board.game.id
        )
        match = report.board.match
        language = await server_language(self.bot, event.guild_id)
        _ = discord_words(language).gettext
        text = _(
            "The thread of the match between {first} and {second} was deleted, so the match "
            "was aborted; nothing counts. Start a new one with /jarmo challenge."
        ).format(first=mention(match.first_white_id), second=mention(match.first_black_id))
        parent = self.bot.get_partial_messageable(event.parent_id)
        try:
            await parent.send(text, allowed_mentions=only_pinging(*match.player_ids))
        except discord.HTTPException as exc:
            log.warning(
                "could not say in channel %s that a match was aborted: %s", event.parent_id, exc
            )


def thread_sweep(bot: JarmoBot) -> Job:
    """The background job that renames the bot's open threads whose match has ended but whose
    name does not say so yet: the safety net for a rename at the ending that failed, or an
    ending in another process (every ending renames its thread at once)."""

    async def sweep() -> None:
        me = bot.user
        for guild in bot.guilds:
            for thread in guild.threads:
                if me is None or thread.owner_id != me.id:
                    continue
                try:
                    await settle(bot, thread)
                except Exception:  # one thread's trouble must not stop the others'
                    log.exception("could not settle thread %s", thread.id)

    return Job("threads' names", sweep, functools.partial(asyncio.sleep, SWEEP_SECONDS))


async def settle(bot: JarmoBot, thread: discord.Thread) -> None:
    """Rename the thread with its match's result, once the match is over."""
    service = bot.service
    place = Place(thread.guild.id, thread.id)
    try:
        standings = await service.standings.current(place)
    except Refusal:  # no match here (a thread someone else opened), or a damaged one
        return
    if not standings.over:
        return
    language = await server_language(bot, thread.guild.id)
    name = finished_name(standings, language)
    if thread.name == name:
        return
    try:
        await thread.edit(name=name)
    except discord.HTTPException as exc:
        log.warning("could not rename thread %s with its result: %s", thread.id, exc)


async def retitle(thread: discord.Thread, view: ChallengeView, language: str | None) -> None:
    """A rematch in a finished match's thread: the thread's name loses the old result."""
    name = thread_name(
        view.challenger_name, view.challenged_name, view.challenge.options.ruleset, language
    )
    if thread.name != name and thread.owner_id == thread.guild.me.id:
        try:
            await thread.edit(name=name)
        except discord.HTTPException as exc:
            log.warning("could not rename thread %s for a rematch: %s", thread.id, exc)
