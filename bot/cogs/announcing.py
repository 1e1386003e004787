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
from bot.service.delivery import (
    ClockNotice,
    ComputerMoveNotice,
    Delivery,
    RoundNotice,
    TableNotice,
    WelcomeNotice,
)

if TYPE_CHECKING:
    from bot.client import JarmoBot


async def announcement_messages(
    bot: JarmoBot, delivery: Delivery
) -> tuple[int, list[dict[str, Any]]]:
    """Where an announcement from the outbox goes (its channel, or for a match's welcome the
    match's thread) and the keyword arguments of its messages, in order."""
    language = await server_language(bot, delivery.entry.guild_id)
    channel_id = delivery.entry.channel_id
    match delivery:
        case ClockNotice(event=event):
            return channel_id, [await deadline_message(event, language)]
        case ComputerMoveNotice(report=report):
            return channel_id, [await report_message(report, language)]
        case RoundNotice(round=view):
            return channel_id, round_messages(view, language)
        case WelcomeNotice(welcome=welcome):
            return welcome.channel_id, [await welcome_message(welcome, language)]
        case TableNotice(table=table):
            return channel_id, await table_messages(table, language)


async def expired_text(bot: JarmoBot, view: ChallengeView) -> str:
    """The text of a challenge that expired without an answer."""
    language = await server_language(bot, view.challenge.guild_id)
    note = discord_words(language).gettext("**Expired** without an answer.")
    return f"{answered(view, language)}\n{note}"
