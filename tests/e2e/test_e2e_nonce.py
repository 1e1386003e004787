"""Exactly-once posting through real HTTP: the bot sends an announcement with a nonce and
``enforce_nonce``, and the loopback fake, like Discord, answers a second post of it with the
first message instead of showing it twice (a lease that ran out, or a process that died between
posting and settling the outbox entry)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

import bot.cogs.announcing as announcing
from bot.client import JarmoBot
from bot.config import BotConfig
from bot.service.deadlines import event_from_post
from bot.service.delivery import ClockNotice, Delivery, idempotency_token
from bot.store import ChannelAddress, OutboxEntry, ReminderPost
from tests.e2e.fake_discord import FakeDiscord

DEADLINE = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """A fake, with discord.py's REST calls in this process sent to it."""
    server = FakeDiscord().start()
    base = discord.http.Route.BASE
    discord.http.Route.BASE = server.api_base_url
    try:
        yield server
    finally:
        discord.http.Route.BASE = base
        server.close()


def reminder(key: str, channel_id: int) -> Delivery:
    entry = OutboxEntry(
        id=1,
        key=key,
        kind="reminder",
        guild_id=1 << 22,
        address=ChannelAddress(channel_id),
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


async def test_an_announcement_posted_twice_shows_once(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def words(bot: JarmoBot, delivery: Delivery) -> tuple[int, list[dict[str, Any]]]:
        # The wording is not at stake here.
        return delivery.entry.channel_id, [{"content": f"about {delivery.entry.key}"}]

    monkeypatch.setattr(announcing, "announcement_messages", words)
    general = fake.world.channel("general")
    bot = JarmoBot(BotConfig(), serve=False)
    await bot.login(fake.token)
    try:
        for key in ("reminder:7:3:1", "reminder:7:3:1", "reminder:7:4:1"):
            await announcing.Announcer(bot).post_announcement(reminder(key, general.id))
    finally:
        await bot.close()

    shown = [m.content for m in fake.channel_messages(general)]
    assert shown == ["about reminder:7:3:1", "about reminder:7:4:1"]
    assert fake.repeated_nonces == [idempotency_token("reminder:7:3:1")]
    assert not fake.take_problems()


def test_without_enforce_nonce_a_repeated_nonce_is_a_new_message(fake: FakeDiscord) -> None:
    general = fake.world.channel("general")

    def post(body: dict[str, Any]) -> int:
        request = urllib.request.Request(
            f"{fake.api_base_url}/channels/{general.id}/messages",
            data=json.dumps(body | {"allowed_mentions": {"parse": []}}).encode(),
            method="POST",
        )
        request.add_header("Authorization", f"Bot {fake.token}")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(json.load(answer)["id"])

    first = post({"content": "a", "nonce": "n1"})
    second = post({"content": "a", "nonce": "n1"})
    enforced = post({"content": "b", "nonce": "n2", "enforce_nonce": True})
    again = post({"content": "b", "nonce": "n2", "enforce_nonce": True})
    assert first != second and enforced == again
    assert [m.content for m in fake.channel_messages(general)] == ["a", "a", "b"]
