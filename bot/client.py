"""The Discord client: owns the store and the service, registers the command tree and the
persistent buttons, and shuts down cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import discord
import yarl
from discord import app_commands

from bot.cogs import DYNAMIC_ITEMS, JarmoCommands
from bot.cogs.clock import deadline_message
from bot.cogs.replies import mention, only_pinging, report_failure, report_message
from bot.health import Heartbeat
from bot.jarmo import Game
from bot.render import render_board
from bot.service import Actor, ChallengeView, JarmoService
from bot.service.computer import ComputerOpponent, ProcessThinker
from bot.service.deadlines import DeadlineEvent, DeadlineScheduler
from bot.service.text import challenge_text
from bot.store import SqliteStore

if TYPE_CHECKING:
    from bot.config import BotConfig

log = logging.getLogger(__name__)
EXPIRY_SWEEP_SECONDS = 30
SHUTDOWN_GRACE_SECONDS = 5.0
INTERACTION_TASK_NAMES = (
    "CommandTree-invoker",
    "discord-ui-dynamic-item-",
    "discord-ui-view-dispatch-",
)
# The bot never joins voice, so the missing voice libraries are only noise at start-up.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class JarmoBot(discord.Client):
    """The bot. ``serve=False`` builds only the command tree (for syncing it)."""

    def __init__(self, config: BotConfig, *, serve: bool = True) -> None:
        # Only the non-privileged guilds intent: everything else arrives with the interactions.
        super().__init__(
            intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none()
        )
        self.config = config
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(JarmoCommands())
        self.tree.on_error = self._on_command_error  # type: ignore[method-assign]
        self._serve = serve
        self._store: SqliteStore | None = None
        self._service: JarmoService | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._computer: ComputerOpponent | None = None
        self._thinker: ProcessThinker | None = None
        self._deadlines: asyncio.Task[None] | None = None
        self._catch_up: asyncio.Task[None] | None = None
        self._heartbeat = Heartbeat.of_client(self, config.database)
        self._beating: asyncio.Task[None] | None = None  # for `jarmo-bot health`

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

    async def setup_hook(self) -> None:
        if not self._serve:
            return
        if self.config.api_base_url:
            # Tests only: discord.py dials Discord's gateway directly; ask the (fake) API where
            # its gateway is, as GET /gateway/bot answers.
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        Path(self.config.database).parent.mkdir(parents=True, exist_ok=True)
        self._store = await SqliteStore.open(self.config.database)
        self._service = JarmoService(self._store, config=self.config.service_config())
        assert self.user is not None  # setup_hook runs after login
        self._thinker = ProcessThinker()
        self._computer = ComputerOpponent(
            self._service, Actor(self.user.id, self.user.display_name, is_bot=True), self._thinker
        )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # The first render of each theme builds its palette and background (~0.5 s): do it now,
        # not inside a player's first interaction.
        for ruleset in ("classic", "ludos"):
            await asyncio.to_thread(render_board, Game.new(ruleset=ruleset))
        self._sweeper = asyncio.create_task(self._sweep_expired_challenges())
        self._beating = asyncio.create_task(self._heartbeat.run())
        self._catch_up = asyncio.create_task(self._computer_catches_up())
        self._deadlines = asyncio.create_task(
            self._watch_deadlines(DeadlineScheduler(self._service))
        )
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to development guild %s", self.config.dev_guild_id)

    async def close(self) -> None:
        for task in (self._sweeper, self._deadlines, self._catch_up, self._beating):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await super().close()
        if self._thinker is not None:
            self._thinker.close()
        if self._store is not None:
            await self._store.close()
            self._store = None
            log.info("database closed")

    async def on_ready(self) -> None:
        self._heartbeat.beat()
        log.info(
            "connected as %s (id %s) to %d servers",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )

    async def _on_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        name = interaction.command.qualified_name if interaction.command else "command"
        await report_failure(interaction, original, f"/{name}")

    async def expire_challenges_once(self) -> list[ChallengeView]:
        """Mark overdue challenges expired and say so on their messages."""
        expired = await self.service.expire_challenges()
        for view in expired:
            record = view.challenge
            if record.message_id is None:
                continue
            message = self.get_partial_messageable(record.channel_id).get_partial_message(
                record.message_id
            )
            text = f"{challenge_text(view, mention, expires='—')}\n**Expired** without an answer."
            try:
                await message.edit(content=text, view=None, allowed_mentions=only_pinging())
            except discord.HTTPException as exc:
                log.warning(
                    "could not mark challenge %s expired on its message: %s", record.id, exc
                )
        return expired

    async def _sweep_expired_challenges(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.expire_challenges_once()
            except Exception:
                log.exception("expiring challenges failed")
            await asyncio.sleep(EXPIRY_SWEEP_SECONDS)

    async def _computer_catches_up(self) -> None:
        """Games left waiting for the computer's move when the bot stopped get it now."""
        await self.wait_until_ready()
        for place in await self.service.places_awaiting_computer():
            try:
                report = await self.computer.reply(place)
                if report is not None:
                    channel = self.get_partial_messageable(place.channel_id)
                    await channel.send(**report_message(report))
            except Exception:
                log.exception("the computer could not move in channel %s", place.channel_id)

    async def announce_deadline(self, event: DeadlineEvent) -> None:
        """Post a reminder, or a game lost on time with its final board, in the game's channel."""
        try:
            await self.get_partial_messageable(event.channel_id).send(**deadline_message(event))
        except discord.HTTPException as exc:  # the result is stored; only the message is lost
            log.warning("could not announce the %s of game %s: %s", event.kind, event.game_id, exc)

    async def _watch_deadlines(self, scheduler: DeadlineScheduler) -> None:
        # Deadlines that passed while the bot was down are applied by the first pass.
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                for event in await scheduler.run_due(self.service.now()):
                    await self.announce_deadline(event)
                await scheduler.wait()
            except Exception:
                log.exception("applying reminders and timeouts failed")
                await asyncio.sleep(EXPIRY_SWEEP_SECONDS)


async def finish_interactions(grace_seconds: float) -> None:
    """Let interactions already being handled send their answers before the connection closes
    (their writes are atomic either way; this saves the replies). Best effort: it recognises
    discord.py's handler tasks by the names the library gives them."""
    current = asyncio.current_task()
    handlers = [
        task
        for task in asyncio.all_tasks()
        if task is not current and task.get_name().startswith(INTERACTION_TASK_NAMES)
    ]
    if handlers:
        log.info("waiting for %d interaction(s) to finish", len(handlers))
        await asyncio.wait(handlers, timeout=grace_seconds)


def point_at(api_base_url: str) -> None:
    """Send REST calls to another base URL — only for tests against a local fake of Discord."""
    discord.http.Route.BASE = api_base_url.rstrip("/")


async def run_bot(config: BotConfig) -> None:
    """Run until SIGTERM / SIGINT or a fatal error; the database is closed on the way out."""
    if config.api_base_url:
        point_at(config.api_base_url)
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
            await finish_interactions(SHUTDOWN_GRACE_SECONDS)


async def sync_commands(config: BotConfig) -> None:
    """Publish the slash commands (globally, and to the development guild if one is set)."""
    if config.api_base_url:
        point_at(config.api_base_url)
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
