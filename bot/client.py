"""The Discord bot: owns the store and the service, loads the cogs (``bot.cogs``), and shuts
down cleanly on SIGTERM. It runs the shards the configuration names (all of them by default),
and does the background work of their servers only."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cogs.announcing import announcement_messages, expired_text
from bot.cogs.audience import server_language
from bot.cogs.inflight import InFlight
from bot.cogs.publishing import publish_if_changed
from bot.cogs.replies import only_pinging, post_announced
from bot.cogs.threads import ThreadCog, thread_sweep
from bot.cogs.tournament import attach_host
from bot.cogs.translator import CatalogueTranslator
from bot.cogs.tree import JarmoTree
from bot.health import Heartbeat, heartbeat_file
from bot.jarmo import Game
from bot.render import render_board
from bot.service import Actor, ChallengeView, JarmoService
from bot.service.computer import ComputerOpponent, ProcessThinker
from bot.service.deadlines import DeadlineScheduler
from bot.service.delivery import (
    AnnouncementDelivery,
    Delivery,
    Undeliverable,
    idempotency_token,
)
from bot.service.jobs import Job, run_job
from bot.service.reviews import pool_analyser
from bot.store import Store, open_database

if TYPE_CHECKING:
    from bot.config import BotConfig

log = logging.getLogger(__name__)
EXPIRY_SWEEP_SECONDS = 30
SHUTDOWN_GRACE_SECONDS = 5.0  # for interactions in flight to send their answers
JOB_STOP_SECONDS = 2.0  # for background jobs to stop once cancelled
STORE_CLOSE_SECONDS = 3.0  # the write in progress (at most the 2 s busy limit) and the close
# The bot never joins voice, so the missing voice libraries are only noise at start-up.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class JarmoBot(commands.AutoShardedBot):
    """The bot. ``serve=False`` builds only the command tree (for syncing it).

    Without a shard count, discord.py asks Discord how many shards to run and runs them all;
    with one, it runs the configured shard ids (or every shard of that count)."""

    def __init__(self, config: BotConfig, *, serve: bool = True) -> None:
        super().__init__(
            **_sharding(config),
            command_prefix=commands.when_mentioned,  # unused: the bot has only slash commands
            help_command=None,
            tree_cls=JarmoTree,
            # Only the non-privileged guilds intent: everything else arrives with the
            # interactions.
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.config = config
        self.in_flight = InFlight()
        self._serve = serve
        self._store: Store | None = None
        self._service: JarmoService | None = None
        self._computer: ComputerOpponent | None = None
        self._thinker: ProcessThinker | None = None
        self._jobs: list[asyncio.Task[None]] = []
        self._shards = config.shards()
        self._heartbeat = Heartbeat(
            heartbeat_file(config.database, config.database_url, config.shard_ids),
            self.gateway_open,
        )

    @property
    def service(self) -> JarmoService:
        """The use cases; available once ``setup_hook`` has run."""
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._service

    @property
    def computer(self) -> ComputerOpponent:
        """The computer opponent (the bot's own user); available once set up."""
        if self._computer is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._computer

    def owns_server(self, guild_id: int) -> bool:
        """Whether this process runs the shard of server ``guild_id`` (and so does its
        background work)."""
        return self._shards.owns(guild_id)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        await self.load_extension("bot.cogs")
        if not self._serve:
            return
        self._store = await open_database(self.config.store_target)
        assert self.user is not None  # setup_hook runs after login
        self._service = JarmoService(
            self._store,
            config=self.config.service_config(),
            computer=Actor(self.user.id, self.user.display_name, is_bot=True),
        )
        threads = self.get_cog(ThreadCog.__cog_name__)
        if isinstance(threads, ThreadCog):
            self._service.match_listeners.add(threads.match_ended)
        self._thinker = ProcessThinker.open(self.config.computer_workers)
        self._computer = ComputerOpponent(self._service, self._thinker)
        self._service.reviews.use(pool_analyser(self._thinker.analyse))
        # The first render of each theme builds its palette and background (~0.5 s): do it now,
        # not inside a player's first interaction.
        for ruleset in ("classic", "ludos"):
            await asyncio.to_thread(render_board, Game.new(ruleset=ruleset))
        attach_host(self)  # before any job or command can start a tournament's matches
        scheduler = DeadlineScheduler(self._service, shards=self._shards)
        delivery = AnnouncementDelivery(self._service, self.post_announcement)
        self._jobs = [
            self._start_job("expiring challenges", self.expire_challenges_once, _every_sweep),
            self._start_job("reminders and timeouts", scheduler.run_due_now, scheduler.wait),
            self._start_job("announcements", delivery.deliver_due, delivery.wait),
            self._start_job("the computer's pending moves", self._computer_catches_up, None),
            self._start(self._service.tournaments.rounds.job(self.owns_server)),
            self._start(thread_sweep(self)),
            asyncio.create_task(self._heartbeat.run(), name="jarmo-job: heartbeat"),
        ]
        await self._publish_commands()

    async def _publish_commands(self) -> None:
        """Publish the slash commands when they changed (to the development guild if one is
        set): a fresh install has its commands without a separate ``jarmo-bot sync``."""
        assert self._store is not None and self.application_id is not None
        guild = discord.Object(self.config.dev_guild_id) if self.config.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        try:
            await publish_if_changed(
                self.tree, self._store.state, application_id=self.application_id, guild=guild
            )
        except discord.HTTPException as exc:  # the commands published before still work
            log.warning("could not publish the slash commands: %s", exc)

    def _start_job(
        self,
        name: str,
        once: Callable[[], Awaitable[object]],
        pause: Callable[[], Awaitable[object]] | None,
    ) -> asyncio.Task[None]:
        """Run ``once`` and then ``pause``, over and over (just once, without ``pause``), in
        the background once the bot is ready; see :func:`run_job` for the capped backoff."""
        return self._start(Job(name, once, pause))

    def _start(self, job: Job) -> asyncio.Task[None]:
        async def run() -> None:
            await self.wait_until_ready()
            await run_job(job, stopped=self.is_closed)

        return asyncio.create_task(run(), name=f"jarmo-job: {job.name}")

    def gateway_open(self) -> bool:
        """Whether the bot is ready and every one of its shards is connected right now (a
        shard's socket is closed while discord.py reconnects it)."""
        shards = self.shards.values()
        return self.is_ready() and not self.is_closed() and all(not s.is_closed() for s in shards)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py's ready timer waits for late guilds and may fire after close() has taken
        # the event loop away; an event nobody can handle any more is dropped, not crashed on.
        if self.is_closed():
            return
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        """Stop the background jobs, the connection, the computer and the database, within
        ``JOB_STOP_SECONDS + STORE_CLOSE_SECONDS`` (plus the gateway's close) whatever the jobs
        are doing; never raises for a job's failure."""
        jobs, self._jobs = self._jobs, []
        for job in jobs:
            job.cancel()
        if jobs:
            _, stuck = await asyncio.wait(jobs, timeout=JOB_STOP_SECONDS)
            for job in stuck:
                log.warning("background job %r did not stop in time", job.get_name())
        await super().close()
        if self._thinker is not None:
            await self._thinker.close()
            self._thinker = None
        if self._store is not None:
            store, self._store = self._store, None
            try:
                await asyncio.wait_for(store.close(), STORE_CLOSE_SECONDS)
                log.info("database closed")
            except Exception:
                log.exception("the database did not close cleanly")

    async def on_ready(self) -> None:
        self._heartbeat.beat()
        log.info(
            "connected as %s (id %s) to %d servers on shards %s of %s",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
            sorted(self.shards),
            self.shard_count,
        )

    async def expire_challenges_once(self) -> list[ChallengeView]:
        """Mark overdue challenges expired and say so on their messages."""
        expired = await self.service.challenges.expire_overdue()
        for view in expired:
            record = view.challenge
            if record.message_id is None:
                continue
            message = self.get_partial_messageable(record.channel_id).get_partial_message(
                record.message_id
            )
            text = await expired_text(self, view)
            try:
                await message.edit(content=text, view=None, allowed_mentions=only_pinging())
            except discord.HTTPException as exc:
                log.warning(
                    "could not mark challenge %s expired on its message: %s", record.id, exc
                )
        return expired

    async def _computer_catches_up(self) -> None:
        """Games left waiting for the computer's move when the bot stopped get it now (in the
        servers of this process's shards)."""
        for place in await self.service.computer_turns.awaiting(owns=self._shards.owns):
            try:
                report = await self.computer.reply(place)
                if report is not None:
                    channel = self.get_partial_messageable(place.channel_id)
                    send = channel.send
                    if report.announcement is not None:  # the delivery loop may post it too
                        nonce = idempotency_token(report.announcement)
                        send = functools.partial(channel.send, nonce=nonce)
                    language = await server_language(self, place.guild_id)
                    await post_announced(report, send, self.service, language)
            except Exception:
                log.exception("the computer could not move in channel %s", place.channel_id)

    async def post_announcement(self, delivery: Delivery) -> None:
        """Post an announcement from the outbox: in its game's channel a reminder, a game lost
        on time with its final board, or the computer's move; a tournament's round or final
        table in its channel, a match's welcome in its thread."""
        channel_id, messages = await announcement_messages(self, delivery)
        channel = self.get_partial_messageable(channel_id)
        key = delivery.entry.key
        try:
            for index, message in enumerate(messages):
                # The nonce makes Discord keep one message if this announcement is posted twice
                # (its lease ran out, or a process died between posting and settling).
                nonce = idempotency_token(key if index == 0 else f"{key}#{index}")
                await channel.send(**message, nonce=nonce)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"channel {channel_id}: {exc}") from exc


def _sharding(config: BotConfig) -> dict[str, Any]:
    """discord.py's shard options: none (ask Discord, run every shard), a count, or a count
    and the ids to run."""
    if config.shard_count is None:
        return {}
    if config.shard_ids is None:
        return {"shard_count": config.shard_count}
    return {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids)}


async def _every_sweep() -> None:
    await asyncio.sleep(EXPIRY_SWEEP_SECONDS)


async def run_bot(config: BotConfig) -> None:
    """Run until SIGTERM / SIGINT or a fatal error; the database is closed on the way out."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    bot = JarmoBot(config)
    async with bot:
        runner = asyncio.create_task(bot.start(config.token or ""))
        stopper = asyncio.create_task(stop.wait())
        done, pending = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if runner in done:
            runner.result()  # a rejected token or a lost connection ends the run with its error
        else:
            log.info("shutting down")
            await bot.in_flight.finish(SHUTDOWN_GRACE_SECONDS)


async def sync_commands(config: BotConfig) -> None:
    """Publish the slash commands (globally, and to the development guild if one is set)."""
    bot = JarmoBot(config, serve=False)
    async with bot:
        await bot.login(config.token or "")
        if config.dev_guild_id:
            # Guild commands appear at once; syncing globally too would list every command twice.
            guild = discord.Object(config.dev_guild_id)
            bot.tree.copy_global_to(guild=guild)
            commands = await bot.tree.sync(guild=guild)
            log.info(
                "synced %d commands to development guild %s", len(commands), config.dev_guild_id
            )
        else:
            commands = await bot.tree.sync()
            log.info("synced %d global commands (they can take a while to appear)", len(commands))
