"""What one move costs, counted on a real SQLite store: the SQL statements run and the board
images drawn for a move made on the click grid (the **Move** button, the piece, the target) and
for ``/jarmo move``, each driven through the cog as Discord would call it.

Each count starts warm, after a first move: the players' names, the server's settings and the
checked game are cached by then, as in a bot that has been running a while."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import discord
import pytest

from bot.cogs.grid import EarlierMoveButton, GridCell
from bot.cogs.play import PlayCommands
from bot.config import BotConfig
from bot.jarmo import Action
from bot.render import render_position
from bot.service import Actor, ChallengeRequest, JarmoService, Place, ServiceConfig, _views
from bot.store import SqliteStore, open_store
from tests.fakes import FakeClock
from tests.statements import traced

ANN = Actor(101, "Ann")
BOB = Actor(202, "Bob")
HERE = Place(guild_id=1, channel_id=10)
# No budget holds a statement for the ping: the players' turn pings come with the game's read.
GRID_MOVE_STATEMENTS = 6
GRID_MOVE_RENDERS = 2
COMMAND_MOVE_STATEMENTS = 4


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock) -> JarmoService:
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The perspective of every board image drawn from now on."""
    drawn: list[str] = []

    def counting(*args: Any, **kwargs: Any) -> bytes:
        drawn.append(kwargs["perspective"])
        return render_position(*args, **kwargs)

    monkeypatch.setattr(_views, "render_position", counting)
    return drawn


def interaction_of(service: JarmoService, actor: Actor) -> Any:
    """An interaction from ``actor`` in the test's channel, recording what it was answered."""
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    # The bot is in the server: get_guild finds it. It serves no live board.
    interaction.client = SimpleNamespace(
        service=service, config=BotConfig(), get_guild=lambda guild_id: object()
    )
    interaction.user = mock.Mock(id=actor.user_id, display_name=actor.display_name, bot=False)
    interaction.guild_id, interaction.channel_id = HERE.guild_id, HERE.channel_id
    interaction.locale = interaction.guild_locale = discord.Locale.british_english
    interaction.created_at = datetime.now(UTC)
    interaction.response = mock.create_autospec(discord.InteractionResponse, instance=True)
    interaction.followup = mock.create_autospec(discord.Webhook, instance=True)
    return interaction


async def start_game(service: JarmoService) -> None:
    """Ann (White) and Bob play; Ann has made the first move with ``/jarmo move``."""
    request = ChallengeRequest(BOB, games=1, ruleset="classic", side="white")
    view = await service.challenges.post(HERE, ANN, request)
    await service.challenges.accept(BOB, view.challenge.id)
    await command_move(service, ANN, "A1-C2")


async def command_move(service: JarmoService, actor: Actor, move: str) -> Any:
    """``/jarmo move`` as the command tree calls it, after the option's transformer."""
    interaction = interaction_of(service, actor)
    command: Callable[..., Any] = PlayCommands.move.callback
    await command(PlayCommands(), interaction, Action.parse(move))
    return interaction


async def grid_move(
    service: JarmoService, actor: Actor, seen: tuple[int, int], origin: str, target: str
) -> Any:
    """**Move** under the board, then the piece, then its target, each its own interaction,
    on the game ``seen`` (id, version)."""
    game, version = seen
    await EarlierMoveButton(game).handle(interaction_of(service, actor))
    await GridCell(game, version, "", origin).handle(interaction_of(service, actor))
    last = interaction_of(service, actor)
    await GridCell(game, version, origin, target).handle(last)
    return last


async def test_a_move_on_the_grid_stays_within_its_budget(
    service: JarmoService, store: SqliteStore, renders: list[str]
) -> None:
    await start_game(service)
    record = await service.play.player_game(HERE, BOB)
    renders.clear()
    async with traced(store) as statements:
        last = await grid_move(service, BOB, (record.id, record.version), "B5", "A3")
    record = await service.play.player_game(HERE, BOB)
    assert record.engine.history[-1] == "B5-A3"  # the move was played, and posted
    last.followup.send.assert_awaited_once()
    assert len(statements) <= GRID_MOVE_STATEMENTS, str(statements)
    # The grid's board from Bob's side once, and the public board after the move.
    assert len(renders) <= GRID_MOVE_RENDERS, renders


async def test_jarmo_move_stays_within_its_budget(
    service: JarmoService, store: SqliteStore, renders: list[str]
) -> None:
    await start_game(service)
    async with traced(store) as statements:
        interaction = await command_move(service, BOB, "B5-A3")
    interaction.response.send_message.assert_awaited_once()
    record = await service.play.player_game(HERE, BOB)
    assert record.engine.history[-1] == "B5-A3"
    assert len(statements) <= COMMAND_MOVE_STATEMENTS, str(statements)


async def test_a_move_that_pings_by_direct_message_writes_it_with_the_move(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_game(service)
    async with traced(store) as mentioned:
        await command_move(service, BOB, "B5-A3")
    await service.pings.choose(BOB.user_id, "dm")
    move = (await service.play.player_game(HERE, ANN)).engine.legal_moves()[0]
    async with traced(store) as direct:
        await command_move(service, ANN, move)
    record = await service.play.player_game(HERE, BOB)
    assert record.engine.history[-1] == move
    # Neither move reads the players' turn pings on their own: the game's read brought them.
    for move_statements in (mentioned, direct):
        assert not any(s.startswith("SELECT turn_pings.") for s in move_statements.statements)
    assert not any(s.startswith("INSERT INTO outbox") for s in mentioned.statements)
    # The direct message is written in the move's transaction: its one statement more.
    assert len([s for s in direct.statements if s.startswith("INSERT INTO outbox")]) == 1
    assert len(direct) == len(mentioned) + 1, str(direct)
