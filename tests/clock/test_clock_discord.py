"""The Discord side of the clock: the persistent pause button, the new commands and options
within Discord's limits, and the autocomplete for time_per_move."""

from __future__ import annotations

from typing import Any

from bot.client import JarmoBot
from bot.cogs import DYNAMIC_ITEMS, PauseButton, setup
from bot.cogs.clock import time_per_move_choices
from bot.config import BotConfig
from bot.service import PauseOffer

SNOWFLAKE = 2**63 - 1


def test_the_pause_button_keeps_its_offer_in_the_custom_id() -> None:
    offer = PauseOffer(2**40, 199, SNOWFLAKE, SNOWFLAKE - 1)
    button = PauseButton(offer)
    custom_id = button.item.custom_id
    assert custom_id == f"jarmo:pause:{2**40}:199:{SNOWFLAKE}:{SNOWFLAKE - 1}"
    assert len(custom_id) <= 100
    found = PauseButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert found is not None
    assert PauseOffer(*(int(found[k]) for k in ("game", "version", "by", "to"))) == offer
    assert PauseButton in DYNAMIC_ITEMS


async def published_commands() -> list[dict[str, Any]]:
    """The slash commands a bot publishes, as Discord receives them."""
    bot = JarmoBot(BotConfig(), serve=False)
    await setup(bot)
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


async def test_pause_and_resume_are_jarmo_subcommands_within_limits() -> None:
    (payload,) = await published_commands()
    subcommands = {option["name"]: option for option in payload["options"]}
    assert {"pause", "resume"} <= set(subcommands)
    assert len(subcommands) <= 25
    for name, option in subcommands.items():
        assert name == name.lower() and len(name) <= 32
        assert 1 <= len(option["description"]) <= 100, name
        flags = [o.get("required", False) for o in option.get("options", [])]
        assert flags == sorted(flags, reverse=True), f"{name}: required options first"
    (time_option,) = [
        o for o in subcommands["challenge"]["options"] if o["name"] == "time_per_move"
    ]
    assert time_option["autocomplete"] is True and not time_option.get("required")
    assert 1 <= len(time_option["description"]) <= 100


def values(current: str) -> list[str]:
    return [choice.value for choice in time_per_move_choices(current)]


def test_time_per_move_autocomplete() -> None:
    assert values("")[:5] == ["5m", "30m", "1h", "2h", "12h"]
    assert "none" in values("") and len(values("")) <= 25
    assert values("1") == ["1h", "12h", "1d"]
    assert values("45m")[0] == "45m"  # a valid limit that is not a preset comes first
    assert values("90 MIN")[0] == "90m"
    assert values("soon") == values("")  # nothing fits: offer the usual ones
    assert "15d" not in values("15d")
