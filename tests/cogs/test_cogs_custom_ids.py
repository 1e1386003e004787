"""Every persistent component's custom id, byte for byte: buttons and pickers on messages
posted by an earlier bot carry these ids, and keep working only while the bot still writes and
reads them the same way. Each id is read back (as discord.py does on a click) into the same
component."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.cogs import DYNAMIC_ITEMS
from bot.cogs.challenges import ChallengeButton
from bot.cogs.clock import ClaimWinButton, PauseButton
from bot.cogs.games import GamesPageButton
from bot.cogs.grid import EarlierMoveButton, GridCell, MoveButton
from bot.cogs.items import JarmoItem
from bot.cogs.play import ResignButton, StopButton
from bot.cogs.rematch import RematchButton
from bot.cogs.review import ReviewButton
from bot.cogs.stats import HistoryPicker, LeaderboardButton
from bot.cogs.takebacks import AcceptTakeback, DeclineTakeback
from bot.cogs.tournaments import SignupButton
from bot.cogs.watching import PlayLiveButton
from bot.service import Offer

BIG = 2**63 - 1  # the largest snowflake
OFFER = Offer(2**40, 199, BIG, BIG - 1)

Item = discord.ui.DynamicItem[Any]

CASES: list[tuple[Item, str]] = [
    (ChallengeButton(12, "accept"), "jarmo:challenge:12:accept"),
    (ChallengeButton(BIG, "decline"), f"jarmo:challenge:{BIG}:decline"),
    (ChallengeButton(3, "cancel"), "jarmo:challenge:3:cancel"),
    (PauseButton(OFFER), f"jarmo:pause:{2**40}:199:{BIG}:{BIG - 1}"),
    (StopButton(OFFER), f"jarmo:stop:{2**40}:199:{BIG}:{BIG - 1}"),
    (LeaderboardButton(BIG, "ludos", 3, 5), f"jarmo:lb:{BIG}:ludos:3:5"),
    (GamesPageButton(4, BIG), f"jarmo:games:4:{BIG}"),
    (HistoryPicker(None, guild_id=1, user_id=5, opponent_id=None), "jarmo:hist:1:5:0"),
    (HistoryPicker(None, guild_id=1, user_id=5, opponent_id=BIG), f"jarmo:hist:1:5:{BIG}"),
    (ReviewButton(77), "jarmo:review:77"),
    (PlayLiveButton(BIG), f"jarmo:live:{BIG}"),
    (MoveButton(BIG, 3), f"jarmo:move:{BIG}:3"),
    (EarlierMoveButton(BIG), f"jarmo:grid:{BIG}"),
    (GridCell(9, 0, "", "A1"), "jarmo:cell:9:0::A1"),
    (GridCell(9, 31, "B3-C5", "back"), "jarmo:cell:9:31:B3-C5:back"),
    (GridCell(9, 31, "B3-C5", "later"), "jarmo:cell:9:31:B3-C5:later"),
    (SignupButton(4, "join"), "jarmo:tournament:4:join"),
    (SignupButton(4, "leave"), "jarmo:tournament:4:leave"),
    (ResignButton(BIG, 5), f"jarmo:resign:{BIG}:5"),
    (RematchButton(8), "jarmo:rematch:8"),
    (ClaimWinButton(BIG), f"jarmo:claimtime:{BIG}"),
    (AcceptTakeback(OFFER), f"jarmo:takeback-yes:{2**40}:199:{BIG}:{BIG - 1}"),
    (DeclineTakeback(OFFER), f"jarmo:takeback-no:{2**40}:199:{BIG}:{BIG - 1}"),
]


def test_every_persistent_component_is_pinned_here() -> None:
    assert {type(item) for item, _ in CASES} == set(DYNAMIC_ITEMS)


@pytest.mark.parametrize(("item", "custom_id"), CASES, ids=[c for _, c in CASES])
async def test_a_component_writes_its_id_and_reads_it_back(item: Item, custom_id: str) -> None:
    assert item.custom_id == custom_id and len(custom_id) <= 100
    found = type(item).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert found is not None
    clicked = cast("discord.Interaction[Any]", None)  # not read while rebuilding
    rebuilt = await type(item).from_custom_id(clicked, item.item, found)
    assert type(rebuilt) is type(item) and rebuilt.custom_id == custom_id
    assert state(rebuilt) == state(item)


def state(item: Item) -> dict[str, Any]:
    """What the component keeps for its click: the attributes ``JarmoItem`` subclasses set."""
    assert isinstance(item, JarmoItem)
    return {
        name: value
        for name, value in vars(item).items()
        if not name.startswith("_") and name not in {"item", "what"}
    }


@pytest.mark.parametrize(
    "custom_id",
    [
        "jarmo:challenge:12:maybe",
        "jarmo:cell:9:0:B3-C5:F1",
        "jarmo:lb:1:Classic:0:5",
        "jarmo:tournament:4:watch",
        "jarmo:resign:x:5",
    ],
)
def test_an_id_outside_a_components_values_is_none_of_theirs(custom_id: str) -> None:
    assert not any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS
    )
