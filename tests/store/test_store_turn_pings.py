"""Players' turn pings on every backend (the ``store`` fixture): one setting per player for
every server, read with each game (both players' at once), and a refused direct message told
once."""

from __future__ import annotations

import asyncio
import random
from typing import Any, cast

import pytest

from bot import store as st
from tests.store.store_helpers import ALICE, BOB, T0, StartMatch, new_game, play_quiet

MENTION = st.TurnPingSetting("mention", dm_refused=False)


async def settings(store: st.Store, record: st.GameRecord) -> tuple[st.TurnPingSetting, ...]:
    """The players' settings (White's, Black's) as the game is read now."""
    return (await store.games.get(record.id)).turn_pings


async def test_a_player_who_never_chose_is_mentioned(store: Any, start_match: StartMatch) -> None:
    _, record = await start_match()
    assert record.turn_pings == (MENTION, MENTION)
    assert await settings(store, record) == (MENTION, MENTION)
    assert (await store.games.active(record.channel_id)).ping_setting(BOB) == MENTION


async def test_a_choice_holds_until_the_next(store: Any, start_match: StartMatch) -> None:
    _, record = await start_match()  # ALICE is White
    await store.pings.choose(ALICE, "dm")
    await store.pings.choose(BOB, "off")
    assert await settings(store, record) == (st.TurnPingSetting("dm"), st.TurnPingSetting("off"))
    await store.pings.choose(ALICE, "mention")
    loaded = await store.games.get(record.id)
    assert loaded.ping_setting(ALICE).mode == "mention"
    assert loaded.ping_setting(BOB).mode == "off"


async def test_only_a_player_of_the_game_has_a_setting_in_it(start_match: StartMatch) -> None:
    _, record = await start_match()
    with pytest.raises(ValueError, match="does not play"):
        record.ping_setting(ALICE + BOB)


async def test_every_write_of_a_game_hands_back_its_players_settings(
    store: Any, start_match: StartMatch
) -> None:
    await store.pings.choose(BOB, "off")
    await store.pings.refuse_dm(ALICE)
    expected = (st.TurnPingSetting("dm", dm_refused=True), st.TurnPingSetting("off"))
    _, record = await start_match()  # the new game's insert
    assert record.turn_pings == expected
    rng = random.Random(3)
    for _ in range(3):  # the first move, and the later ones (one statement on PostgreSQL)
        record = await play_quiet(store, record, 1, rng)
        assert record.turn_pings == expected
    kept = new_game()
    for played in record.engine.history[:-1]:
        kept.play(played)
    record = await store.games.take_back(
        record.id, expected_version=record.version, game=kept, now=T0
    )
    assert record.turn_pings == expected
    resigned = st.GameEnding(
        status="resigned", winner="white", points=record.engine.points(),
        termination="resigned", game=record.engine, then=st.MatchOver("forfeited", ALICE),
    )  # fmt: skip
    ended = await store.games.end(record.id, resigned, expected_version=record.version, now=T0)
    assert ended.game.turn_pings == expected


async def test_an_unknown_mode_is_refused_and_changes_nothing(
    store: Any, start_match: StartMatch
) -> None:
    _, record = await start_match()
    await store.pings.choose(ALICE, "dm")
    with pytest.raises(ValueError, match="no turn ping"):
        await store.pings.choose(ALICE, cast(Any, "loud"))
    assert (await store.games.get(record.id)).ping_setting(ALICE).mode == "dm"


async def test_a_refused_direct_message_is_told_once(store: Any, start_match: StartMatch) -> None:
    _, record = await start_match()
    await store.pings.choose(ALICE, "dm")
    assert not await store.pings.take_dm_refused(ALICE)
    await store.pings.refuse_dm(ALICE)
    assert (await store.games.get(record.id)).ping_setting(ALICE) == st.TurnPingSetting("dm", True)

    taken = await asyncio.gather(*(store.pings.take_dm_refused(ALICE) for _ in range(6)))

    assert sorted(taken) == [False] * 5 + [True]
    assert (await store.games.get(record.id)).ping_setting(ALICE) == st.TurnPingSetting("dm")


async def test_a_refusal_keeps_the_mode_chosen_since(store: Any, start_match: StartMatch) -> None:
    _, record = await start_match()
    await store.pings.refuse_dm(BOB)  # no row yet: the refusal was of a direct message
    await store.pings.choose(BOB, "mention")
    assert (await store.games.get(record.id)).ping_setting(BOB) == st.TurnPingSetting(
        "mention", True
    )
