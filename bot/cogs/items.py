"""The base of the persistent components (``DynamicItem``s: their state lives in the custom id,
``jarmo:<kind>:…``, so they keep working after a restart), and helpers they share."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.guards import admit
from bot.cogs.tree import ComponentError
from bot.service import Offer

if TYPE_CHECKING:
    from bot.client import JarmoBot


class JarmoItem:
    """Put first in the bases of every ``discord.ui.DynamicItem`` of the bot. It admits only
    interactions from servers the bot is in (the command tree's check does not cover
    components), and hands any failure of ``handle`` to the command tree's ``on_error``."""

    what: str = "component"  # names the component in the log

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only interactions from a server the bot is in run the callback."""
        return await admit(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run ``handle``; a failure is answered by the tree, as a command's would be."""
        try:
            await self.handle(interaction)
        except Exception as error:
            bot: JarmoBot = interaction.client
            await bot.tree.on_error(interaction, ComponentError(error, self.what))

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Answer the click (or choice)."""
        raise NotImplementedError


def single(item: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding one persistent item."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return view


def offer_template(kind: str) -> str:
    """The custom-id pattern of the button that accepts an ``Offer`` of this kind."""
    return rf"jarmo:{kind}:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<by>[0-9]+):(?P<to>[0-9]+)"


def offer_button(kind: str, label: str, offer: Offer) -> discord.ui.Button[discord.ui.View]:
    """The button that accepts ``offer``; everything needed to check it is in its custom id."""
    custom_id = f"jarmo:{kind}:{offer.game_id}:{offer.version}:{offer.offered_by}:{offer.answer_by}"
    return discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=custom_id)


def offer_from(match: re.Match[str]) -> Offer:
    """The ``Offer`` an offer button's custom id carries."""
    return Offer(int(match["game"]), int(match["version"]), int(match["by"]), int(match["to"]))
