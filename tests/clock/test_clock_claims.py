"""Claiming a win on time: where no scheduler posts, the waiting player ends the game once the
opponent's time is out, exactly as the scheduler's timeout would, with nothing announced."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import ClockUnavailable, GameChanged, GamePaused, NotAllowed, NotAPlayer
from bot.service.errors import Code
from bot.words import report_text
from tests.clock.clock_helpers import ANN, BOB, CAT, HERE, Bot, play_one, start_match
from tests.clock.test_clock_scheduler import queued
from tests.fakes import FakeClock
from tests.wording import refused, voice


async def bobs_time_runs_out(bot: Bot, clock: FakeClock, *, games: int = 1) -> int:
    """Ann moves in a five-minute match; Bob's time then runs out. The game's id."""
    await start_match(bot.service, "5m", games=games)
    await play_one(bot.service)
    clock.advance(300)
    record = await bot.store.games.active(HERE.channel_id)
    assert record is not None
    return record.id


async def test_the_waiting_player_claims_the_win_as_a_timeout(bot: Bot, clock: FakeClock) -> None:
    game_id = await bobs_time_runs_out(bot, clock, games=4)
    record = await bot.store.games.get(game_id)
    assert bot.service.clocks.time_is_out(record)

    report = await bot.service.clocks.claim_win_on_time(HERE, ANN, game_id=game_id)

    assert report.ended is not None
    assert report.ended.status == "timeout" and report.ended.winner_id == ANN.user_id
    assert report.standings is not None and report.standings.match.state == "forfeited"
    assert report.standings.winner_id == ANN.user_id
    text = report_text(report, voice({101: "Ann", 202: "Bob"}.get))
    assert "Bob ran out of time." in text and "Ann wins the match (by forfeit)!" in text
    ann = await bot.store.results.player_stats(1, ANN.user_id)
    bob = await bot.store.results.player_stats(1, BOB.user_id)
    assert (ann.overall.games, ann.overall.wins, ann.match_wins) == (1, 1, 1)
    assert (bob.overall.games, bob.overall.losses, bob.match_wins) == (1, 1, 0)
    assert await bot.store.games.active(HERE.channel_id) is None
    # The claimer's answer shows the ending: nothing waits in the outbox, and the scheduler
    # finds nothing left to do.
    assert await bot.store.outbox.next_due() is None
    assert await bot.scheduler.run_due(clock.now + timedelta(days=1)) == []


async def test_a_claim_before_the_deadline_is_refused_with_the_time_left(
    bot: Bot, clock: FakeClock
) -> None:
    await start_match(bot.service, "1h")
    await play_one(bot.service)  # Bob's hour starts
    clock.advance(1_800)
    record = await bot.store.games.active(HERE.channel_id)
    assert record is not None and not bot.service.clocks.time_is_out(record)
    with refused(ClockUnavailable, "still has 30 minutes for this move"):
        await bot.service.clocks.claim_win_on_time(HERE, ANN)
    clock.advance(1_799)
    with refused(ClockUnavailable, "still has less than a minute"):
        await bot.service.clocks.claim_win_on_time(HERE, ANN)
    after = await bot.store.games.get(record.id)
    assert (after.status, after.version) == ("active", record.version)


async def test_the_player_to_move_cannot_claim(bot: Bot, clock: FakeClock) -> None:
    game_id = await bobs_time_runs_out(bot, clock)
    with refused(NotAllowed, "It is your move, so there is no win on time for you to claim"):
        await bot.service.clocks.claim_win_on_time(HERE, BOB, game_id=game_id)
    assert (await bot.store.games.get(game_id)).status == "active"


async def test_an_onlooker_cannot_claim(bot: Bot, clock: FakeClock) -> None:
    game_id = await bobs_time_runs_out(bot, clock)
    with refused(NotAPlayer, "not playing in this channel's game"):
        await bot.service.clocks.claim_win_on_time(HERE, CAT, game_id=game_id)
    assert (await bot.store.games.get(game_id)).status == "active"


async def test_no_claim_without_a_running_clock(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, None)
    await play_one(bot.service)
    clock.advance(86_400 * 30)
    record = await bot.store.games.active(HERE.channel_id)
    assert record is not None and not bot.service.clocks.time_is_out(record)
    with refused(ClockUnavailable, "no time limit per move"):
        await bot.service.clocks.claim_win_on_time(HERE, ANN)


async def test_no_claim_while_the_clock_is_paused(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "5m")
    await play_one(bot.service)
    offer = await bot.service.clocks.offer_pause(HERE, ANN)
    await bot.service.clocks.accept_pause(HERE, BOB, offer)
    clock.advance(86_400)
    record = await bot.store.games.active(HERE.channel_id)
    assert record is not None and not bot.service.clocks.time_is_out(record)
    with refused(GamePaused, "The clock is paused"):
        await bot.service.clocks.claim_win_on_time(HERE, ANN)


async def test_a_button_of_an_earlier_game_claims_nothing(bot: Bot, clock: FakeClock) -> None:
    first = await bobs_time_runs_out(bot, clock, games=2)
    await bot.service.clocks.claim_win_on_time(HERE, ANN, game_id=first)
    with refused(GameChanged, "That game has already ended"):
        await bot.service.clocks.claim_win_on_time(HERE, ANN, game_id=first)


async def test_two_claims_at_once_end_the_game_once(bot: Bot, clock: FakeClock) -> None:
    game_id = await bobs_time_runs_out(bot, clock, games=2)
    lock = bot.service.kit.locks(HERE.channel_id)
    async with lock:  # both wait for the channel while the test holds it
        claims = []
        for _ in range(2):
            claim = bot.service.clocks.claim_win_on_time(HERE, ANN, game_id=game_id)
            claims.append(asyncio.ensure_future(claim))
            await queued(lock, len(claims))
    outcomes = await asyncio.gather(*claims, return_exceptions=True)
    first, second = outcomes
    assert not isinstance(first, BaseException) and first.ended is not None
    assert isinstance(second, GameChanged) and second.code == Code.CLAIM_OUTDATED
    ann = await bot.store.results.player_stats(1, ANN.user_id)
    assert (ann.overall.games, ann.overall.wins) == (1, 1)


async def test_a_claim_and_the_scheduler_end_the_game_once(bot: Bot, clock: FakeClock) -> None:
    game_id = await bobs_time_runs_out(bot, clock)
    await bot.service.clocks.claim_win_on_time(HERE, ANN, game_id=game_id)
    assert await bot.scheduler.run_due(clock.now) == []
    with pytest.raises(GameChanged):
        await bot.service.clocks.claim_win_on_time(HERE, ANN, game_id=game_id)


async def test_a_claim_that_read_the_game_before_another_process_ended_it_changes_nothing(
    bot: Bot, db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process ends the game between this claim's read and its write: the ending is
    worked out from a match that is already over, and the version check refuses it."""
    await bobs_time_runs_out(bot, clock)
    beside = await Bot.open_beside(db_path, clock)
    games = bot.store.games
    read = games.active

    async def read_then_claimed_beside(channel_id: int) -> object:
        record = await read(channel_id)
        monkeypatch.setattr(games, "active", read)
        await beside.service.clocks.claim_win_on_time(HERE, ANN)
        return record

    try:
        monkeypatch.setattr(games, "active", read_then_claimed_beside)
        with pytest.raises(GameChanged):
            await bot.service.clocks.claim_win_on_time(HERE, ANN)
        stats = await bot.store.results.player_stats(HERE.guild_id, ANN.user_id)
        assert (stats.overall.games, stats.overall.wins, stats.match_wins) == (1, 1, 1)
    finally:
        await beside.close()
