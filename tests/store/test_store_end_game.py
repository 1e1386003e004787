"""GameStore.end: every way a game can end, in one transaction, and what it does to the stored
games, the players' results read from them, and matches."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from bot.store import (
    FinalMove,
    GameEnding,
    GameNotActive,
    MatchOver,
    NextGame,
    NotFound,
    RatingChange,
    RatingUpdate,
    Skill,
    SqliteStore,
    StaleGame,
    StaleRatings,
)
from tests.store.store_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    T0,
    StartMatch,
    challenge,
    new_game,
    play_quiet,
    play_to_end,
)

LATER = T0 + timedelta(minutes=3)


async def stats(store: SqliteStore, user_id: int) -> tuple[int, int, int, int, int, int]:
    """(games, wins, draws, losses, points, match wins) of a player in GUILD, as read from the
    stored games and matches."""
    found = await store.results.player_stats(GUILD, user_id)
    both = found.overall
    return (both.games, both.wins, both.draws, both.losses, both.points, found.match_wins)


async def test_a_final_move_finishes_game_and_match(
    store: SqliteStore, start_match: StartMatch
) -> None:
    match, start = await start_match()
    final = await play_to_end(store, start, random.Random(11))
    outcome = final.game.outcome()
    assert outcome is not None
    end = await store.games.end(
        start.id,
        GameEnding(
            status="finished",
            winner=outcome.winner,
            points=outcome.points,
            termination=outcome.termination.value,
            game=final.game,
            then=MatchOver("finished", outcome.winner and start.player_id(outcome.winner)),
            final_move=FinalMove(final.mover, final.move),
        ),
        expected_version=final.before.version,
        now=LATER,
    )

    ended = end.game
    assert (ended.status, ended.version) == ("finished", final.before.version + 1)
    assert (ended.winner, ended.points, ended.termination) == (
        outcome.winner, outcome.points, outcome.termination.value,
    )  # fmt: skip
    assert ended.finished_at == ended.last_activity == LATER
    assert await store.games.get(start.id) == ended
    assert await store.games.active(CHANNEL) is None
    actions = await store.games.actions(start.id)
    assert [a.move for a in actions] == final.game.history
    assert actions[-1].player_id == final.mover

    assert end.next_game is None
    assert end.match == await store.games.match(match.id)
    assert (end.match.state, end.match.finished_at) == ("finished", LATER)
    alice, bob = await stats(store, ALICE), await stats(store, BOB)
    assert alice[0] == bob[0] == 1
    assert (alice[4], bob[4]) == (outcome.points["white"], outcome.points["black"])
    if outcome.winner == "white":
        assert (alice[1:4], bob[1:4], alice[5], bob[5]) == ((1, 0, 0), (0, 0, 1), 1, 0)
    elif outcome.winner == "black":
        assert (alice[1:4], bob[1:4], alice[5], bob[5]) == ((0, 0, 1), (1, 0, 0), 0, 1)
    else:
        assert (alice[1:4], bob[1:4]) == ((0, 1, 0), (0, 1, 0))
    for user_id in (ALICE, BOB):  # an unrated game end writes no player rows and no ratings
        with pytest.raises(NotFound):
            await store.players.get(GUILD, user_id)
        assert await store.ratings.player_ratings(GUILD, user_id) == []
    # The channel is free for a new challenge.
    await store.challenges.create(challenge(), now=LATER)


async def test_resigning_forfeits_the_match(store: SqliteStore, start_match: StartMatch) -> None:
    match, start = await start_match(game_count=4)
    record = await play_quiet(store, start, 6, random.Random(12))
    points = record.engine.points()
    # BOB (Black in game 0) resigns: White wins the game, and ALICE the match.
    end = await store.games.end(
        record.id,
        GameEnding(
            status="resigned",
            winner="white",
            points=points,
            termination="resigned",
            game=record.engine,
            then=MatchOver("forfeited", ALICE),
        ),
        expected_version=record.version,
        now=LATER,
    )
    # An ending is a change of the game like a move, though it adds no action.
    assert (end.game.status, end.game.winner, end.game.version) == ("resigned", "white", 7)
    assert len(end.game.engine.history) == 6 and len(await store.games.actions(record.id)) == 6
    assert (end.match.state, end.match.winner_id) == ("forfeited", ALICE)
    assert end.next_game is None
    assert await stats(store, ALICE) == (1, 1, 0, 0, points["white"], 1)
    assert await stats(store, BOB) == (1, 0, 0, 1, points["black"], 0)
    assert [g.status for g in await store.games.match_games(match.id)] == ["resigned"]


async def test_a_timeout_is_counted_like_a_resignation(
    store: SqliteStore, start_match: StartMatch
) -> None:
    _, start = await start_match()
    points = start.engine.points()
    end = await store.games.end(
        start.id,
        GameEnding(
            status="timeout",
            winner="black",
            points=points,
            termination="timeout",
            game=start.engine,
            then=MatchOver("forfeited", BOB),
        ),
        expected_version=0,
        now=LATER,
    )
    assert (end.game.status, end.match.winner_id) == ("timeout", BOB)
    assert await stats(store, BOB) == (1, 1, 0, 0, points["black"], 1)


async def test_the_next_game_swaps_sides(store: SqliteStore, start_match: StartMatch) -> None:
    match, start = await start_match(game_count=2)
    final = await play_to_end(store, start, random.Random(13))
    outcome = final.game.outcome()
    assert outcome is not None
    second = new_game()
    end = await store.games.end(
        start.id,
        GameEnding(
            status="finished",
            winner=outcome.winner,
            points=outcome.points,
            termination=outcome.termination.value,
            game=final.game,
            then=NextGame(second),
            final_move=FinalMove(final.mover, final.move),
        ),
        expected_version=final.before.version,
        now=LATER,
    )
    following = end.next_game
    assert following is not None and following.engine is second
    assert (following.index, following.white_id, following.black_id) == (1, BOB, ALICE)
    assert (following.status, following.version, following.started_at) == ("active", 0, LATER)
    assert (end.match.state, end.match.winner_id) == ("running", None)
    assert await store.games.active(CHANNEL) == following
    assert [g.index for g in await store.games.match_games(match.id)] == [0, 1]
    alice_before, bob_before = await stats(store, ALICE), await stats(store, BOB)
    assert alice_before[0] == bob_before[0] == 1

    # Game 1 is BOB's to open; end it by agreement as a draw, which finishes the match.
    record = await play_quiet(store, following, 2, random.Random(14))
    assert [a.player_id for a in await store.games.actions(following.id)] == [BOB, ALICE]
    points = record.engine.points()
    end = await store.games.end(
        following.id,
        GameEnding(
            status="stopped",
            winner=None,
            points=points,
            termination="agreed",
            game=record.engine,
            then=MatchOver("finished", None),
        ),
        expected_version=2,
        now=LATER,
    )
    assert (end.match.state, end.match.winner_id) == ("finished", None)
    alice, bob = await stats(store, ALICE), await stats(store, BOB)
    assert alice == (2, alice_before[1], alice_before[2] + 1, alice_before[3],
                     alice_before[4] + points["black"], 0)  # fmt: skip
    assert bob == (2, bob_before[1], bob_before[2] + 1, bob_before[3],
                   bob_before[4] + points["white"], 0)  # fmt: skip


async def test_aborting_changes_no_stats(store: SqliteStore, start_match: StartMatch) -> None:
    await store.players.upsert(GUILD, ALICE, "Alice")
    match, start = await start_match(game_count=2)
    record = await play_quiet(store, start, 3, random.Random(15))
    end = await store.games.end(
        record.id,
        GameEnding(
            status="aborted",
            winner=None,
            points=record.engine.points(),
            termination="aborted",
            game=record.engine,
            then=MatchOver("aborted"),
        ),
        expected_version=3,
        now=LATER,
    )
    assert (end.game.status, end.match.state, end.match.winner_id) == ("aborted", "aborted", None)
    assert await stats(store, ALICE) == (0, 0, 0, 0, 0, 0)
    with pytest.raises(NotFound):
        await store.players.get(GUILD, BOB)  # never named, never created
    assert await store.games.active(CHANNEL) is None
    assert (await store.games.match(match.id)).state == "aborted"


def first_rating(user_id: int, games_before: int = 0) -> RatingChange:
    """A made-up change from a new player's first rated game (the store only keeps ratings)."""
    return RatingChange(user_id, games_before, Skill(25.0, 8.3, 0.0), Skill(27.0, 8.0, 3.0))


async def test_only_accepted_ratings_mark_the_game_rated(
    store: SqliteStore, start_match: StartMatch
) -> None:
    match, start = await start_match()
    ending = GameEnding(
        status="resigned", winner="white", points=start.engine.points(), termination="resigned",
        game=start.engine, then=MatchOver("forfeited", ALICE),
    )  # fmt: skip
    stale = RatingUpdate("classic", (first_rating(ALICE, games_before=1), first_rating(BOB)))
    with pytest.raises(StaleRatings):
        stale_ending = replace(ending, ratings=stale)
        await store.games.end(start.id, stale_ending, expected_version=0, now=LATER)
    assert (await store.games.get(start.id)).is_active
    assert await store.ratings.rated_games() == []

    rated = RatingUpdate("classic", (first_rating(ALICE), first_rating(BOB)))
    await store.games.end(start.id, replace(ending, ratings=rated), expected_version=0, now=LATER)
    assert [(g.id, g.match_winner_id) for g in await store.ratings.rated_games()] == [
        (start.id, ALICE)
    ]
    result = await store.results.game_result(start.id)
    assert result is not None and result.rated
    alice = (await store.ratings.player_ratings(GUILD, ALICE))[0]
    assert (alice.games, alice.wins, alice.match_wins) == (1, 1, 1)
    assert (await store.games.match(match.id)).winner_id == ALICE


async def test_a_stale_end_writes_nothing(store: SqliteStore, start_match: StartMatch) -> None:
    _, start = await start_match()
    seen = await play_quiet(store, start, 1, random.Random(16))  # a resign button pressed here
    record = await play_quiet(store, seen, 1, random.Random(16))  # ... then a move got in first
    with pytest.raises(StaleGame):
        await store.games.end(
            record.id,
            GameEnding(
                status="resigned",
                winner="white",
                points=seen.engine.points(),
                termination="resigned",
                game=seen.engine,
                then=MatchOver("forfeited", ALICE),
            ),
            expected_version=1,
            now=LATER,
        )
    assert await store.games.get(record.id) == record
    assert (await store.games.match(record.match_id)).state == "running"


async def test_a_game_ends_only_once(store: SqliteStore, start_match: StartMatch) -> None:
    _, start = await start_match()
    ending = GameEnding(
        status="resigned", winner="white", points=start.engine.points(), termination="resigned",
        game=start.engine, then=MatchOver("forfeited", ALICE),
    )  # fmt: skip
    await store.games.end(start.id, ending, expected_version=0, now=LATER)
    with pytest.raises(GameNotActive):
        await store.games.end(start.id, ending, expected_version=0, now=LATER)
    assert (await stats(store, ALICE))[0] == 1


@pytest.mark.parametrize(
    "bad",
    [
        {"then": None},  # neither the next game nor the end of the match
        {"then": ("aborted", ALICE)},  # an aborted match has no winner
        {"then": ("finished", 999)},  # not a player: found in the DB
        {"then": "next"},  # a 1-game match has no game 1: found in the DB
        {"then": ("won", None)},
        {"status": "active"},
        {"winner": "red"},
        {"points": {"white": 1}},
        {"final_move": FinalMove(ALICE, "A1-C2")},  # game does not have that move
    ],
)
async def test_contradictory_arguments_are_refused_and_roll_back(
    store: SqliteStore, start_match: StartMatch, bad: dict[str, Any]
) -> None:
    match, start = await start_match()
    record = await play_quiet(store, start, 2, random.Random(17))
    fields: dict[str, Any] = dict(
        status="finished", winner=None, points=record.engine.points(), termination="agreed",
        game=record.engine, then=("finished", None),
    )  # fmt: skip
    fields.update(bad)
    then = fields.pop("then")
    with pytest.raises(ValueError):
        if then == "next":
            then = NextGame(new_game())
        elif isinstance(then, tuple):
            then = MatchOver(*then)
        ending = GameEnding(then=then, **fields)
        await store.games.end(record.id, ending, expected_version=2, now=LATER)
    assert await store.games.get(record.id) == record
    assert await store.games.match(match.id) == match
    assert [g.id for g in await store.games.match_games(match.id)] == [record.id]
    with pytest.raises(NotFound):
        await store.players.get(GUILD, ALICE)
