"""Who runs tournaments: server managers, and the role named in the configuration."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast
from unittest import mock

import discord
import pytest

from bot.client import JarmoBot
from bot.cogs.tournaments import can_run_tournaments
from bot.config import BotConfig, ConfigError, load_config

ROLE = 1234567890


def interaction(
    *, manage_guild: bool, roles: tuple[int, ...], configured: int | None
) -> discord.Interaction[JarmoBot]:
    member = mock.Mock(spec=discord.Member)
    member.get_role.side_effect = lambda role_id: object() if role_id in roles else None
    stand_in = SimpleNamespace(
        permissions=discord.Permissions(manage_guild=manage_guild),
        user=member,
        client=SimpleNamespace(config=BotConfig(tournament_role_id=configured)),
    )
    # Only what the check reads: permissions, the member's roles and the configuration.
    return cast(discord.Interaction[JarmoBot], stand_in)


@pytest.mark.parametrize(
    ("manage_guild", "roles", "configured", "allowed"),
    [
        (True, (), None, True),
        (False, (), None, False),
        (False, (ROLE,), None, False),  # no role configured: the role means nothing
        (False, (ROLE,), ROLE, True),
        (False, (ROLE + 1,), ROLE, False),
    ],
)
def test_managers_and_the_configured_role_run_tournaments(
    manage_guild: bool, roles: tuple[int, ...], configured: int | None, allowed: bool
) -> None:
    asked = interaction(manage_guild=manage_guild, roles=roles, configured=configured)
    assert can_run_tournaments(asked) is allowed


def test_the_role_is_read_from_the_discord_section(tmp_path: Path) -> None:
    path = tmp_path / "jarmo.toml"
    path.write_text(f"[discord]\ntournament_role = {ROLE}\n")
    assert load_config(path, env={}).tournament_role_id == ROLE

    path.write_text('[discord]\ntournament_role = "moderators"\n')
    with pytest.raises(ConfigError, match="role ID"):
        load_config(path, env={})
