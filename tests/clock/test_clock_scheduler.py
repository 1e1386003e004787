"""The deadline scheduler: reminders sent once, timeouts applied once (also across restarts and
over the same database file), in time order, and never to a game that ended or moved first."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cogs.clock import deadline_message
from bot.service import NoGameHere, Place, TimeUp, read_action
from bot.words import report_text
from tests.clock.clock_helpers import (
    ANN,
    BOB,
    DAY,
    ELSEWHERE,
    HERE,
    HOUR,
    Bot,
    play_one,
    start_match,
)
from tests.fakes import FakeClock
from tests.wording import refused, voice


async def test_one_hour_gets_one_reminder_at_half_time(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await start_match(bot.service, "1h")
    assert await bot.scheduler.next_due() == start + timedelta(minutes=30)
    assert await bot.scheduler.run_due(start + timedelta(minutes=29, seconds=59)) == []
    (event,) = await bot.scheduler.run_due(start + timedelta(minutes=30))
    assert (event.kind, event.user_id, event.channel_id) == ("reminder", ANN.user_id, 10)
    assert event.due_at == start + timedelta(minutes=30)
    assert event.deadline_at == start + timedelta(hours=1)
    assert await bot.scheduler.run_due(start + timedelta(minutes=31)) == []
    assert await bot.scheduler.run_due(start + timedelta(minutes=55)) == []  # no 10% for 1h
    assert await bot.scheduler.next_due() == start + timedelta(hours=1)


async def test_one_day_gets_reminders_at_half_and_ten_percent(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await start_match(bot.service, "1d")
    times = [start + timedelta(hours=12), start + timedelta(hours=21, minutes=36)]
    sent = []
    for minute in range(0, 24 * 60, 6):  # a pass every 6 minutes, like a scheduler would
        sent += await bot.scheduler.run_due(start + timedelta(minutes=minute))
    assert [(e.kind, e.due_at) for e in sent] == [("reminder", at) for at in times]
    (running,) = await bot.service.clocks.running()
    assert running.reminders_sent == 2


async def test_missed_reminders_are_sent_once_not_twice(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await start_match(bot.service, "1d")
    (event,) = await bot.scheduler.run_due(start + timedelta(hours=23))
    assert event.kind == "reminder"
    assert event.due_at == start + timedelta(hours=21, minutes=36)
    assert await bot.scheduler.run_due(start + timedelta(hours=23, minutes=30)) == []


async def test_the_reminder_pings_only_the_player_to_move(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "5m")
    await play_one(bot.service)  # now Bob is to move
    (event,) = await bot.scheduler.run_due(clock.now + timedelta(minutes=3))
    message = await deadline_message(event)
    assert event.user_id == BOB.user_id
    assert f"<@{BOB.user_id}>" in message["content"]
    assert f"<t:{int(event.deadline_at.timestamp())}:R>" in message["content"]
    mentions = message["allowed_mentions"]
    assert [user.id for user in mentions.users] == [BOB.user_id]
    assert mentions.everyone is False and mentions.roles is False


async def test_the_player_to_move_loses_on_time(bot: Bot, clock: FakeClock) -> None:
    start = clock.now
    await start_match(bot.service, "5m", games=4)
    clock.advance(60)
    await play_one(bot.service)  # Ann moved; Bob's five minutes start now
    deadline = clock.now + timedelta(minutes=5)
    events = await bot.scheduler.run_due(deadline)
    assert [(e.kind, e.user_id) for e in events] == [("timeout", BOB.user_id)]
    report = events[0].report
    assert report is not None and report.ended is not None
    assert report.ended.status == "timeout" and report.ended.winner_id == ANN.user_id
    assert report.standings is not None and report.standings.over
    assert report.standings.match.state == "forfeited"
    assert report.standings.winner_id == ANN.user_id
    assert report.board.game.status == "timeout" and report.board.game.termination == "timeout"
    text = report_text(report, voice({101: "Ann", 202: "Bob"}.get))
    assert "Bob ran out of time." in text and "time ran out" in text
    assert "Ann wins the match (by forfeit)!" in text
    assert (await deadline_message(events[0]))["embeds"][0].image.url == "attachment://board.png"
    ann = await bot.store.results.player_stats(1, ANN.user_id)
    bob = await bot.store.results.player_stats(1, BOB.user_id)
    assert (ann.overall.games, ann.overall.wins, ann.match_wins) == (1, 1, 1)
    assert (bob.overall.games, bob.overall.losses, bob.match_wins) == (1, 1, 0)
    assert await bot.store.games.active(HERE.channel_id) is None
    assert await bot.scheduler.run_due(start + timedelta(days=30)) == []
    assert await bot.scheduler.next_due() is None


async def test_a_timeout_is_applied_once_across_restarts(db_path: Path, clock: FakeClock) -> None:
    first = await Bot.open(db_path, clock)
    start = clock.now
    await start_match(first.service, "1h")
    await first.close()  # the bot goes down before anything is due

    late = start + timedelta(hours=5)
    applied = []
    for _ in range(3):  # the first restart catches up; the next two find nothing to do
        restarted = await Bot.open(db_path, clock)
        try:
            applied.append([e.kind for e in await restarted.scheduler.run_due(late)])
        finally:
            await restarted.close()
    assert applied == [["timeout"], [], []]

    check = await Bot.open(db_path, clock)
    try:
        ann = (await check.store.results.player_stats(1, ANN.user_id)).overall
        bob = await check.store.results.player_stats(1, BOB.user_id)
        assert (ann.games, ann.losses, bob.overall.games, bob.overall.wins) == (1, 1, 1, 1)
        assert bob.match_wins == 1
    finally:
        await check.close()


async def test_two_schedulers_on_one_file_apply_each_event_once(
    db_path: Path, clock: FakeClock
) -> None:
    one, two = await Bot.open(db_path, clock), await Bot.open_beside(db_path, clock)
    try:
        await start_match(one.service, "1d")
        half = clock.now + timedelta(hours=12)
        both = await asyncio.gather(one.scheduler.run_due(half), two.scheduler.run_due(half))
        assert sorted(len(events) for events in both) == [0, 1]
        end = clock.now + timedelta(days=1)
        both = await asyncio.gather(one.scheduler.run_due(end), two.scheduler.run_due(end))
        assert sorted(e.kind for events in both for e in events) == ["timeout"]
    finally:
        await one.close()
        await two.close()


async def test_events_missed_while_down_are_applied_in_time_order(
    db_path: Path, clock: FakeClock
) -> None:
    bot = await Bot.open(db_path, clock)
    start = clock.now
    await start_match(bot.service, "2h", place=HERE)  # deadline start + 2h
    await start_match(bot.service, "1h", place=ELSEWHERE)  # deadline start + 1h
    await start_match(bot.service, "1d", place=bot_place(12))  # reminder due at start + 12h
    await bot.close()

    bot = await Bot.open(db_path, clock)
    try:
        events = await bot.scheduler.run_due(start + timedelta(hours=13))
    finally:
        await bot.close()
    assert [(e.kind, e.channel_id, e.due_at - start) for e in events] == [
        ("timeout", ELSEWHERE.channel_id, timedelta(hours=1)),
        ("timeout", HERE.channel_id, timedelta(hours=2)),
        ("reminder", 12, timedelta(hours=12)),
    ]


def bot_place(channel_id: int) -> Place:
    from bot.service import Place

    return Place(guild_id=1, channel_id=channel_id)


async def test_a_game_finished_just_before_its_deadline_is_not_timed_out(
    bot: Bot, clock: FakeClock
) -> None:
    start = clock.now
    await start_match(bot.service, "1h")
    (stale,) = await bot.service.clocks.running()  # what a scheduler read a moment earlier
    clock.advance(HOUR - 1)
    report = await bot.service.play.resign(HERE, ANN)
    assert report.ended is not None and report.ended.status == "resigned"
    assert await bot.scheduler.run_due(start + timedelta(hours=2)) == []
    assert await bot.service.clocks.time_out(stale, now=start + timedelta(hours=2)) is None
    game = report.board.game
    assert (await bot.store.games.get(game.id)).status == "resigned"


async def test_a_move_just_before_the_deadline_beats_a_stale_timeout(
    bot: Bot, clock: FakeClock
) -> None:
    await start_match(bot.service, "5m")
    (stale,) = await bot.service.clocks.running()
    clock.advance(299)
    await play_one(bot.service)
    assert await bot.service.clocks.time_out(stale, now=stale.deadline_at) is None
    assert (
        await bot.service.clocks.remind(stale, now=stale.deadline_at - timedelta(seconds=1)) is None
    )
    game = await bot.store.games.active(HERE.channel_id)
    assert game is not None and game.version == 1


async def test_a_timeout_first_refuses_the_racing_move(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "5m")
    (running,) = await bot.service.clocks.running()
    clock.set(running.deadline_at - timedelta(seconds=1))
    (event,) = await bot.scheduler.run_due(running.deadline_at)
    assert event.kind == "timeout"
    with pytest.raises(NoGameHere):
        await play_one(bot.service)


async def test_a_move_racing_the_deadline_exactly_one_applies(
    db_path: Path, clock: FakeClock
) -> None:
    # Both wait for the channel while the test holds it; whichever queued first goes first.
    outcomes = []
    for move_first in (True, False):
        bot = await Bot.open(db_path.with_name(f"race-{move_first}.sqlite3"), clock)
        try:
            await start_match(bot.service, "5m")
            (running,) = await bot.service.clocks.running()
            clock.set(running.deadline_at - timedelta(milliseconds=1))
            move = read_action((await bot.service.play.board(HERE)).game.engine.legal_moves()[0])
            jobs: dict[str, Callable[[], Awaitable[object]]] = {
                "move": functools.partial(bot.service.play.move, HERE, ANN, move),
                "timeout": functools.partial(bot.scheduler.run_due, running.deadline_at),
            }
            lock = bot.service.kit.locks(HERE.channel_id)
            async with lock:
                tasks = {}
                for name in ("move", "timeout") if move_first else ("timeout", "move"):
                    tasks[name] = asyncio.ensure_future(jobs[name]())
                    await queued(lock, len(tasks))
            await asyncio.gather(*tasks.values(), return_exceptions=True)
            moved = tasks["move"].exception() is None
            timed_out = bool(tasks["timeout"].result())
            assert moved != timed_out
            game = await bot.store.games.get(running.game_id)
            # Either is one change of the game; only the move adds an action.
            plies = len(game.engine.history)
            assert (game.status, game.version, plies) == (
                ("active", 1, 1) if moved else ("timeout", 1, 0)
            )
            outcomes.append(moved)
        finally:
            await bot.close()
    assert outcomes == [True, False]


QUEUE_LIMIT_SECONDS = 30.0


async def queued(lock: asyncio.Lock, count: int) -> None:
    """Wait until ``count`` tasks wait for ``lock`` (they may first read the database on other
    threads, which takes any number of loop turns on a busy machine), for a limited time.
    Polling the condition is the only way: the lock announces no waiters."""
    try:
        async with asyncio.timeout(QUEUE_LIMIT_SECONDS):
            while len(lock._waiters or ()) < count:  # noqa: ASYNC110 - the lock has no event
                await asyncio.sleep(0.001)
    except TimeoutError:
        raise AssertionError(f"{count} task(s) never reached the lock") from None


async def test_a_move_after_the_deadline_is_refused_and_wakes_the_scheduler(
    bot: Bot, clock: FakeClock
) -> None:
    await start_match(bot.service, "5m")
    clock.advance(300)
    bot.service.kit.signals.deadlines_changed.clear()
    with refused(TimeUp, "lost on time"):
        await play_one(bot.service)
    assert bot.service.kit.signals.deadlines_changed.is_set()
    game = await bot.store.games.active(HERE.channel_id)
    assert game is not None and game.version == 0  # nothing changed
    assert [e.kind for e in await bot.scheduler.run_due(clock.now)] == ["timeout"]


async def test_the_scheduler_wakes_when_a_move_sets_a_deadline(bot: Bot, clock: FakeClock) -> None:
    assert await bot.scheduler.run_due(clock.now) == []
    waiting = asyncio.ensure_future(bot.scheduler.wait(limit=30))
    await asyncio.sleep(0)
    assert not waiting.done()
    await start_match(bot.service, "1d")
    await asyncio.wait_for(waiting, 1)  # woken by the new deadline, not after 30 s


async def test_the_scheduler_does_not_wait_for_a_due_event(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    bot.service.kit.signals.deadlines_changed.clear()
    clock.advance(DAY)
    await asyncio.wait_for(bot.scheduler.wait(limit=30), 1)


@pytest.mark.parametrize(("time_per_move", "wakes"), [("1h", True), (None, False)])
async def test_only_a_timed_game_wakes_the_scheduler(
    bot: Bot, time_per_move: str | None, wakes: bool
) -> None:
    signal = bot.service.kit.signals.deadlines_changed
    await start_match(bot.service, time_per_move)
    assert signal.is_set() is wakes  # the first game's clock starts
    signal.clear()
    await play_one(bot.service)
    assert signal.is_set() is wakes  # each move restarts it
