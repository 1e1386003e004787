"""The live board in Discord, at the cog: ``/jarmo watch`` says why it cannot link where the
bot serves no live board, a board message shows its watchers and the **Play live** button
only when asked to, and what a board shows is asked of the service only where the bot serves
a live board to a server that allows watching."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import discord
import pytest

from bot.cogs.live_offer import LiveBoard, live_board, watchers_line
from bot.cogs.replies import report_message
from bot.cogs.tree import Unwelcome
from bot.cogs.watching import NO_ACTIVITY, NOT_SET_UP, WATCHING_OFF, PlayLiveButton, WatchCommands
from bot.config import BotConfig, WebConfig
from bot.jarmo import Action
from bot.service import Actor, ChallengeRequest, JarmoService, Place, Report, ServiceConfig
from bot.store import SqliteStore, open_store
from bot.web.tokens import read_watch_token
from tests.fakes import FakeClock

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
HERE = Place(guild_id=1, channel_id=10)
LIVE = WebConfig(
    enabled=True,
    public_url="https://jarmo.example.org",
    activity=True,
    client_id=555,
    client_secret="client-secret",
)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock) -> JarmoService:
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))


def bot_of(service: Any, web: WebConfig = LIVE) -> Any:
    return SimpleNamespace(
        service=service, config=BotConfig(web=web), get_guild=lambda guild_id: object()
    )


def interaction_of(bot: Any) -> Any:
    """An interaction from Bob in the test's channel, recording what it was answered."""
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    interaction.client = bot
    interaction.user = mock.Mock(id=BOB.user_id, display_name=BOB.display_name, bot=False)
    interaction.guild_id, interaction.channel_id = HERE.guild_id, HERE.channel_id
    interaction.locale = interaction.guild_locale = discord.Locale.british_english
    interaction.created_at = datetime.now(UTC)
    interaction.response = mock.create_autospec(discord.InteractionResponse, instance=True)
    return interaction


async def first_move(service: JarmoService) -> Report:
    """Ann (White) and Bob play; Ann has moved."""
    request = ChallengeRequest(BOB, games=1, ruleset="classic", side="white")
    view = await service.challenges.post(HERE, ANN, request)
    await service.challenges.accept(BOB, view.challenge.id)
    return await service.play.move(HERE, ANN, Action.parse("A1-C2"))


async def watch(interaction: Any) -> None:
    command: Callable[..., Any] = WatchCommands.watch.callback
    await command(WatchCommands(), interaction)


@pytest.mark.parametrize(
    "web",
    [WebConfig(), WebConfig(enabled=True), WebConfig(public_url="https://jarmo.example.org")],
)
async def test_watch_says_the_live_board_is_not_set_up_without_its_address_or_switch(
    service: JarmoService, web: WebConfig
) -> None:
    await first_move(service)
    interaction = interaction_of(bot_of(service, web))
    with pytest.raises(Unwelcome) as refused:
        await watch(interaction)
    assert refused.value.message == NOT_SET_UP
    interaction.response.send_message.assert_not_called()


async def test_watch_answers_privately_with_a_link_for_the_game_and_the_asker(
    service: JarmoService, clock: FakeClock
) -> None:
    report = await first_move(service)
    interaction = interaction_of(bot_of(service))
    await watch(interaction)
    [text] = interaction.response.send_message.await_args.args
    assert interaction.response.send_message.await_args.kwargs == {"ephemeral": True}
    link = text.splitlines()[-1]
    assert link.startswith("https://jarmo.example.org/watch#")
    token = link.partition("#")[2]
    grant = read_watch_token(await service.web_secret(), token, now=service.now())
    assert (grant.game_id, grant.user_id) == (report.board.game.id, BOB.user_id)
    lifetime = grant.expires_at - service.now()
    assert timedelta(hours=24) - timedelta(seconds=1) < lifetime <= timedelta(hours=24)


async def test_watch_is_refused_where_the_server_turned_watching_off(
    service: JarmoService,
) -> None:
    await first_move(service)
    await service.servers.set_watching(1, False, can_manage=True)
    with pytest.raises(Unwelcome) as refused:
        await watch(interaction_of(bot_of(service)))
    assert refused.value.message == WATCHING_OFF


async def test_play_live_is_refused_without_the_activity_and_never_launches(
    service: JarmoService,
) -> None:
    report = await first_move(service)
    without_secret = WebConfig(enabled=True, activity=True, client_id=555)
    for web in (WebConfig(enabled=True), without_secret):
        interaction = interaction_of(bot_of(service, web))
        with pytest.raises(Unwelcome) as refused:
            await PlayLiveButton(report.board.game.id).handle(interaction)
        assert refused.value.message == NO_ACTIVITY
        interaction.response.launch_activity.assert_not_called()
    launched = interaction_of(bot_of(service))
    await PlayLiveButton(report.board.game.id).handle(launched)
    launched.response.launch_activity.assert_awaited_once_with()


async def test_the_board_shows_its_watchers_and_offers_play_live_only_when_asked(
    service: JarmoService,
) -> None:
    report = await first_move(service)
    plain = await report_message(report)
    assert [item.label for item in plain["view"].children] == ["Move"]
    assert plain["embeds"][-1].footer.text is None
    nobody = await report_message(report, live=LiveBoard(0, play_live=False))
    assert nobody["embeds"][-1].footer.text is None
    assert len(nobody["view"].children) == 1
    live = await report_message(report, live=LiveBoard(3, play_live=True))
    assert live["embeds"][-1].footer.text == "👁 3 watching"
    labels = [item.label for item in live["view"].children]
    assert labels == ["Move", "Play live"]
    assert live["view"].children[1].custom_id == f"jarmo:live:{report.board.game.id}"


async def test_what_a_board_shows_is_asked_only_where_the_bot_serves_a_live_board(
    service: JarmoService,
) -> None:
    report = await first_move(service)
    untouchable = mock.Mock(spec=[])  # any use of the service fails
    assert await live_board(bot_of(untouchable, WebConfig()), report) is None
    await service.spectators.report(report.board.game.id, 2)
    assert await live_board(bot_of(service), report) == LiveBoard(2, play_live=True)
    no_activity = WebConfig(enabled=True, public_url="https://jarmo.example.org")
    assert await live_board(bot_of(service, no_activity), report) == LiveBoard(2)
    await service.servers.set_watching(1, False, can_manage=True)
    assert await live_board(bot_of(service), report) is None


@pytest.mark.parametrize(
    ("language", "count", "line"),
    [("en", 1, "👁 1 watching"), ("pl", 2, "👁 2 oglądają"), ("pl", 5, "👁 5 ogląda")],
)
def test_the_watchers_are_counted_in_the_readers_grammar(
    language: str, count: int, line: str
) -> None:
    assert watchers_line(count, language) == line
