"""Answering a click on Rematch: a challenge with the same settings and sides swapped, which the
opponent answers as any challenge; against the computer the rematch starts at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.cogs.audience import channel_language
from bot.cogs.challenges import post_challenge
from bot.cogs.guards import place_of
from bot.cogs.items import JarmoItem
from bot.cogs.rematch_offer import REMATCH_ID, rematch_button
from bot.cogs.replies import actor_of, computer_answers, report_message
from bot.service import Actor, Report
from bot.service.rematches import MemberLookup, RematchStarted

if TYPE_CHECKING:
    from bot.client import JarmoBot


class RematchButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=REMATCH_ID,
):
    """Rematch, under the message that ends a match (either player may click it)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(rematch_button(match_id))
        self.match_id = match_id
        self.what = "rematch"

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        service = interaction.client.service
        rematch = await service.rematches.offer(
            actor_of(interaction),
            self.match_id,
            _members_of(interaction),
            here=place_of(interaction),
        )
        if isinstance(rematch, RematchStarted):
            started = Report(interaction.user.id, None, rematch.board)
            await interaction.response.send_message(
                **await report_message(started, await channel_language(interaction))
            )
            await computer_answers(interaction, started)
            return
        await post_challenge(interaction, rematch.challenge)


def _members_of(interaction: discord.Interaction[JarmoBot]) -> MemberLookup:
    """Looks a player up among the server's members now (Discord asked: the bot does not
    cache members), ``None`` for one who left."""

    async def member(user_id: int) -> Actor | None:
        guild = interaction.guild
        if guild is None:
            return None
        try:
            found = await guild.fetch_member(user_id)
        except discord.NotFound:
            return None
        return Actor(found.id, found.display_name, found.bot)

    return member
