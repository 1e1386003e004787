"""Players' turn pings on every backend (the ``store`` fixture): one setting per player for
every server, read for several players at once, and a refused direct message told once."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from bot import store as st
from tests.store.store_helpers import ALICE, BOB


async def test_a_player_who_never_chose_is_mentioned(store: Any) -> None:
    assert await store.pings.settings([ALICE, BOB]) == {
        ALICE: st.TurnPingSetting("mention", dm_refused=False),
        BOB: st.TurnPingSetting("mention", dm_refused=False),
    }
    assert await store.pings.settings([]) == {}


async def test_a_choice_holds_until_the_next(store: Any) -> None:
    await store.pings.choose(ALICE, "dm")
    await store.pings.choose(BOB, "off")
    assert await store.pings.settings([ALICE, BOB]) == {
        ALICE: st.TurnPingSetting("dm"),
        BOB: st.TurnPingSetting("off"),
    }
    await store.pings.choose(ALICE, "mention")
    assert (await store.pings.settings([ALICE]))[ALICE].mode == "mention"


async def test_an_unknown_mode_is_refused_and_changes_nothing(store: Any) -> None:
    await store.pings.choose(ALICE, "dm")
    with pytest.raises(ValueError, match="no turn ping"):
        await store.pings.choose(ALICE, cast(Any, "loud"))
    assert (await store.pings.settings([ALICE]))[ALICE].mode == "dm"


async def test_a_refused_direct_message_is_told_once(store: Any) -> None:
    await store.pings.choose(ALICE, "dm")
    assert not await store.pings.take_dm_refused(ALICE)
    await store.pings.refuse_dm(ALICE)
    assert (await store.pings.settings([ALICE]))[ALICE] == st.TurnPingSetting("dm", True)

    taken = await asyncio.gather(*(store.pings.take_dm_refused(ALICE) for _ in range(6)))

    assert sorted(taken) == [False] * 5 + [True]
    assert (await store.pings.settings([ALICE]))[ALICE] == st.TurnPingSetting("dm", False)


async def test_a_refusal_keeps_the_mode_chosen_since(store: Any) -> None:
    await store.pings.refuse_dm(BOB)  # no row yet: the refusal was of a direct message
    await store.pings.choose(BOB, "mention")
    assert (await store.pings.settings([BOB]))[BOB] == st.TurnPingSetting("mention", True)
