"""Turn pings through the outbox: a move writes a direct message to a player who asked for one
(delivered once, with the board after the move), a reminder follows the player's choice, and a
game against the computer pings nobody."""

from __future__ import annotations

from bot.cogs.clock import deadline_message
from bot.jarmo import Game
from bot.service.computer import ComputerOpponent
from bot.service.delivery import AnnouncementDelivery, ClockNotice, Delivery, PingNotice, direct_to
from bot.service.models import ChallengeRequest
from tests.clock.clock_helpers import ANN, BOB, COMPUTER, HERE, Bot, play_one, start_match
from tests.fakes import FakeClock


class Posts:
    """A front end that records what it posts."""

    def __init__(self) -> None:
        self.posted: list[Delivery] = []

    async def __call__(self, delivery: Delivery) -> None:
        self.posted.append(delivery)


async def test_a_move_pings_a_player_who_chose_dm_once_by_a_direct_message(
    bot: Bot, clock: FakeClock
) -> None:
    await bot.service.pings.choose(BOB.user_id, "dm")
    await start_match(bot.service, None)  # Ann has White and moves first
    report = await play_one(bot.service)
    assert report.turn_ping == "dm"
    posts = Posts()
    delivery = AnnouncementDelivery(bot.service, posts)

    await delivery.deliver_due()
    await delivery.deliver_due()

    (ping,) = posts.posted
    assert isinstance(ping, PingNotice)
    assert (direct_to(ping), ping.user_id, ping.channel_id) == (BOB.user_id, BOB.user_id, 10)
    assert ping.report.board.game.version == 1 and ping.report.actor_id == ANN.user_id
    assert ping.report.board.turn_user_id == BOB.user_id
    report = await play_one(bot.service)  # Bob answers: Ann is mentioned, as by default
    assert report.turn_ping == "mention"
    await delivery.deliver_due()
    assert len(posts.posted) == 1


async def test_a_reminder_goes_by_dm_or_unmentioned_as_the_player_chose(
    bot: Bot, clock: FakeClock
) -> None:
    await bot.service.pings.choose(ANN.user_id, "dm")
    await start_match(bot.service, "1h")  # Ann to move
    clock.advance(1_800)
    (event,) = await bot.scheduler.run_due(clock.now)
    posts = Posts()
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    (reminder,) = posts.posted
    assert isinstance(reminder, ClockNotice) and direct_to(reminder) == ANN.user_id
    assert (reminder.event.channel_id, reminder.event.pinged) == (HERE.channel_id, True)

    await bot.service.pings.choose(ANN.user_id, "off")
    await play_one(bot.service)
    await play_one(bot.service)  # Ann to move again, on a fresh hour
    clock.advance(1_800)
    (event,) = await bot.scheduler.run_due(clock.now)
    assert not event.pinged
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    quiet = posts.posted[-1]
    assert isinstance(quiet, ClockNotice) and direct_to(quiet) is None
    assert not quiet.event.pinged
    message = await deadline_message(quiet.event)
    assert f"<@{ANN.user_id}>" in message["content"]  # named, but not notified
    assert message["allowed_mentions"].users == []


async def test_a_game_against_the_computer_pings_nobody(bot: Bot, clock: FakeClock) -> None:
    await bot.service.pings.choose(ANN.user_id, "dm")
    computer = ComputerOpponent(bot.service, think=first_legal_move)
    await computer.start(HERE, ANN, ChallengeRequest(COMPUTER, side="black"))
    reply = await computer.reply(HERE)  # the computer has White: its first move
    assert reply is not None and reply.turn_ping == "off"
    posts = Posts()
    await AnnouncementDelivery(bot.service, posts).deliver_due()
    assert not any(isinstance(p, PingNotice) for p in posts.posted)


async def first_legal_move(data: dict[str, object], level: str, seed: int) -> str:
    return Game.from_dict(data).legal_moves()[0]
