"""Where an interaction happens decides what the bot may do there: a server the bot is in is
served as always; a DM, a group DM or a server where only a player installed the app is a place
outside servers, with no server id, where the commands that need the bot say so and a member
whose answers Discord would force private is told why."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest import mock

import discord
import pytest

from bot.cogs.guards import NEEDS_THE_BOT, ONLY_PRIVATELY, admit, place_of
from bot.service import Place

SERVED, ELSEWHERE, CHANNEL = 1001, 2002, 30
ALLOWED = discord.Permissions(send_messages=True, use_external_apps=True)


def interaction_in(
    guild_id: int | None,
    command: str = "jarmo move",
    permissions: discord.Permissions = ALLOWED,
) -> Any:
    """An interaction for ``command`` in channel ``CHANNEL`` of ``guild_id`` (None: a DM); the
    bot is in server ``SERVED`` only."""
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    served = {SERVED: object()}
    interaction.client = SimpleNamespace(get_guild=served.get, in_flight=mock.Mock())
    interaction.guild_id, interaction.channel_id = guild_id, CHANNEL
    interaction.type = discord.InteractionType.application_command
    interaction.command = SimpleNamespace(qualified_name=command)
    interaction.permissions = permissions
    interaction.locale = discord.Locale.british_english
    interaction.response = mock.create_autospec(discord.InteractionResponse, instance=True)
    interaction.user = mock.Mock(id=5)
    return interaction


@pytest.mark.parametrize(
    ("guild_id", "place"),
    [
        (SERVED, Place(SERVED, CHANNEL)),
        (None, Place(None, CHANNEL)),  # a DM or group DM
        (ELSEWHERE, Place(None, CHANNEL)),  # never attributed to a server the bot is not in
    ],
    ids=["served-server", "dm", "server-without-the-bot"],
)
def test_a_place_has_a_server_only_where_the_bot_is(guild_id: int | None, place: Place) -> None:
    found = place_of(interaction_in(guild_id))
    assert found == place
    assert found.bot_posts is (guild_id == SERVED)


@pytest.mark.parametrize("guild_id", [None, ELSEWHERE], ids=["dm", "server-without-the-bot"])
async def test_a_game_command_outside_servers_is_served(guild_id: int | None) -> None:
    interaction = interaction_in(guild_id, "jarmo move")
    assert await admit(interaction)
    interaction.client.in_flight.add_current.assert_called_once()
    interaction.response.send_message.assert_not_awaited()


@pytest.mark.parametrize(
    "command",
    ["jarmo tournament create", "jarmo server threads", "jarmo leaderboard", "jarmo abort"],
)
@pytest.mark.parametrize("guild_id", [None, ELSEWHERE], ids=["dm", "server-without-the-bot"])
async def test_what_needs_the_bot_in_the_server_says_so_privately(
    guild_id: int | None, command: str
) -> None:
    interaction = interaction_in(guild_id, command)
    assert not await admit(interaction)
    interaction.client.in_flight.add_current.assert_not_called()
    interaction.response.send_message.assert_awaited_once_with(NEEDS_THE_BOT, ephemeral=True)


async def test_what_needs_the_bot_runs_where_the_bot_is() -> None:
    assert await admit(interaction_in(SERVED, "jarmo tournament create"))


@pytest.mark.parametrize(
    "permissions",
    [
        discord.Permissions(send_messages=True),  # the server turned external apps off
        discord.Permissions(use_external_apps=True),  # the member may not post here
    ],
    ids=["external-apps-off", "no-send-messages"],
)
async def test_a_server_that_would_force_answers_private_is_told_why(
    permissions: discord.Permissions,
) -> None:
    interaction = interaction_in(ELSEWHERE, "jarmo challenge", permissions)
    assert not await admit(interaction)
    interaction.response.send_message.assert_awaited_once_with(ONLY_PRIVATELY, ephemeral=True)


async def test_a_server_with_the_bot_is_served_whatever_its_external_apps_setting() -> None:
    assert await admit(interaction_in(SERVED, "jarmo challenge", discord.Permissions.none()))
