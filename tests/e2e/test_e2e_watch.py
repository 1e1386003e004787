"""End to end: the live board from Discord. ``/jarmo watch`` answers privately with a link
that names the channel's game and the asker; a server that turned watching off is refused;
the board's **Play live** button opens the Activity in the channel."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import aiohttp
import pytest

from bot.service import JarmoService
from bot.store import open_store
from bot.web.tokens import read_watch_token
from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import Table, check_private, manager
from tests.e2e.fake_discord import LAUNCH_ACTIVITY, FakeDiscord
from tests.e2e.fake_models import Message

pytestmark = pytest.mark.sqlite_only("reads the links' signing secret from the SQLite file")

PUBLIC_URL = "https://jarmo.example.org"
LINK = re.compile(re.escape(PUBLIC_URL) + r"/watch#([A-Za-z0-9_-]+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    """A bot that serves the live board and the Activity of the fake's app."""
    fake.activity = True
    process = BotProcess(
        fake, tmp_path_factory.mktemp("bot"), live_board_url=PUBLIC_URL, activity=True
    )
    process.start()
    yield process
    fake.wait_idle()
    status, _ = process.stop()
    assert status == 0, process.log_tail()


def game_id(board: Message) -> int:
    """The game of a board message, from its Move button (``jarmo:move:<game>:<plies>``)."""
    custom_id = str(board.button("Move")["custom_id"])
    return int(custom_id.split(":")[2])


def signing_secret(bot: BotProcess) -> bytes:
    """The secret the bot signs links with, as the service gives it (the bot holds its
    database alone, so it stops for the reading and starts again)."""

    async def read() -> bytes:
        async with open_store(bot.database) as store:
            return await JarmoService(store).web_secret()

    status, _ = bot.stop()
    assert status == 0, bot.log_tail()
    try:
        return asyncio.run(read())
    finally:
        bot.start()


def test_watch_answers_privately_with_a_link_to_the_game_for_the_asker(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-1")
    check_private(fake.slash(world.cat, here, "jarmo watch").wait_answer(), "no game")
    table = Table.start(fake, here, world.ann, world.bob)
    board = table.play("A1-C2").message
    assert board is not None
    asked = datetime.now(UTC)
    answer = fake.slash(world.cat, here, "jarmo watch").wait_answer()
    check_private(answer, "live board")
    found = LINK.search(answer.content)
    assert found is not None, answer.content
    grant = read_watch_token(signing_secret(bot), found[1], now=datetime.now(UTC))
    assert (grant.game_id, grant.user_id) == (game_id(board), world.cat.id)
    lifetime = grant.expires_at - asked
    assert timedelta(hours=23, minutes=59) <= lifetime <= timedelta(hours=24, seconds=5)


def test_watch_is_refused_where_the_server_turned_watching_off(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-2")
    Table.start(fake, here, world.ann, world.bob)
    refused = fake.slash(world.ann, here, "jarmo server watch", on=False).wait_answer()
    check_private(refused, "Only members who can manage this server")
    with manager(fake, world.cat):
        saved = fake.slash(world.cat, here, "jarmo server watch", on=False).wait_answer()
    check_private(saved, "Saved.", "Live board: off.")
    try:
        answer = fake.slash(world.bob, here, "jarmo watch").wait_answer()
        check_private(answer, "turned the live board off", "/jarmo server watch on")
        assert LINK.search(answer.content) is None
        played = fake.slash(world.ann, here, "jarmo move", move="A1-C2").wait_answer()
        assert played.message is not None
        assert [b["label"] for b in played.message.buttons] == ["Move"]
    finally:
        with manager(fake, world.cat):
            fake.slash(world.cat, here, "jarmo server watch", on=True).wait_answer()


def test_play_live_under_the_board_launches_the_activity_in_the_channel(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-3")
    table = Table.start(fake, here, world.ann, world.bob)
    board = table.play("A1-C2").message
    assert board is not None
    assert [b["label"] for b in board.buttons] == ["Move", "Play live"]
    press = fake.press(world.cat, board, "Play live")
    assert press.wait_answer().type == LAUNCH_ACTIVITY
    [instance] = fake.instances_in(here)
    assert instance.users == [world.cat.id] and instance.guild_id == world.guild_id


SERVER_LINK = re.compile(re.escape(PUBLIC_URL) + r"/server#([A-Za-z0-9_-]+)$", re.MULTILINE)


def test_the_server_page_turned_on_in_discord_shows_the_game_played_there(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    here = world.channel("arena-4")
    Table.start(fake, here, world.ann, world.bob).play("A1-C2")
    prompt = fake.slash(world.bob, here, "jarmo resign").wait_answer()
    assert prompt.message is not None
    fake.press(world.bob, prompt.message, "Yes, resign the match").wait_answer()
    with manager(fake, world.cat):
        answer = fake.slash(world.cat, here, "jarmo server web", on=True).wait_answer()
    check_private(answer, "Saved.", "Web page: on.")
    found = SERVER_LINK.search(answer.content)
    assert found is not None, answer.content
    try:
        address = bot.live_board_address()

        async def read(path: str, body: dict[str, str]) -> tuple[int, dict[str, object]]:
            async with (
                aiohttp.ClientSession() as http,
                http.post(f"{address}{path}", json=body) as page,
            ):
                return page.status, await page.json()

        status, overview = asyncio.run(read("/api/server/overview", {"token": found[1]}))
        assert status == 200
        games = overview["games"]
        assert isinstance(games, list) and len(games) == 1
        assert games[0]["players"]["white"]["name"] == "Ann" and games[0]["winner"] == "white"
        body = {"token": found[1], "game_id": games[0]["id"]}
        status, replay = asyncio.run(read("/api/server/game", body))
        assert status == 200 and replay["moves"] == ["A1-C2"]
    finally:
        with manager(fake, world.cat):
            fake.slash(world.cat, here, "jarmo server web", on=False).wait_answer()
    status, _ = asyncio.run(read("/api/server/overview", {"token": found[1]}))
    assert status == 403
