"""The move limit's key: ``[game] max_moves`` (what players call it), with ``max_plies`` still
read for configurations written before the rename."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config

NO_ENV: dict[str, str] = {}


def config_file(folder: Path, game: str) -> Path:
    path = folder / "jarmo.toml"
    path.write_text("[game]\n" + game)
    return path


@pytest.mark.parametrize("key", ["max_moves", "max_plies"])
def test_either_name_sets_the_move_limit(tmp_path: Path, key: str) -> None:
    assert load_config(config_file(tmp_path, f"{key} = 120\n"), env=NO_ENV).max_plies == 120


def test_both_names_at_once_are_refused(tmp_path: Path) -> None:
    path = config_file(tmp_path, "max_moves = 120\nmax_plies = 150\n")
    with pytest.raises(ConfigError) as error:
        load_config(path, env=NO_ENV)
    assert error.value.key == "game.max_plies"
    assert "game.max_moves already sets this" in str(error.value)


def test_the_new_name_is_checked_like_the_old(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(config_file(tmp_path, "max_moves = 5\n"), env=NO_ENV)
    assert error.value.key == "game.max_moves" and "from 10 to 1000" in str(error.value)


def test_a_misspelt_name_suggests_the_new_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(config_file(tmp_path, "max_move = 120\n"), env=NO_ENV)
    assert "did you mean game.max_moves?" in str(error.value)
