"""The announcement outbox: what must be posted is written with the change it announces, and
delivered exactly once — also when the bot died between the commit and the post."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import update

from bot.jarmo import Game
from bot.service.computer import ComputerOpponent
from bot.service.delivery import (
    MAX_ATTEMPTS,
    AnnouncementDelivery,
    ClockNotice,
    ComputerMoveNotice,
    Delivery,
    Undeliverable,
)
from bot.service.models import ChallengeRequest
from bot.store import OutboxEntry
from bot.store.schema import games
from tests.clock.clock_helpers import ANN, COMPUTER, ELSEWHERE, HERE, Bot, play_one, start_match
from tests.fakes import FakeClock


class Posts:
    """A front end that records what it posts (and can be told to fail)."""

    def __init__(self, failure: Exception | None = None) -> None:
        self.posted: list[Delivery] = []
        self.failure = failure

    async def __call__(self, delivery: Delivery) -> None:
        if self.failure is not None:
            raise self.failure
        self.posted.append(delivery)


def kinds(posts: Posts) -> list[str]:
    return [d.entry.kind for d in posts.posted]


async def test_a_timeout_committed_before_a_crash_is_announced_once_after_the_restart(
    db_path: Path, clock: FakeClock
) -> None:
    bot = await Bot.open(db_path, clock)
    await start_match(bot.service, "1h")
    clock.advance(3_600)
    (event,) = await bot.scheduler.run_due(clock.now)
    assert event.kind == "timeout"
    await bot.close()  # died before anything was posted

    bot = await Bot.open(db_path, clock)
    try:
        posts = Posts()
        delivery = AnnouncementDelivery(bot.service, posts)
        assert await bot.scheduler.run_due(clock.now) == []  # the timeout is not applied again
        await delivery.deliver_due()
        assert kinds(posts) == ["timeout"]
        (notice,) = posts.posted
        assert isinstance(notice, ClockNotice)
        timeout = notice.event
        assert timeout.report is not None
        assert timeout.report.ended is not None and timeout.report.ended.status == "timeout"
        assert timeout.user_id == event.user_id
        await delivery.deliver_due()
        assert kinds(posts) == ["timeout"]  # settled: never twice
    finally:
        await bot.close()


async def test_a_reminder_goes_to_the_outbox_with_its_claim(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    clock.advance(1_800)
    (event,) = await bot.scheduler.run_due(clock.now)
    posts = Posts()
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    (posted,) = posts.posted
    assert isinstance(posted, ClockNotice) and posted.event.kind == "reminder"
    assert (posted.event.user_id, posted.event.deadline_at) == (event.user_id, event.deadline_at)


async def test_the_computers_move_is_held_for_its_caller_and_delivered_if_it_never_posts(
    db_path: Path, clock: FakeClock
) -> None:
    bot = await Bot.open(db_path, clock)
    computer = ComputerOpponent(bot.service, think=first_legal_move)
    await computer.start(HERE, ANN, ChallengeRequest(COMPUTER, side="black"))
    reply = await computer.reply(HERE)  # the computer has White: its first move
    assert reply is not None and reply.announcement is not None
    posts = Posts()
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    assert posts.posted == []  # held: the caller is posting it
    await bot.close()  # ... and died before it did

    bot = await Bot.open(db_path, clock)
    try:
        ComputerOpponent(bot.service, think=first_legal_move)
        delivery = AnnouncementDelivery(bot.service, posts)
        await delivery.deliver_due()
        (posted,) = posts.posted
        assert isinstance(posted, ComputerMoveNotice)
        assert (posted.report.actor_id, posted.report.action) == (COMPUTER.user_id, reply.action)
        assert posted.report.board.game.version == 1
        await delivery.deliver_due()
        assert len(posts.posted) == 1
    finally:
        await bot.close()


async def never_posted_computer_move(bot: Bot, clock: FakeClock) -> ComputerMoveNotice:
    """Deliver the computer's move that its caller never posted."""
    clock.advance(3_600)  # long past the hold
    posts = Posts()
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    (posted,) = posts.posted
    assert isinstance(posted, ComputerMoveNotice)
    return posted


async def test_a_computer_move_delivered_after_a_resignation_shows_the_move_not_the_end(
    bot: Bot, clock: FakeClock
) -> None:
    computer = ComputerOpponent(bot.service, think=first_legal_move)
    await computer.start(HERE, ANN, ChallengeRequest(COMPUTER, side="black"))
    reply = await computer.reply(HERE)
    assert reply is not None
    await bot.service.play.resign(HERE, ANN)  # an ending: a change that adds no action
    posted = await never_posted_computer_move(bot, clock)
    assert posted.report.ended is None  # the resignation is announced by itself
    assert posted.report.board.game.engine.history == [reply.action]


async def test_a_computer_move_delivered_late_shows_its_own_ply_whatever_the_version(
    bot: Bot, clock: FakeClock
) -> None:
    computer = ComputerOpponent(bot.service, think=first_legal_move)
    await computer.start(HERE, ANN, ChallengeRequest(COMPUTER, side="black"))
    started = await bot.service.play.board(HERE)
    # Its version ahead of its plies, as a move taken back leaves a game.
    await bot.store._writer.run(
        lambda db: db.execute(
            update(games).where(games.c.id == started.game.id).values(version=games.c.version + 4)
        )
    )
    reply = await computer.reply(HERE)
    assert reply is not None
    await play_one(bot.service)  # Ann answers before the computer's move is posted
    posted = await never_posted_computer_move(bot, clock)
    board = posted.report.board.game
    assert (board.version, board.engine.history) == (5, [reply.action])


async def test_a_posted_computer_move_is_not_delivered_again(bot: Bot, clock: FakeClock) -> None:
    computer = ComputerOpponent(bot.service, think=first_legal_move)
    await computer.start(HERE, ANN, ChallengeRequest(COMPUTER, side="black"))
    reply = await computer.reply(HERE)
    assert reply is not None and reply.announcement is not None
    await bot.service.announcements.posted(reply.announcement)
    clock.advance(3_600)  # long past the hold
    posts = Posts()
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    assert posts.posted == []


async def test_a_failed_post_is_retried_later_then_given_up(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    clock.advance(3_600)
    await bot.scheduler.run_due(clock.now)
    failing = Posts(ConnectionError("Discord is down"))
    delivery = AnnouncementDelivery(bot.service, failing)
    await delivery.deliver_due()
    upcoming = await bot.store.outbox.next_due()
    assert upcoming is not None and upcoming > clock.now  # waits before trying again
    for _ in range(MAX_ATTEMPTS):
        clock.advance(3_600)
        await delivery.deliver_due()
    assert await bot.store.outbox.next_due() is None  # given up, not retried forever
    working = Posts()
    clock.advance(timedelta(days=1).total_seconds())
    await AnnouncementDelivery(bot.service, working).deliver_due()
    assert working.posted == []


async def test_an_undeliverable_announcement_is_dropped_at_once(bot: Bot, clock: FakeClock) -> None:
    await start_match(bot.service, "1h")
    clock.advance(3_600)
    await bot.scheduler.run_due(clock.now)
    await AnnouncementDelivery(bot.service, Posts(Undeliverable("channel deleted"))).deliver_due()
    assert await bot.store.outbox.next_due() is None


async def first_legal_move(data: dict[str, object], level: str, seed: int) -> str:
    return Game.from_dict(data).legal_moves()[0]


async def test_an_entry_that_cannot_be_rebuilt_does_not_hold_up_the_others(
    bot: Bot, clock: FakeClock
) -> None:
    await start_match(bot.service, "1h", place=HERE)
    await start_match(bot.service, "1h", place=ELSEWHERE)
    clock.advance(3_600)
    assert len(await bot.scheduler.run_due(clock.now)) == 2
    posts = Posts()
    delivery = AnnouncementDelivery(bot.service, posts)
    real_rebuild = delivery.rebuild

    async def rebuild_failing_first(entry: OutboxEntry) -> Delivery:
        if entry.channel_id == HERE.channel_id:
            raise RuntimeError("a bug in rebuilding this one")
        return await real_rebuild(entry)

    delivery.rebuild = rebuild_failing_first  # type: ignore[method-assign]  # a failing rebuild, for this test
    await delivery.deliver_due()
    assert [d.entry.channel_id for d in posts.posted] == [ELSEWHERE.channel_id]
    upcoming = await bot.store.outbox.next_due()
    assert upcoming is not None and upcoming > clock.now  # the faulty one waits, then retries
