"""The Discord bot, the composition root: it builds the store, the service and the computer,
loads the cogs (``bot.cogs``, which talk to Discord), runs every background job under one
:class:`~bot.service.jobs.Jobs`, and shuts down cleanly on SIGTERM. It runs the shards the
configuration names (all of them by default), and does the background work of their servers
only."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web
from discord.ext import commands

from bot.cogs import CatalogueTranslator, InFlight, JarmoTree, publish_if_changed
from bot.health import Heartbeat
from bot.jarmo import Game
from bot.render import render_board
from bot.service import Actor, JarmoService
from bot.service.computer import ComputerOpponent, ProcessThinker
from bot.service.deadlines import DeadlineScheduler
from bot.service.jobs import Job, Jobs
from bot.service.reviews import pool_analyser
from bot.store import Store, open_database
from bot.web.serve import start_live_board

if TYPE_CHECKING:
    from bot.config import BotConfig

log = logging.getLogger(__name__)
SHUTDOWN_GRACE_SECONDS = 5.0  # for interactions in flight to send their answers
# close() takes at most JOB_STOP_SECONDS + STORE_CLOSE_SECONDS (plus the gateway's close),
# within the 10 s a deployment gives a stopping bot.
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
        self.jobs = Jobs(stopped=self.is_closed, ready=self.wait_until_ready)
        self.job_stop_seconds = JOB_STOP_SECONDS
        self._shards = config.shards()
        self._heartbeat = Heartbeat(config.heartbeat_file, self.gateway_open)
        self._live_board: web.AppRunner | None = None

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

    @property
    def serving(self) -> bool:
        """Whether this bot plays (``False``: it only builds the command tree, to sync it)."""
        return self._serve

    def owns_server(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of server ``guild_id`` (and so does its
        background work); ``None``: shard 0, which receives the direct messages."""
        return self._shards.owns(guild_id)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        if self._serve:
            await self._build_service()
        await self.load_extension("bot.cogs")  # the cogs start their own Discord-side jobs
        if not self._serve:
            return
        service = self.service
        scheduler = DeadlineScheduler(service, shards=self._shards)
        heartbeat = Job("heartbeat", self._heartbeat.beat_now, self._heartbeat.pause)
        self.jobs.start(heartbeat, when_ready=False)  # it tells a bot still connecting too
        # The first render of each theme builds its palette and background (~0.5 s each): done
        # while the bot connects, neither before it goes online nor in a player's first move.
        self.jobs.start(Job("image warm-up", _warm_up_images, tries=1), when_ready=False)
        self.jobs.start(Job("reminders and timeouts", scheduler.run_due_now, scheduler.wait))
        self.jobs.start(service.tournaments.rounds.job(self.owns_server))
        if self.config.web.enabled:
            self._live_board = await start_live_board(service, self.config)
        await self._publish_commands()

    async def _build_service(self) -> None:
        """The store, the use cases and the computer, ready before any cog or job runs."""
        self._store = await open_database(self.config.store_target)
        assert self.user is not None  # setup_hook runs after login
        self._service = JarmoService(
            self._store,
            config=self.config.service_config(),
            computer=Actor(self.user.id, self.user.display_name, is_bot=True),
        )
        self._thinker = ProcessThinker.open(self.config.computer_workers)
        self._computer = ComputerOpponent(self._service, self._thinker)
        self._service.reviews.use(pool_analyser(self._thinker.analyse))

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
        """Stop the background jobs, the connection (and the cogs), the computer and the
        database, within ``JOB_STOP_SECONDS + STORE_CLOSE_SECONDS`` (plus the gateway's close)
        whatever the jobs are doing; never raises for a job's failure."""
        await self.jobs.stop(self.job_stop_seconds)
        if self._live_board is not None:
            runner, self._live_board = self._live_board, None
            await runner.cleanup()
        if self._serve:
            self._heartbeat.beat(running=False)  # the last beat says the bot has stopped
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


async def _warm_up_images() -> None:
    for ruleset in ("classic", "ludos"):
        await asyncio.to_thread(render_board, Game.new(ruleset=ruleset))


def _sharding(config: BotConfig) -> dict[str, Any]:
    """discord.py's shard options: none (ask Discord, run every shard), a count, or a count
    and the ids to run."""
    if config.shard_count is None:
        return {}
    if config.shard_ids is None:
        return {"shard_count": config.shard_count}
    return {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids)}


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
