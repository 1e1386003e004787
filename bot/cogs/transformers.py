"""Options that turn what a player typed into a value of the game: a move and a point. Each
refuses unreadable text privately (the tree's ``on_error`` answers the refusal) and suggests,
as the player types, the actions they can play right now."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs.guards import place_of
from bot.jarmo import Action
from bot.service import read_action, read_point

if TYPE_CHECKING:
    from bot.client import JarmoBot

Choices = list[app_commands.Choice[int | float | str]]


class MoveTransformer(app_commands.Transformer["JarmoBot"]):
    """A move in any accepted notation (``A1-C2``, ``a1 c2``, ``@B1``, ``D3-E5@B1``)."""

    @property
    def min_value(self) -> int:
        return 1  # characters, for a text option

    @property
    def max_value(self) -> int:
        return 20

    async def transform(self, interaction: discord.Interaction[JarmoBot], value: str, /) -> Action:
        """The parsed action; ``BadMove`` saying what was expected if it cannot be read."""
        return read_action(value)

    async def autocomplete(
        self, interaction: discord.Interaction[JarmoBot], value: int | float | str, /
    ) -> Choices:
        """The player's legal moves that start like what they typed (none off turn)."""
        moves = await interaction.client.service.play.move_suggestions(
            place_of(interaction), interaction.user.id, str(value)
        )
        return [app_commands.Choice(name=move, value=move) for move in moves]


class PointTransformer(app_commands.Transformer["JarmoBot"]):
    """A point of the board, such as ``B1`` (``b1`` and ``@B1`` work too)."""

    @property
    def min_value(self) -> int:
        return 1  # characters, for a text option

    @property
    def max_value(self) -> int:
        return 5

    async def transform(self, interaction: discord.Interaction[JarmoBot], value: str, /) -> str:
        """The point's canonical name; ``BadMove`` saying what was expected if it is none."""
        return read_point(value)

    async def autocomplete(
        self, interaction: discord.Interaction[JarmoBot], value: int | float | str, /
    ) -> Choices:
        """The camp points the player may redeploy or place on right now."""
        points = await interaction.client.service.play.redeploy_suggestions(
            place_of(interaction), interaction.user.id, str(value)
        )
        return [app_commands.Choice(name=point, value=point) for point in points]


class OneOf(app_commands.Transformer["JarmoBot"]):
    """An option whose choices are a domain's own constants (the engine's rulesets or match
    lengths, say), so a command offers exactly what the service accepts and no list is kept
    twice. The values are all text or all whole numbers; each is shown as itself."""

    def __init__(self, values: Iterable[str] | Iterable[int]) -> None:
        self._values: tuple[str | int, ...] = tuple(values)

    @property
    def type(self) -> discord.AppCommandOptionType:
        if all(isinstance(value, int) for value in self._values):
            return discord.AppCommandOptionType.integer
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> Choices:
        return [app_commands.Choice(name=str(value), value=value) for value in self._values]

    async def transform(
        self, interaction: discord.Interaction[JarmoBot], value: str | int, /
    ) -> str | int:
        """The chosen value (Discord offers only the choices)."""
        return value
