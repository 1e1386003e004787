"""The Discord side: command shapes within Discord's limits, and persistent component ids."""

from __future__ import annotations

import re

from discord import app_commands

from bot.client import JarmoBot
from bot.cogs import DYNAMIC_ITEMS, JarmoCog, setup
from bot.cogs.stats import HistoryPicker, LeaderboardButton, leaderboard_message
from bot.config import BotConfig
from bot.service.stats_models import LeaderboardPage, LeaderboardRow
from tests.ratings.ratings_helpers import GUILD, rating_row


async def test_the_new_commands_are_in_the_group_and_within_discords_limits() -> None:
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    group = bot.tree.get_command("jarmo")
    assert isinstance(group, app_commands.Group)
    commands = {command.name: command for command in group.commands}
    assert {"leaderboard", "stats", "history", "standings"} <= set(commands)
    for name in ("leaderboard", "stats", "history"):
        shape = commands[name].to_dict(bot.tree)
        assert re.fullmatch(r"[a-z_-]{1,32}", shape["name"])
        assert 1 <= len(shape["description"]) <= 100
        assert len(shape["options"]) <= 25
        for option in shape["options"]:
            assert re.fullmatch(r"[a-z_-]{1,32}", option["name"])
            assert 1 <= len(option["description"]) <= 100
    assert JarmoCog().leaderboard is not commands["leaderboard"]  # each bot has its own


def test_the_components_are_registered_as_persistent_items() -> None:
    assert LeaderboardButton in DYNAMIC_ITEMS and HistoryPicker in DYNAMIC_ITEMS


def page_of(page: int, pages: int) -> LeaderboardPage:
    rows = [LeaderboardRow(1, 5, "Ann", rating_row(5, 1100.0, 1))]
    return LeaderboardPage(GUILD, "classic", page, pages, pages * 10, rows, 5, None)


def test_page_buttons_have_distinct_ids_that_match_their_template() -> None:
    for page, pages in ((0, 3), (1, 3), (2, 3), (0, 2), (1, 2)):
        view = leaderboard_message(page_of(page, pages))["view"]
        ids = [item.item.custom_id for item in view.children]
        assert len(set(ids)) == 2
        for custom_id in ids:
            found = LeaderboardButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            assert found and found["guild"] == str(GUILD) and len(custom_id) <= 100
        previous, following = view.children
        assert previous.item.disabled == (page == 0)
        assert following.item.disabled == (page == pages - 1)
    assert "view" not in leaderboard_message(page_of(0, 1))


def test_the_history_picker_id_carries_the_query() -> None:
    picker = HistoryPicker(None, guild_id=GUILD, user_id=101, opponent_id=None)
    found = HistoryPicker.__discord_ui_compiled_template__.fullmatch(picker.item.custom_id)
    assert found and (found["user"], found["opponent"]) == ("101", "0")
