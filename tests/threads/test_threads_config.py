"""``threads`` under ``[discord]``: whether matches move into threads by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import BotConfig, ConfigError, load_config


def config_with(tmp_path: Path, line: str) -> BotConfig:
    path = tmp_path / "config.toml"
    path.write_text(f"[discord]\n{line}\n", encoding="utf-8")
    return load_config(path, env={})


def test_threads_are_on_unless_the_config_turns_them_off(tmp_path: Path) -> None:
    assert config_with(tmp_path, "").threads is True
    assert config_with(tmp_path, "threads = false").threads is False


def test_a_quoted_or_numeric_threads_value_is_refused_naming_the_key(tmp_path: Path) -> None:
    for value in ('"no"', "0"):
        with pytest.raises(ConfigError, match=r"discord\.threads.*true or false"):
            config_with(tmp_path, f"threads = {value}")
