"""A player's active games in every server, read at once: ``GameStore.active_of_player``."""

from __future__ import annotations

from dataclasses import replace

from bot.store import GameEnding, GameRecord, MatchOver, NextGame, Store
from tests.store.store_helpers import ALICE, BOB, T0, challenge, new_game

CAROL = 303


async def start(
    store: Store, guild: int, channel: int, white: int, black: int, *, game_count: int = 1
) -> GameRecord:
    """A match between ``white`` (White in game 0) and ``black`` in ``channel`` of ``guild``."""
    posted = await store.challenges.create(
        replace(
            challenge(channel=channel, game_count=game_count),
            guild_id=guild,
            challenger_id=white,
            challenged_id=black,
        ),
        now=T0,
    )
    _, game = await store.challenges.accept(
        posted.id, first_white_id=white, first_game=new_game(), now=T0
    )
    return game


async def resign(store: Store, game: GameRecord, *, then: NextGame | MatchOver) -> None:
    """White resigns ``game`` before its first move."""
    ending = GameEnding(
        status="resigned",
        winner="black",
        points=game.engine.points(),
        termination="resignation",
        game=game.engine,
        then=then,
    )
    await store.games.end(game.id, ending, expected_version=game.version, now=T0)


async def test_a_players_active_games_in_every_server_are_read_at_once(store: Store) -> None:
    as_white = await start(store, 1, 10, ALICE, BOB)
    as_black = await start(store, 2, 20, CAROL, ALICE)
    ended = await start(store, 3, 30, ALICE, BOB)
    await resign(store, ended, then=MatchOver("finished", BOB))
    others = await start(store, 3, 31, BOB, CAROL)
    match_opening = await start(store, 4, 40, ALICE, CAROL, game_count=2)
    await resign(store, match_opening, then=NextGame(new_game()))
    second = await store.games.active(40)  # sides swapped: Alice is Black
    assert second is not None and second.black_id == ALICE

    found = await store.games.active_of_player(ALICE)

    assert [game.id for game in found] == [as_white.id, as_black.id, second.id]
    assert found == [await store.games.get(game.id) for game in found]  # each with its match
    assert {game.guild_id for game in found} == {1, 2, 4}
    assert [game.id for game in await store.games.active_of_player(CAROL)] == [
        as_black.id,
        others.id,
        second.id,
    ]


async def test_a_player_without_active_games_has_none(store: Store) -> None:
    game = await start(store, 1, 10, ALICE, BOB)
    await resign(store, game, then=MatchOver("finished", BOB))
    assert await store.games.active_of_player(ALICE) == []
    assert await store.games.active_of_player(CAROL) == []
