"""What the bot posts on its own, outside any interaction: the announcements of the outbox
(reminders, games lost on time, the computer's moves, tournaments' rounds, match welcomes and
final tables) and expired challenges. They are public, so they speak the server's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.cogs.audience import server_language
from bot.cogs.challenges import answered
from bot.cogs.clock import deadline_message
from bot.cogs.replies import report_message
from bot.cogs.tournament import round_messages, table_messages, welcome_message
from bot.cogs.words import discord_words
from bot.service import ChallengeView
from bot.service.delivery import Delivery

if TYPE_CHECKING:
    from bot.client import JarmoBot


async def announcement_message(bot: JarmoBot, delivery: Delivery) -> dict[str, Any]:
    """Keyword arguments for the channel message of an announcement from the outbox."""
    language = await server_language(bot, delivery.entry.guild_id)
    if delivery.event is not None:
        return await deadline_message(delivery.event, language)
    assert delivery.report is not None  # an announcement is an event or a report
    return await report_message(delivery.report, language)


async def tournament_post(bot: JarmoBot, delivery: Delivery) -> tuple[int, list[dict[str, Any]]]:
    """Where a tournament's announcement goes (the tournament's channel, or a match's thread)
    and its messages, in order."""
    language = await server_language(bot, delivery.entry.guild_id)
    if delivery.round is not None:
        return delivery.entry.channel_id, round_messages(delivery.round, language)
    if delivery.welcome is not None:
        welcome = delivery.welcome
        return welcome.channel_id, [await welcome_message(welcome, language)]
    assert delivery.table is not None  # a tournament post is a round, a welcome or a table
    return delivery.entry.channel_id, await table_messages(delivery.table, language)


def is_tournament_post(delivery: Delivery) -> bool:
    """Whether ``delivery`` is a tournament's round, match welcome or final table."""
    return any(part is not None for part in (delivery.round, delivery.welcome, delivery.table))


async def expired_text(bot: JarmoBot, view: ChallengeView) -> str:
    """The text of a challenge that expired without an answer."""
    language = await server_language(bot, view.challenge.guild_id)
    note = discord_words(language).gettext("**Expired** without an answer.")
    return f"{answered(view, language)}\n{note}"
