"""The bot's side of exactly-once posting: an announcement goes to Discord with a nonce made
from its outbox key, so that a second post of it (its lease ran out, or a process died between
posting and settling) is recognised by Discord and not shown twice."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import bot.cogs.announcing as announcing
from bot.client import JarmoBot
from bot.config import BotConfig
from bot.service.deadlines import event_from_post
from bot.service.delivery import (
    ClockNotice,
    Delivery,
    TableNotice,
    Undeliverable,
    idempotency_token,
)
from bot.store import ChannelAddress, OutboxEntry, ReminderPost

DEADLINE = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)


class Channel:
    """Records what the bot sends to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, **message: Any) -> None:
        self.sent.append(message)


def reminder(key: str) -> Delivery:
    entry = OutboxEntry(
        id=1,
        key=key,
        kind="reminder",
        guild_id=1 << 22,
        address=ChannelAddress(10),
        game_id=7,
        payload={
            "due_at": DEADLINE.replace(hour=12, minute=30).isoformat(),
            "user_id": 101,
            "deadline_at": DEADLINE.isoformat(),
        },
        created_at=DEADLINE,
        attempts=1,
        lease="a claim",
    )
    post = entry.post
    assert isinstance(post, ReminderPost)
    return ClockNotice(entry, event_from_post(entry, post))


async def test_the_same_announcement_is_posted_with_the_same_nonce(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    channel = Channel()
    monkeypatch.setattr(bot, "get_partial_messageable", lambda channel_id: channel)

    async def words(bot: JarmoBot, delivery: Delivery) -> tuple[int, list[dict[str, Any]]]:
        # The wording is not at stake here.
        return delivery.entry.channel_id, [{"content": f"about {delivery.entry.key}"}]

    monkeypatch.setattr(announcing, "announcement_messages", words)
    for key in ("reminder:7:3:1", "reminder:7:3:1", "reminder:7:4:1"):
        await announcing.Announcer(bot).post_announcement(reminder(key))
    nonces = [message["nonce"] for message in channel.sent]
    assert nonces[0] == nonces[1] == idempotency_token("reminder:7:3:1")
    assert nonces[2] != nonces[0]
    assert all(len(nonce) <= 25 for nonce in nonces)  # Discord's limit
    assert channel.sent[0]["content"] == "about reminder:7:3:1"


class GoneChannel:
    """A channel Discord no longer knows (deleted with its tournament, say)."""

    async def send(self, **message: Any) -> None:
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Channel")


def final_table(key: str) -> Delivery:
    entry = OutboxEntry(
        id=2,
        key=key,
        kind="final_table",
        guild_id=1 << 22,
        address=ChannelAddress(10),
        game_id=None,
        payload={"tournament_id": 1},
        created_at=DEADLINE,
        attempts=1,
        lease="a claim",
    )
    return TableNotice(entry, SimpleNamespace())  # type: ignore[arg-type]  # a table never read here


async def test_each_message_of_a_long_post_has_its_own_nonce_and_a_gone_channel_is_final(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    channel = Channel()
    monkeypatch.setattr(bot, "get_partial_messageable", lambda channel_id: channel)

    async def table_in_two(bot: JarmoBot, delivery: Delivery) -> tuple[int, list[dict[str, Any]]]:
        return 10, [{"content": "the table"}, {"content": "the rest of it"}]

    monkeypatch.setattr(announcing, "announcement_messages", table_in_two)
    await announcing.Announcer(bot).post_announcement(final_table("final_table:1"))
    nonces = [message["nonce"] for message in channel.sent]
    assert nonces[0] == idempotency_token("final_table:1") and len(set(nonces)) == 2

    monkeypatch.setattr(bot, "get_partial_messageable", lambda channel_id: GoneChannel())
    with pytest.raises(Undeliverable, match="channel 10"):
        await announcing.Announcer(bot).post_announcement(final_table("final_table:1"))
