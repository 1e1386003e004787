"""Vacations over the service, with a clock the test moves: the player's clocks stand while they
are away, deadlines move on by the time away, the days run out to the hour and per calendar
year, and every refusal leaves the ledger as it was."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from bot.cogs.announcing import vacation_message
from bot.service import JarmoService, ServiceConfig, VacationRefused
from bot.service.deadlines import DeadlineScheduler
from bot.service.delivery import AnnouncementDelivery, VacationNotice
from bot.service.errors import Code
from bot.service.vacations import VacationStatus, hours_used, planned_end
from bot.store import Vacation
from tests.clock.clock_helpers import (
    ANN,
    BOB,
    COMPUTER,
    DAY,
    ELSEWHERE,
    HERE,
    HOUR,
    Bot,
    play_one,
    start_match,
)
from tests.clock.test_clock_outbox import Posts
from tests.fakes import FakeClock


def with_days(bot: Bot, clock: FakeClock, days: int) -> tuple[JarmoService, DeadlineScheduler]:
    """The bot's store under a service that gives each player ``days`` a year."""
    service = JarmoService(
        bot.store,
        config=ServiceConfig(vacation_days_per_year=days),
        clock=clock,
        rng=random.Random(0),
        computer=COMPUTER,
    )
    return service, DeadlineScheduler(service)


async def deadline(bot: Bot) -> datetime:
    view = await bot.service.play.board(HERE)
    assert view.game.clock.deadline_at is not None
    return view.game.clock.deadline_at


async def test_a_vacation_saves_a_timed_game_from_timing_out(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await start_match(bot.service, "1d")  # Ann to move, out of time at start + 1 day
    clock.advance(HOUR)
    status = await bot.service.vacations.start(ANN.user_id)
    assert status.away and status.games == 1
    assert await bot.scheduler.next_due() == start + timedelta(days=14, hours=1)
    assert await bot.scheduler.run_due(start + timedelta(hours=12)) == []  # no reminder
    assert await bot.scheduler.run_due(start + timedelta(days=3)) == []  # no timeout
    assert (await bot.service.play.board(HERE)).game.is_active
    clock.set(start + timedelta(days=5))
    await bot.service.vacations.end(ANN.user_id)
    # One hour of her day had run before she left: 23 hours from her return.
    assert await deadline(bot) == start + timedelta(days=5, hours=23)
    assert [event.kind for event in await bot.scheduler.run_due(clock.now)] == []
    (timeout,) = [
        event
        for event in await bot.scheduler.run_due(start + timedelta(days=5, hours=23))
        if event.kind == "timeout"
    ]
    assert timeout.user_id == ANN.user_id


async def test_only_the_clock_of_the_player_away_stands(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await start_match(bot.service, "1d")
    await bot.service.vacations.start(BOB.user_id)  # Ann is to move: her clock runs on
    assert await bot.scheduler.next_due() == start + timedelta(hours=12)  # her reminder
    clock.advance(2 * HOUR)
    await play_one(bot.service)  # now Bob, who is away, is to move
    assert await bot.service.clocks.running() == []
    clock.set(start + timedelta(days=3))
    await bot.service.vacations.end(BOB.user_id)
    assert await deadline(bot) == start + timedelta(days=4)  # a whole day from his return


async def test_the_vacation_ends_by_itself_when_the_days_run_out(
    bot: Bot, clock: FakeClock
) -> None:
    service, scheduler = with_days(bot, clock, 2)
    start = clock.now
    await start_match(service, "1d")
    started = await service.vacations.start(ANN.user_id)
    assert started.vacation is not None
    assert started.vacation.ends_at == start + timedelta(days=2)
    assert await scheduler.next_due() == start + timedelta(days=2)
    assert await scheduler.run_due(start + timedelta(days=2) - timedelta(seconds=1)) == []
    assert await service.vacations.status(ANN.user_id) == VacationStatus(
        (await service.vacations.allowance(ANN.user_id)), started.vacation
    )
    clock.set(start + timedelta(days=2, hours=5))  # the bot was late: the end is not
    await scheduler.run_due(clock.now)
    status = await service.vacations.status(ANN.user_id)
    assert not status.away and status.allowance.hours_left == 0
    (ledger,) = await bot.store.vacations.of_player(ANN.user_id, since=start)
    assert ledger.ended_at == start + timedelta(days=2)
    assert await deadline(bot) == start + timedelta(days=3)  # her full day from the end
    with pytest.raises(VacationRefused) as refused:
        await service.vacations.start(ANN.user_id)
    assert refused.value.code == Code.NO_VACATION_DAYS_LEFT
    assert refused.value.fields == {"days": 2}
    assert await bot.store.vacations.of_player(ANN.user_id, since=start) == [ledger]


async def test_the_days_are_counted_to_the_hour(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await bot.service.vacations.start(ANN.user_id)
    clock.advance(90 * 60)  # an hour and a half: two started hours
    assert (await bot.service.vacations.allowance(ANN.user_id)).hours_used == 2
    back = await bot.service.vacations.end(ANN.user_id)
    assert back.allowance.hours_used == 2 and back.allowance.hours_left == 14 * 24 - 2
    clock.advance(DAY)
    again = await bot.service.vacations.start(ANN.user_id)
    assert again.vacation is not None
    assert again.vacation.ends_at == clock.now + timedelta(hours=14 * 24 - 2)
    assert start.year == clock.now.year


async def test_each_calendar_year_has_its_own_days(bot: Bot, clock: FakeClock) -> None:
    service, _ = with_days(bot, clock, 2)
    clock.set(datetime(2026, 12, 31, 20, 0, tzinfo=UTC))
    started = await service.vacations.start(ANN.user_id)
    assert started.vacation is not None
    # 48 hours cannot all be spent in 2026: the vacation runs on into 2027's 48.
    assert started.vacation.ends_at == datetime(2027, 1, 3, 0, 0, tzinfo=UTC)
    clock.set(datetime(2027, 1, 1, 2, 30, tzinfo=UTC))
    await service.vacations.end(ANN.user_id)
    this_year = await service.vacations.allowance(ANN.user_id)
    assert (this_year.year, this_year.hours_used) == (2027, 3)
    (ledger,) = await bot.store.vacations.of_player(ANN.user_id, since=clock.now - timedelta(1))
    assert hours_used([ledger], 2026, clock.now) == 4


def test_the_planned_end_and_the_hours_used_of_a_ledger() -> None:
    at = datetime(2026, 6, 1, 10, 15, tzinfo=UTC)
    assert planned_end(at, 5, 48) == at + timedelta(hours=5)
    late = datetime(2026, 12, 31, 23, 0, tzinfo=UTC)
    assert planned_end(late, 5, 48) == datetime(2027, 1, 3, tzinfo=UTC)
    ledger = [
        Vacation(1, 5, at, at + timedelta(days=9), at + timedelta(minutes=1)),
        Vacation(2, 5, at + timedelta(days=1), at + timedelta(days=9), None),
    ]
    assert hours_used(ledger, 2026, at + timedelta(days=1, hours=3)) == 1 + 3
    assert hours_used(ledger, 2025, at + timedelta(days=2)) == 0


async def test_refusals_leave_the_ledger_as_it_was(bot: Bot, clock: FakeClock) -> None:
    with pytest.raises(VacationRefused) as not_away:
        await bot.service.vacations.end(ANN.user_id)
    assert not_away.value.code == Code.NOT_ON_VACATION
    assert await bot.store.vacations.of_player(ANN.user_id, since=clock.now) == []
    first = await bot.service.vacations.start(ANN.user_id)
    clock.advance(HOUR)
    with pytest.raises(VacationRefused) as twice:
        await bot.service.vacations.start(ANN.user_id)
    assert twice.value.code == Code.ALREADY_ON_VACATION
    assert await bot.store.vacations.open() == [first.vacation]


async def test_two_schedulers_on_one_file_end_a_vacation_once(
    bot: Bot, clock: FakeClock, db_path: Path
) -> None:
    other = await Bot.open_beside(db_path, clock)
    try:
        service, scheduler = with_days(bot, clock, 1)
        other_service, other_scheduler = with_days(other, clock, 1)
        await start_match(service, "1d")
        await service.vacations.start(ANN.user_id)
        due = clock.advance(DAY)
        ends = [
            await service.vacations.end_due(due),
            await other_service.vacations.end_due(due),
        ]
        assert sorted(len(ended) for ended in ends) == [0, 1]
        assert await scheduler.run_due(due) == [] and await other_scheduler.run_due(due) == []
    finally:
        await other.close()


async def test_each_opponent_is_told_once_in_the_games_channel(bot: Bot, clock: FakeClock) -> None:
    service, scheduler = with_days(bot, clock, 1)
    await start_match(service, "1d")
    await start_match(service, None, place=ELSEWHERE)
    posts = Posts()
    delivery = AnnouncementDelivery(service, posts)
    started = await service.vacations.start(ANN.user_id)
    assert started.games == 2
    await delivery.deliver_due()
    assert sorted((d.entry.kind, d.entry.channel_id) for d in posts.posted) == [
        ("vacation_start", HERE.channel_id),
        ("vacation_start", ELSEWHERE.channel_id),
    ]
    notice = posts.posted[0]
    assert isinstance(notice, VacationNotice) and notice.opponent_id == BOB.user_id
    assert "<@202>" in vacation_message(notice, "en")["content"]
    clock.advance(DAY)
    await scheduler.run_due(clock.now)  # the days ran out
    await scheduler.run_due(clock.now)
    await delivery.deliver_due()
    ends = [
        d for d in posts.posted if isinstance(d, VacationNotice) and d.entry.kind == "vacation_end"
    ]
    assert sorted(d.entry.channel_id for d in ends) == [HERE.channel_id, ELSEWHERE.channel_id]
    timed = next(d for d in ends if d.entry.channel_id == HERE.channel_id)
    assert timed.deadline_at == clock.now + timedelta(days=1)  # hers: she is to move
    message = vacation_message(timed, "en")
    assert message["content"].startswith("<@101>, your vacation days have run out")
    assert message["allowed_mentions"].users == [discord.Object(ANN.user_id)]
    await delivery.deliver_due()
    assert len(posts.posted) == 4


async def test_coming_back_after_the_days_ran_out_counts_only_the_days(
    bot: Bot, clock: FakeClock
) -> None:
    service, _ = with_days(bot, clock, 1)
    start = clock.now
    await service.vacations.start(ANN.user_id)
    clock.advance(2 * DAY)  # no scheduler ran meanwhile
    back = await service.vacations.end(ANN.user_id)
    assert back.allowance.hours_used == 24
    (ledger,) = await bot.store.vacations.of_player(ANN.user_id, since=start)
    assert ledger.ended_at == start + timedelta(days=1)
