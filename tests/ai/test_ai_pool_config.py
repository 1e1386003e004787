"""``[computer] workers`` and ``JARMO_COMPUTER_WORKERS``: how many search processes to run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_one_worker_per_core_by_default(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), env={})
    assert config.computer_workers == len(os.sched_getaffinity(0)) >= 1


def test_the_file_sets_the_workers_and_the_environment_wins(tmp_path: Path) -> None:
    path = write(tmp_path, "[computer]\nworkers = 3\n")
    assert load_config(path, env={}).computer_workers == 3
    assert load_config(path, env={"JARMO_COMPUTER_WORKERS": " 5 "}).computer_workers == 5


@pytest.mark.parametrize("value", ["0", "65", "two", "1.5"])
def test_a_bad_worker_count_in_the_environment_is_named(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="JARMO_COMPUTER_WORKERS: expected an integer from 1"):
        load_config(write(tmp_path, ""), env={"JARMO_COMPUTER_WORKERS": value})


def test_a_bad_worker_count_in_the_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"computer\.workers: expected an integer from 1 to 64"):
        load_config(write(tmp_path, "[computer]\nworkers = 0\n"), env={})
