"""The **Claim win on time** button, driven through the cogs as Discord would call them: the
waiting player who acts once the opponent's time is out is offered it privately, the board
carries it, and pressing it answers publicly with the game's ending."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cogs.clock import ClaimWinButton
from bot.cogs.grid import MoveButton
from bot.cogs.play import PlayCommands
from bot.jarmo import Action
from bot.service import (
    Actor,
    ChallengeRequest,
    JarmoService,
    NotAllowed,
    NotYourTurn,
    ServiceConfig,
)
from bot.store import SqliteStore, open_store
from tests.cogs.test_cogs_move_cost import ANN, BOB, HERE
from tests.cogs.test_cogs_move_cost import interaction_of as unanswered
from tests.fakes import FakeClock

PROMPT = "Your opponent's time ran out. You can claim the win."


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SqliteStore, clock: FakeClock) -> JarmoService:
    return JarmoService(store, config=ServiceConfig(), clock=clock, rng=random.Random(0))


def interaction_of(service: JarmoService, actor: Actor) -> Any:
    """An interaction from ``actor`` in the test's channel, not answered yet."""
    interaction = unanswered(service, actor)
    interaction.response.is_done.return_value = False
    return interaction


async def ann_waits_for_bob(service: JarmoService) -> int:
    """Ann (White) has moved in a one-game match with five minutes a move; the game's id."""
    request = ChallengeRequest(BOB, games=1, ruleset="classic", side="white", time_per_move="5m")
    view = await service.challenges.post(HERE, ANN, request)
    await service.challenges.accept(BOB, view.challenge.id)
    report = await service.play.move(HERE, ANN, Action.parse("A1-C2"))
    return report.board.game.id


async def command_move(service: JarmoService, actor: Actor, move: str) -> Any:
    """``/jarmo move`` as the command tree calls it, after the option's transformer."""
    interaction = interaction_of(service, actor)
    command: Callable[..., Any] = PlayCommands.move.callback
    await command(PlayCommands(), interaction, Action.parse(move))
    return interaction


async def show_board(service: JarmoService) -> Any:
    interaction = interaction_of(service, ANN)
    command: Callable[..., Any] = PlayCommands.board.callback
    await command(PlayCommands(), interaction)
    return interaction


def custom_ids(view: discord.ui.View | None) -> list[str | None]:
    items = [] if view is None else view.children
    return [item.custom_id for item in items if isinstance(item, discord.ui.Button)]


def claim_offered(interaction: Any, game_id: int) -> None:
    """The interaction was answered once, privately, with the prompt and the claim button."""
    call = interaction.response.send_message.await_args
    interaction.response.send_message.assert_awaited_once()
    assert call.args == (PROMPT,) and call.kwargs["ephemeral"] is True
    assert custom_ids(call.kwargs["view"]) == [f"jarmo:claimtime:{game_id}"]


async def test_the_waiting_players_move_after_the_deadline_offers_the_claim_that_ends_the_game(
    service: JarmoService, clock: FakeClock
) -> None:
    game_id = await ann_waits_for_bob(service)
    clock.advance(300)

    asked = await command_move(service, ANN, "B1-B3")
    claim_offered(asked, game_id)

    pressed = interaction_of(service, ANN)
    await ClaimWinButton(game_id).handle(pressed)
    pressed.response.send_message.assert_awaited_once()
    answer = pressed.response.send_message.await_args.kwargs
    assert answer.get("ephemeral", False) is False  # the ending is for everyone
    assert f"<@{BOB.user_id}> ran out of time." in answer["embeds"][0].description
    game = await service.kit.store.games.get(game_id)
    assert (game.status, game.winner) == ("timeout", "white")


async def test_before_the_deadline_the_waiting_player_is_only_told_to_wait(
    service: JarmoService, clock: FakeClock
) -> None:
    await ann_waits_for_bob(service)
    clock.advance(299)
    with pytest.raises(NotYourTurn):
        await command_move(service, ANN, "B1-B3")


async def test_the_move_button_offers_the_claim_too(
    service: JarmoService, clock: FakeClock
) -> None:
    game_id = await ann_waits_for_bob(service)
    clock.advance(300)
    clicked = interaction_of(service, ANN)
    await MoveButton(game_id, 1).handle(clicked)
    claim_offered(clicked, game_id)


async def test_the_board_carries_the_claim_once_the_time_is_out(
    service: JarmoService, clock: FakeClock
) -> None:
    game_id = await ann_waits_for_bob(service)
    before = (await show_board(service)).response.send_message.await_args.kwargs
    assert custom_ids(before["view"]) == [f"jarmo:move:{game_id}:1"]
    clock.advance(300)
    after = (await show_board(service)).response.send_message.await_args.kwargs
    moves, claims = f"jarmo:move:{game_id}:1", f"jarmo:claimtime:{game_id}"
    assert custom_ids(after["view"]) == [moves, claims]


async def test_the_player_who_ran_out_cannot_press_the_claim(
    service: JarmoService, clock: FakeClock
) -> None:
    game_id = await ann_waits_for_bob(service)
    clock.advance(300)
    pressed = interaction_of(service, BOB)
    with pytest.raises(NotAllowed):
        await ClaimWinButton(game_id).handle(pressed)
    pressed.response.send_message.assert_not_awaited()
    assert (await service.kit.store.games.get(game_id)).status == "active"
