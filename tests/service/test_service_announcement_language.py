"""What the bot posts on its own (a reminder, the computer's move, an expired challenge) is
public: it speaks the server's chosen language, else the server's locale."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import cast

import discord
import pytest

from bot.client import JarmoBot
from bot.cogs.announcing import announcement_messages, expired_text
from bot.cogs.words import discord_voice
from bot.config import BotConfig
from bot.service import ChallengeRequest, JarmoService, read_action
from bot.service.deadlines import DeadlineEvent
from bot.service.delivery import ClockNotice, ComputerMoveNotice, Delivery
from bot.store import AnnouncementKind, ChannelAddress, OutboxEntry
from bot.words import reminder_text, report_text
from tests.service.service_helpers import ANN, BOB, GUILD, HERE

WHEN = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def bot_on(service: JarmoService, locale: discord.Locale | None = None) -> JarmoBot:
    """Just what the announcements read of the bot: its service, its configuration (no live
    board) and its servers' locales."""
    guild = SimpleNamespace(preferred_locale=locale) if locale else None
    bot = SimpleNamespace(service=service, config=BotConfig(), get_guild=lambda guild_id: guild)
    return cast(JarmoBot, bot)


def entry(kind: str, game_id: int = 1) -> OutboxEntry:
    # The kind is only a label here ("move" is none of the stored kinds): a delivery is worded
    # from the event or report it carries.
    return OutboxEntry(
        1,
        f"{kind}:1",
        cast(AnnouncementKind, kind),
        HERE.guild_id,
        ChannelAddress(HERE.channel_id),
        game_id,
        {},
        WHEN,
        1,
        "lease",
    )


def reminder() -> Delivery:
    event = DeadlineEvent(
        "reminder", WHEN, 1, HERE.guild_id, HERE.channel_id, ANN.user_id, WHEN + timedelta(hours=1)
    )
    return ClockNotice(entry("reminder"), event)


def reminded(language: str) -> str:
    return reminder_text(ANN.user_id, WHEN + timedelta(hours=1), discord_voice(language))


@pytest.mark.parametrize(
    ("setting", "locale", "language"),
    [
        ("pl", None, "pl"),
        ("pl", discord.Locale.german, "pl"),  # the server's choice comes first
        (None, discord.Locale.german, "de"),
        (None, None, "en"),
    ],
)
async def test_a_reminder_speaks_the_servers_language(
    service: JarmoService, setting: str | None, locale: discord.Locale | None, language: str
) -> None:
    if setting:
        await service.servers.set_language(GUILD, setting, can_manage=True)
    _, [message] = await announcement_messages(bot_on(service, locale), reminder())
    assert message["content"] == reminded(language)
    assert language == "en" or message["content"] != reminded("en")


async def test_the_computers_move_and_an_expiry_speak_it_too(service: JarmoService) -> None:
    await service.servers.set_language(GUILD, "de", can_manage=True)
    bot = bot_on(service, discord.Locale.polish)
    challenge = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB, side="white"))
    await service.challenges.accept(BOB, challenge.challenge.id)
    report = await service.play.move(HERE, ANN, read_action("A1-C2"))
    _, [message] = await announcement_messages(bot, ComputerMoveNotice(entry("move"), report))
    text = message["embeds"][0].description
    assert text == report_text(report, discord_voice("de")) != report_text(report, discord_voice())
    expired = await expired_text(bot, challenge)
    assert expired.endswith("\n**Abgelaufen** ohne Antwort.")
