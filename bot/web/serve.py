"""Running the live board: in the bot's process beside Discord (``[web] enabled``), or alone
with ``jarmo-bot web`` on the configured database (beside bots sharing one PostgreSQL)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from aiohttp import web

from bot.config import BotConfig
from bot.service import JarmoService
from bot.store import open_database
from bot.web.app import WebSettings, bound_port, create_web_app, start_web_server

log = logging.getLogger(__name__)


def web_settings(config: BotConfig) -> WebSettings:
    """The server's settings from the bot's configuration (the bot's token looks up the
    Activity's instances)."""
    return WebSettings(
        activity=config.web.activity,
        client_id=config.web.client_id,
        client_secret=config.web.client_secret,
        bot_token=config.token,
    )


async def start_live_board(service: JarmoService, config: BotConfig) -> web.AppRunner:
    """Serve the live board for ``service`` where ``[web]`` says, hearing every process's
    changes of games while it runs; stop it with ``runner.cleanup()``."""
    app = create_web_app(
        service,
        feed=service.feed,
        spectators=service.spectators,
        secret=service.web_secret,
        settings=web_settings(config),
    )

    async def stop_hearing(_app: web.Application) -> None:
        await service.feed.stop()

    app.on_cleanup.append(stop_hearing)
    await service.feed.start()
    try:
        runner = await start_web_server(app, config.web.address, config.web.port)
    except BaseException:
        await service.feed.stop()
        raise
    log.info("the live board listens on %s port %d", config.web.address, bound_port(runner))
    return runner


async def run_web(config: BotConfig) -> None:
    """The live board alone, until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    store = await open_database(config.store_target)
    try:
        service = JarmoService(store, config=config.service_config())
        runner = await start_live_board(service, config)
        try:
            await stop.wait()
            log.info("shutting down")
        finally:
            await runner.cleanup()
    finally:
        await store.close()
