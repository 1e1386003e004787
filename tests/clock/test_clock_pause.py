"""Pausing by agreement: only the opponent accepts, the time left is kept, moves wait, either
player resumes, and the pause survives a restart."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import (
    ClockUnavailable,
    GameChanged,
    GamePaused,
    NotAllowed,
    NotAPlayer,
    PauseOffer,
    TimeUp,
)
from bot.words import position_line
from tests.clock.clock_helpers import ANN, BOB, CAT, HERE, HOUR, Bot, play_one, start_match
from tests.fakes import FakeClock
from tests.wording import refused, voice


async def paused_after(bot: Bot, clock: FakeClock, seconds: float) -> None:
    clock.advance(seconds)
    offer = await bot.service.clocks.offer_pause(HERE, ANN)
    await bot.service.clocks.accept_pause(HERE, BOB, offer)


async def test_only_the_opponent_accepts_the_pause(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    offer = await bot.service.clocks.offer_pause(HERE, ANN)
    assert offer == PauseOffer(offer.game_id, 0, ANN.user_id, BOB.user_id)
    with refused(NotAllowed, "offered to"):
        await bot.service.clocks.accept_pause(HERE, ANN, offer)
    with pytest.raises(NotAllowed):
        await bot.service.clocks.accept_pause(HERE, CAT, offer)
    with pytest.raises(NotAPlayer):
        await bot.service.clocks.offer_pause(HERE, CAT)
    game = await bot.store.games.active(HERE.channel_id)
    assert game is not None and not game.clock.paused  # refusals changed nothing
    view = await bot.service.clocks.accept_pause(HERE, BOB, offer)
    assert view.game.clock.paused and view.clock is not None and view.clock.paused


async def test_the_pause_keeps_the_time_left_and_stops_everything(
    bot: Bot, clock: FakeClock
) -> None:
    await start_match(bot.service, "1h")
    await paused_after(bot, clock, 1_000)
    game = await bot.store.games.active(HERE.channel_id)
    assert game is not None
    assert game.clock.time_left_seconds == 2_600 and game.clock.deadline_at is None
    assert game.clock.paused_at == clock.now
    assert await bot.service.clocks.running() == []

    clock.advance(10 * 86_400)  # days later: no reminder, no timeout
    assert await bot.scheduler.run_due(clock.now) == []
    assert await bot.scheduler.next_due() is None
    with refused(GamePaused, "/jarmo resume"):
        await play_one(bot.service)
    with refused(ClockUnavailable, "already paused"):
        await bot.service.clocks.offer_pause(HERE, BOB)
    view = await bot.service.play.board(HERE)
    assert view.clock is not None and view.clock.time_left == timedelta(seconds=2_600)
    assert "Clock paused: Ann has 43 minutes left" in position_line(view, voice(lambda uid: "Ann"))

    view = await bot.service.clocks.resume(HERE, BOB)  # either player may resume
    assert view.game.clock.deadline_at == clock.now + timedelta(seconds=2_600)
    assert view.game.clock.time_left_seconds is None and view.game.clock.paused_at is None
    report = await play_one(bot.service)
    assert report.board.game.clock.deadline_at == clock.now + timedelta(hours=1)


async def test_reminders_keep_their_place_across_a_pause(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    await paused_after(bot, clock, 600)  # 50 minutes left
    clock.advance(HOUR)
    await bot.service.clocks.resume(HERE, ANN)
    assert await bot.scheduler.run_due(clock.now + timedelta(minutes=19)) == []
    (event,) = await bot.scheduler.run_due(clock.now + timedelta(minutes=20))  # 30 min left
    assert event.kind == "reminder"
    (event,) = await bot.scheduler.run_due(clock.now + timedelta(minutes=50))
    assert event.kind == "timeout" and event.user_id == ANN.user_id


async def test_a_pause_survives_a_restart(db_path: Path, clock: FakeClock) -> None:
    bot = await Bot.open(db_path, clock)
    await start_match(bot.service, "1d")
    await paused_after(bot, clock, HOUR)
    await bot.close()
    clock.advance(30 * 86_400)
    bot = await Bot.open(db_path, clock)
    try:
        assert await bot.scheduler.run_due(clock.now) == []
        view = await bot.service.clocks.resume(HERE, ANN)
        assert view.game.clock.deadline_at == clock.now + timedelta(hours=23)
    finally:
        await bot.close()


async def test_a_pause_offer_lapses_with_the_next_move(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    offer = await bot.service.clocks.offer_pause(HERE, BOB)
    await play_one(bot.service)
    with refused(GameChanged, "/jarmo pause"):
        await bot.service.clocks.accept_pause(HERE, ANN, offer)
    game = await bot.store.games.active(HERE.channel_id)
    assert game is not None and game.clock.running


async def test_pause_and_resume_refusals(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "none")
    with refused(ClockUnavailable, "no time limit"):
        await bot.service.clocks.offer_pause(HERE, ANN)
    with refused(ClockUnavailable, "not paused"):
        await bot.service.clocks.resume(HERE, ANN)
    await bot.service.play.abort(HERE, ANN, can_manage=True)
    await start_match(bot.service, "5m")
    offer = await bot.service.clocks.offer_pause(HERE, ANN)
    clock.advance(300)
    with pytest.raises(TimeUp):
        await bot.service.clocks.accept_pause(HERE, BOB, offer)
    with refused(ClockUnavailable, "not paused"):
        await bot.service.clocks.resume(HERE, BOB)


async def test_resigning_while_paused_still_works(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    await paused_after(bot, clock, 60)
    report = await bot.service.play.resign(HERE, BOB)
    assert report.ended is not None and report.ended.winner_id == ANN.user_id
