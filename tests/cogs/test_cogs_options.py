"""A move and a point typed by a player: read into values of the game, refused privately with
the engine's explanation when unreadable, and suggested from the service as the player types."""

from __future__ import annotations

from typing import Any
from unittest import mock

import discord
import pytest

from bot.cogs.transformers import MoveTransformer, PointTransformer
from bot.jarmo import Action
from bot.jarmo.notation import EXPECTED_ACTION, EXPECTED_POINT
from bot.service import BadMove, Place
from bot.words import refusal_text
from tests.wording import english


def interaction_for(suggestions: list[str]) -> Any:
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    interaction.guild_id, interaction.channel_id = 10, 20
    interaction.user = mock.Mock(id=5)
    interaction.client = mock.Mock()
    play = interaction.client.service.play
    play.move_suggestions = mock.AsyncMock(return_value=suggestions)
    play.redeploy_suggestions = mock.AsyncMock(return_value=suggestions)
    return interaction


@pytest.mark.parametrize(
    ("typed", "action"),
    [
        ("A1-C2", Action.parse("A1-C2")),
        (" a1 c2 ", Action.parse("A1-C2")),
        ("@b1", Action.parse("@B1")),
        ("d3xE5@B1", Action.parse("D3-E5@B1")),
    ],
)
async def test_a_move_is_read_in_any_accepted_notation(typed: str, action: Action) -> None:
    assert await MoveTransformer().transform(interaction_for([]), typed) == action


@pytest.mark.parametrize("typed", ["hello", "Z9-A1", "A1-A1", ""])
async def test_an_unreadable_move_is_refused_saying_what_was_expected(typed: str) -> None:
    with pytest.raises(BadMove) as refused:
        await MoveTransformer().transform(interaction_for([]), typed)
    said = refusal_text(refused.value, english())
    assert said.startswith("I can't read ")
    assert said.endswith(" Your move was not played.")
    assert EXPECTED_ACTION in said or EXPECTED_POINT in said


async def test_a_point_is_read_and_an_unreadable_one_refused() -> None:
    assert await PointTransformer().transform(interaction_for([]), " @b1") == "B1"
    with pytest.raises(BadMove) as refused:
        await PointTransformer().transform(interaction_for([]), "Q7")
    assert refusal_text(refused.value, english()) == (
        f"I can't read 'Q7': Q7 is not a point on the board; {EXPECTED_POINT} "
        "Your move was not played."
    )


async def test_suggestions_come_from_the_service_for_the_player_here() -> None:
    interaction = interaction_for(["A1-C2", "B1-D2"])
    choices = await MoveTransformer().autocomplete(interaction, "a")
    assert [(c.name, c.value) for c in choices] == [("A1-C2", "A1-C2"), ("B1-D2", "B1-D2")]
    interaction.client.service.play.move_suggestions.assert_awaited_once_with(Place(10, 20), 5, "a")
    points = await PointTransformer().autocomplete(interaction_for(["B1"]), "b")
    assert [c.value for c in points] == ["B1"]
