"""The base of the persistent components (``DynamicItem``s: their state lives in the custom id,
``jarmo:<kind>:…``, so they keep working after a restart), and helpers they share."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.cogs.guards import admit
from bot.cogs.tree import ComponentError
from bot.service import Offer

if TYPE_CHECKING:
    from bot.client import JarmoBot


class CustomIdSpec:
    """The custom id of one kind of persistent component, ``jarmo:<kind>:<value>:…``, declared
    once as its fields in order: ``int`` for a whole number, else the pattern its text matches.
    It gives the ``DynamicItem``'s template, writes the ids and reads a click's values back."""

    def __init__(self, kind: str, **fields: type[int] | str) -> None:
        self.prefix = f"jarmo:{kind}:"
        self._fields = fields
        groups = (f"(?P<{name}>{'[0-9]+' if of is int else of})" for name, of in fields.items())
        self.template = self.prefix + ":".join(groups)

    def format(self, *values: object) -> str:
        """The id that holds ``values``, one for each field, in order."""
        return self.prefix + ":".join(map(str, values))

    def values(self, match: re.Match[str]) -> tuple[Any, ...]:
        """The values a match of the template holds, in order (whole numbers as ``int``)."""
        fields = self._fields.items()
        return tuple(int(match[name]) if of is int else match[name] for name, of in fields)


class JarmoItem:
    """Put first in the bases of every ``discord.ui.DynamicItem`` of the bot, with its
    ``custom_id=`` spec in place of a ``template=``. It admits only interactions from servers
    the bot is in (the command tree's check does not cover components), hands any failure of
    ``handle`` to the command tree's ``on_error``, and rebuilds the item from a clicked id by
    passing the spec's values to the constructor, in order."""

    what: str = "component"  # names the component in the log
    custom_id_spec: ClassVar[CustomIdSpec]

    def __init_subclass__(cls, *, custom_id: CustomIdSpec, **kwargs: Any) -> None:
        cls.custom_id_spec = custom_id
        kwargs["template"] = custom_id.template  # for DynamicItem, next in the bases
        super().__init_subclass__(**kwargs)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """The item a click on an id of this kind is for (discord.py calls it)."""
        return cls(*cls.custom_id_spec.values(match))

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


class OfferIds(CustomIdSpec):
    """The custom id of the button that accepts an ``Offer`` of one kind; its one value is the
    offer."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind, game=int, version=int, by=int, to=int)

    def values(self, match: re.Match[str]) -> tuple[Any, ...]:
        return (Offer(*super().values(match)),)


def offer_button(
    ids: CustomIdSpec,
    label: str,
    offer: Offer,
    style: discord.ButtonStyle = discord.ButtonStyle.primary,
) -> discord.ui.Button[discord.ui.View]:
    """The button that answers ``offer``; everything needed to check it is in its custom id."""
    custom_id = ids.format(offer.game_id, offer.version, offer.offered_by, offer.answer_by)
    return discord.ui.Button(label=label, style=style, custom_id=custom_id)
