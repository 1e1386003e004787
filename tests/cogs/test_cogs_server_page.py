"""A server's web page from Discord, at the cog: ``/jarmo server web on`` answers a manager with
a link that reads back to the server, only where the bot serves pages; the leaderboard carries
a button to the page while the server shows it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.cogs.servers import ServerCommands
from bot.cogs.stats import StatsCommands
from bot.cogs.tree import Unwelcome
from bot.cogs.watching import NOT_SET_UP
from bot.config import WebConfig
from bot.service import JarmoService
from bot.service.errors import NotAllowed
from bot.web.tokens import read_server_token
from tests.cogs.test_cogs_watching import bot_of, interaction_of, service, store
from tests.ratings.ratings_helpers import ANN, BOB, play_resign

__all__ = ["service", "store"]  # the live board cog tests' fixtures: a real SQLite service


async def web_pages(interaction: Any, on: bool) -> None:
    command: Callable[..., Any] = ServerCommands.web_pages.callback
    await command(ServerCommands(), interaction, on)


async def leaderboard(interaction: Any) -> dict[str, Any]:
    command: Callable[..., Any] = StatsCommands.leaderboard.callback
    await command(StatsCommands(), interaction)
    return dict(interaction.response.send_message.await_args.kwargs)


def manager(service: JarmoService, web: WebConfig | None = None) -> Any:
    interaction = interaction_of(bot_of(service) if web is None else bot_of(service, web))
    interaction.permissions = discord.Permissions(manage_guild=True)
    return interaction


async def test_turning_the_page_on_answers_the_manager_with_a_link_to_the_server(
    service: JarmoService,
) -> None:
    interaction = manager(service)
    await web_pages(interaction, True)
    [text] = interaction.response.send_message.await_args.args
    link = text.splitlines()[-1]
    assert link.startswith("https://jarmo.example.org/server#")
    grant = read_server_token(await service.web_secret(), link.partition("#")[2], now=service.now())
    assert grant.guild_id == 1
    assert grant.expires_at - service.now() <= timedelta(days=7)
    assert (await service.servers.settings(1)).web_pages

    off = manager(service)
    await web_pages(off, False)
    [text] = off.response.send_message.await_args.args
    assert "Web page: off." in text and "/server#" not in text
    assert not (await service.servers.settings(1)).web_pages


async def test_the_page_cannot_be_turned_on_where_the_bot_serves_no_pages(
    service: JarmoService,
) -> None:
    interaction = manager(service, WebConfig())
    with pytest.raises(Unwelcome) as refused:
        await web_pages(interaction, True)
    assert refused.value.message == NOT_SET_UP
    assert not (await service.servers.settings(1)).web_pages


async def test_only_a_manager_turns_the_page_on(service: JarmoService) -> None:
    interaction = interaction_of(bot_of(service))
    interaction.permissions = discord.Permissions.none()
    with pytest.raises(NotAllowed):
        await web_pages(interaction, True)
    interaction.response.send_message.assert_not_called()


async def test_the_leaderboard_links_to_the_page_while_the_server_shows_it(
    service: JarmoService,
) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    assert "view" not in await leaderboard(interaction_of(bot_of(service)))
    await service.servers.set_web_pages(1, True, can_manage=True)
    message = await leaderboard(interaction_of(bot_of(service)))
    [button] = message["view"].children
    assert button.label == "Web page" and button.url.startswith("https://jarmo.example.org/server#")
    token = button.url.partition("#")[2]
    assert read_server_token(await service.web_secret(), token, now=service.now()).guild_id == 1
