"""A move's public answer is acknowledged within its budget, whatever the interaction's age says."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import discord

from bot.cogs.replies import ACKNOWLEDGE_BY_SECONDS, answer_in_time


class _Response:
    def __init__(self, calls: list[str], deferred: asyncio.Event) -> None:
        self.calls, self.deferred = calls, deferred

    async def defer(self, *, thinking: bool) -> None:
        self.calls.append(f"defer thinking={thinking}")
        self.deferred.set()

    async def send_message(self, **message: Any) -> None:
        self.calls.append("send_message")


class _Followup:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    async def send(self, **message: Any) -> None:
        self.calls.append(f"followup {message['content']}")


class _Interaction:
    """The parts of an interaction that ``answer_in_time`` uses."""

    def __init__(self, created_at: datetime) -> None:
        self.created_at = created_at
        self.calls: list[str] = []
        self.deferred = asyncio.Event()
        self.response = _Response(self.calls, self.deferred)
        self.followup = _Followup(self.calls)

    async def delete_original_response(self) -> None:
        self.calls.append("delete thinking")


async def test_a_clock_behind_discords_still_defers_within_the_budget() -> None:
    # Discord's snowflake says the interaction was created a minute from now (this machine's
    # clock runs behind): the deferral must still come within the budget, not a minute later.
    interaction = _Interaction(datetime.now(UTC) + timedelta(minutes=1))
    ready = asyncio.Event()

    async def slow_move() -> tuple[str, dict[str, Any]]:
        await ready.wait()
        return "report", {"content": "the board"}

    answering = asyncio.create_task(
        answer_in_time(cast(discord.Interaction[Any], interaction), slow_move())
    )
    await asyncio.wait_for(interaction.deferred.wait(), timeout=ACKNOWLEDGE_BY_SECONDS + 4)
    ready.set()
    assert await asyncio.wait_for(answering, timeout=5) == "report"
    assert interaction.calls == ["defer thinking=True", "delete thinking", "followup the board"]


async def test_a_ready_answer_is_sent_as_the_response() -> None:
    interaction = _Interaction(datetime.now(UTC))

    async def quick_move() -> tuple[str, dict[str, Any]]:
        return "report", {"content": "the board"}

    assert (
        await answer_in_time(cast(discord.Interaction[Any], interaction), quick_move()) == "report"
    )
    assert interaction.calls == ["send_message"]
