"""Deadlines on real games: set when a game starts, restarted by every move and by the next game
of a match, shown on the board, chosen per challenge or by the configured default."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cogs.replies import report_message
from bot.cogs.words import relative_time
from bot.service import ChallengeRequest, ChallengeUnavailable, JarmoService, ServiceConfig
from bot.words import challenge_text, position_line, report_text
from tests.clock.clock_helpers import ANN, BOB, DAY, HERE, HOUR, Bot, play_one, start_match
from tests.fakes import FakeClock
from tests.wording import refused, voice


async def test_the_deadline_starts_with_the_game(bot: Bot, clock: FakeClock) -> None:
    view = await start_match(bot.service, "1d")
    assert view.match.time_per_move_seconds == DAY
    assert view.game.clock.deadline_at == clock.now + timedelta(days=1)
    assert view.game.clock.reminders_sent == 0
    assert view.clock is not None and view.clock.time_left == timedelta(days=1)
    stored = await bot.store.games.active(HERE.channel_id)
    assert stored is not None and stored.clock.deadline_at == clock.now + timedelta(days=1)


async def test_no_limit_means_no_clock(bot: Bot) -> None:
    view = await start_match(bot.service, "none")
    assert view.match.time_per_move_seconds is None
    assert view.game.clock.deadline_at is None and view.clock is None
    assert await bot.service.clocks.running() == []
    assert "per move" not in position_line(view, voice())


async def test_every_move_restarts_the_clock(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "2h")
    for step in (600, 5_000, 7_000):
        clock.advance(step)
        report = await play_one(bot.service)
        assert report.board.game.clock.deadline_at == clock.now + timedelta(hours=2)
        assert report.board.clock is not None
        assert report.board.clock.time_left == timedelta(hours=2)
    (running,) = await bot.service.clocks.running()
    assert running.deadline_at == clock.now + timedelta(hours=2)
    assert running.version == 3


async def test_a_move_resets_the_reminders(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    clock.advance(HOUR * 0.6)
    assert [e.kind for e in await bot.scheduler.run_due(clock.now)] == ["reminder"]
    await play_one(bot.service)
    (running,) = await bot.service.clocks.running()
    assert running.reminders_sent == 0
    clock.advance(HOUR * 0.5)
    assert [e.kind for e in await bot.scheduler.run_due(clock.now)] == ["reminder"]


async def test_the_next_game_of_a_match_gets_a_fresh_deadline(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h", games=2)
    await play_one(bot.service)
    clock.advance(1_000)
    offer = await bot.service.play.offer_stop(HERE, ANN)
    clock.advance(1_000)
    report = await bot.service.play.accept_stop(HERE, BOB, offer)
    assert report.next_board is not None
    following = report.next_board.game
    assert following.index == 1
    assert following.clock.deadline_at == clock.now + timedelta(hours=1)
    assert report.board.clock is None  # the ended game shows no clock
    assert bot.service.kit.signals.deadlines_changed.is_set()


async def test_the_configured_default_applies(tmp_path: Path, clock: FakeClock) -> None:
    from bot.store import open_store

    async with open_store(tmp_path / "db.sqlite3") as store:
        config = ServiceConfig(time_per_move_seconds=3 * DAY)
        service = JarmoService(store, config=config, clock=clock, rng=random.Random(0))
        view = await start_match(service, None)
        assert view.match.time_per_move_seconds == 3 * DAY
        await service.play.abort(HERE, ANN, can_manage=True)
        view = await start_match(service, "none")  # the challenger may turn it off
        assert view.match.time_per_move_seconds is None


@pytest.mark.parametrize("text", ["15d", "30s", "soon", "0m"])
async def test_a_bad_time_limit_is_refused_and_changes_nothing(bot: Bot, text: str) -> None:
    with refused(ChallengeUnavailable, "1 minute to 14 days"):
        await bot.service.challenges.post(HERE, ANN, ChallengeRequest(BOB, time_per_move=text))
    assert await bot.store.challenges.pending(HERE.channel_id, now=bot.service.now()) is None


async def test_the_board_and_the_move_reply_show_the_time_left(bot: Bot, clock: FakeClock) -> None:
    challenge = await bot.service.challenges.post(
        HERE, ANN, ChallengeRequest(BOB, side="white", time_per_move="1d")
    )
    assert "1 day per move" in challenge_text(challenge, voice(), expires="soon")
    await bot.service.challenges.accept(BOB, challenge.challenge.id)
    clock.advance(HOUR)
    view = await bot.service.play.board(HERE)
    deadline = clock.now + timedelta(hours=23)
    stamp = f"<t:{int(deadline.timestamp())}:R>"
    assert relative_time(deadline) == stamp
    discord_text = position_line(view, voice(lambda uid: f"<@{uid}>", when=relative_time))
    assert f"1 day per move: <@{ANN.user_id}> must move {stamp}" in discord_text
    plain = position_line(view, voice(lambda uid: "Ann"))
    assert "Ann must move within 23 hours (by 22 Nov 2026 12:00 UTC)" in plain

    report = await play_one(bot.service)
    assert f"must move <t:{int((clock.now + timedelta(days=1)).timestamp())}:R>" in (
        (await report_message(report))["embeds"][0].description
    )
    assert "Bob must move within 1 day" in report_text(report, voice(lambda uid: "Bob"))
