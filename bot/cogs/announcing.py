"""What the bot posts on its own, outside any interaction: the announcements of the outbox
(reminders, games lost on time, the computer's moves, tournaments' rounds, match welcomes and
final tables), expired challenges, and the computer's moves owed since the last start. They are
public, so they speak the server's language. The :class:`Announcer` cog runs the jobs that post
them while it is loaded."""

from __future__ import annotations

import asyncio
import functools
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cogs.audience import server_language
from bot.cogs.challenges import answered
from bot.cogs.clock import deadline_message
from bot.cogs.live_offer import live_board
from bot.cogs.pinging import send_direct
from bot.cogs.replies import announced_file, only_pinging, post_announced, report_message
from bot.cogs.tournaments import round_messages, table_messages, welcome_message
from bot.cogs.words import discord_voice, discord_words
from bot.service import ChallengeView
from bot.service.delivery import (
    AnnouncementDelivery,
    ClockNotice,
    ComputerMoveNotice,
    Delivery,
    PingNotice,
    RoundNotice,
    TableNotice,
    Undeliverable,
    VacationNotice,
    WelcomeNotice,
    direct_to,
    idempotency_token,
)
from bot.service.jobs import Job
from bot.words import away_notice, back_notice

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)
EXPIRY_SWEEP_SECONDS = 30
# How far back a computer's move is looked for before it is posted again: the messages of a
# channel since its move was stored, at most this many of the latest.
HISTORY_LOOKBACK = 50
CLOCK_SKEW = timedelta(minutes=1)  # between the bot's clock and Discord's


class Announcer(commands.Cog):
    """Posts what no interaction asked for: the outbox's announcements, expired challenges and
    the computer's moves owed since the bot last stopped. Its jobs run while it is loaded."""

    def __init__(self, bot: JarmoBot) -> None:
        self.bot = bot
        self._jobs: list[asyncio.Task[None]] = []

    async def cog_load(self) -> None:
        delivery = AnnouncementDelivery(
            self.bot.service, self.post_announcement, shard_zero=self.bot.owns_server(None)
        )
        start = self.bot.jobs.start
        self._jobs = [
            start(Job("expiring challenges", self.expire_challenges_once, _every_sweep)),
            start(Job("announcements", delivery.deliver_due, delivery.wait)),
            start(Job("the computer's pending moves", self.computer_catches_up)),
        ]

    async def cog_unload(self) -> None:
        jobs, self._jobs = self._jobs, []
        await self.bot.jobs.stop(self.bot.job_stop_seconds, only=jobs)

    async def post_announcement(self, delivery: Delivery) -> None:
        """Post an announcement from the outbox: in its game's channel a reminder, a game lost
        on time with its final board, or the computer's move; a tournament's round or final
        table in its channel, a match's welcome in its thread."""
        user_id = direct_to(delivery)
        if user_id is not None:
            if not isinstance(delivery, PingNotice | ClockNotice):
                raise Undeliverable(f"{delivery.entry.key} cannot go to a user")
            await send_direct(self.bot, delivery, user_id)
            return
        channel_id, messages = await announcement_messages(self.bot, delivery)
        channel = self.bot.get_partial_messageable(channel_id)
        key = delivery.entry.key
        if isinstance(delivery, ComputerMoveNotice) and await self.already_shown(delivery):
            log.info("announcement %s is already in channel %s; not posted again", key, channel_id)
            return
        try:
            for index, message in enumerate(messages):
                # The nonce makes Discord keep one message if this announcement is posted twice
                # (its lease ran out, or a process died between posting and settling).
                nonce = idempotency_token(key if index == 0 else f"{key}#{index}")
                await channel.send(**message, nonce=nonce)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"channel {channel_id}: {exc}") from exc

    async def already_shown(self, delivery: ComputerMoveNotice) -> bool:
        """Whether the computer's move is in its channel already: posted as the player's
        follow-up (which Discord takes without a nonce) by a process that died before it could
        settle the announcement. Its board's file name says so."""
        entry = delivery.entry
        channel = self.bot.get_partial_messageable(entry.channel_id)
        filename, me = announced_file(entry.key), self.bot.user
        if me is None:  # not logged in: nothing of ours can be read
            return False
        try:
            async for message in channel.history(limit=HISTORY_LOOKBACK):
                if message.created_at < entry.created_at - CLOCK_SKEW:
                    return False  # older than the move itself
                names = {attachment.filename for attachment in message.attachments}
                if message.author.id == me.id and filename in names:
                    return True
        except discord.HTTPException as exc:  # posted then; a recent repeat has its nonce still
            log.warning("could not read channel %s's messages: %s", entry.channel_id, exc)
        return False

    async def expire_challenges_once(self) -> list[ChallengeView]:
        """Mark overdue challenges expired and say so on their messages."""
        expired = await self.bot.service.challenges.expire_overdue()
        for view in expired:
            record = view.challenge
            if record.message_id is None:
                continue
            message = self.bot.get_partial_messageable(record.channel_id).get_partial_message(
                record.message_id
            )
            text = await expired_text(self.bot, view)
            try:
                await message.edit(content=text, view=None, allowed_mentions=only_pinging())
            except discord.HTTPException as exc:
                log.warning(
                    "could not mark challenge %s expired on its message: %s", record.id, exc
                )
        return expired

    async def computer_catches_up(self) -> None:
        """Games left waiting for the computer's move when the bot stopped get it now (in the
        servers of this process's shards)."""
        bot = self.bot
        for place in await bot.service.computer_turns.awaiting(owns=bot.owns_server):
            try:
                report = await bot.computer.reply(place)
                if report is not None:
                    channel = bot.get_partial_messageable(place.channel_id)
                    send = channel.send
                    if report.announcement is not None:  # the delivery loop may post it too
                        nonce = idempotency_token(report.announcement)
                        send = functools.partial(channel.send, nonce=nonce)
                    language = await server_language(bot, place.guild_id)
                    live = await live_board(bot, report)
                    await post_announced(report, send, bot.service, language, live=live)
            except Exception:
                log.exception("the computer could not move in channel %s", place.channel_id)


async def _every_sweep() -> None:
    await asyncio.sleep(EXPIRY_SWEEP_SECONDS)


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
            filename = announced_file(delivery.entry.key)
            live = await live_board(bot, report)
            message = await report_message(report, language, filename=filename, live=live)
            return channel_id, [message]
        case RoundNotice(round=view):
            return channel_id, round_messages(view, language)
        case WelcomeNotice(welcome=welcome):
            return welcome.channel_id, [await welcome_message(welcome, language)]
        case TableNotice(table=table):
            return channel_id, await table_messages(table, language)
        case PingNotice():  # a direct message's: see ``send_direct``
            raise Undeliverable(f"{delivery.entry.key} goes to a user, not a channel")
        case VacationNotice():
            return channel_id, [vacation_message(delivery, language)]


def vacation_message(notice: VacationNotice, language: str | None) -> dict[str, Any]:
    """A player's vacation told in a game's channel: its start and a return to the opponent,
    an end when the days ran out to the player, as a reminder is."""
    voice = discord_voice(language)
    player, opponent = notice.user_id, notice.opponent_id
    if notice.ends_at is not None:
        text = away_notice(player, opponent, notice.ends_at, voice)
        return {"content": text, "allowed_mentions": only_pinging(opponent)}
    text = back_notice(
        player, opponent, automatic=notice.automatic, deadline=notice.deadline_at, voice=voice
    )
    return {
        "content": text,
        "allowed_mentions": only_pinging(player if notice.automatic else opponent),
    }


async def expired_text(bot: JarmoBot, view: ChallengeView) -> str:
    """The text of a challenge that expired without an answer."""
    language = await server_language(bot, view.challenge.guild_id)
    note = discord_words(language).gettext("**Expired** without an answer.")
    return f"{answered(view, language)}\n{note}"
