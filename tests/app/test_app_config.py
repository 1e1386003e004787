"""Loading and checking the bot's configuration (bot/config.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import BotConfig, ConfigError, load_config
from bot.service import ServiceConfig

ROOT = Path(__file__).resolve().parents[2]
SECRET = "MTIz.secret-token.value"
NO_ENV: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in an empty folder, so no stray config.toml is picked up."""
    monkeypatch.chdir(tmp_path)


def write(folder: Path, text: str, name: str = "config.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(env=NO_ENV)
    assert config.token is None
    assert config.database == tmp_path / "data" / "jarmo.sqlite3"
    assert config.boards_dir == tmp_path / "jarmo-boards"
    assert config.dev_guild_id is None
    assert config.challenge_expiry_seconds == 600
    assert config.default_ruleset == "classic"
    assert config.warnings == ()
    assert config.max_plies == 200
    assert config.log_level == "INFO"


def test_every_key_is_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        f"""
        [discord]
        token = "{SECRET}"
        dev_guild_id = 123456789012345678
        [database]
        path = "db/games.sqlite3"
        [game]
        challenge_expiry_seconds = 30
        default_ruleset = "ludos"
        default_layout = "traditional"
        max_plies = 1000
        time_per_move = "2h"
        [logging]
        level = "debug"
        [console]
        boards_dir = "/tmp/pictures"
        """,
    )
    config = load_config(path, env=NO_ENV)
    assert config.token == SECRET
    assert config.dev_guild_id == 123456789012345678
    assert config.database == tmp_path / "db" / "games.sqlite3"
    assert config.boards_dir == Path("/tmp/pictures")
    assert config.service_config() == ServiceConfig(
        challenge_expiry_seconds=30,
        default_ruleset="ludos",
        max_plies=1000,
        time_per_move_seconds=7200,
    )
    assert config.log_level == "DEBUG"
    assert config.warnings == ()


@pytest.mark.parametrize("layout", ["bow", "knight"])
def test_an_old_board_setting_starts_with_one_warning(tmp_path: Path, layout: str) -> None:
    path = write(tmp_path, f'[game]\ndefault_layout = "{layout}"\n')
    config = load_config(path, env=NO_ENV)
    [warning] = config.warnings
    assert f"default_layout = '{layout}'" in warning and "published board" in warning
    assert str(path) in warning


def test_the_example_file_holds_the_defaults() -> None:
    example = load_config(ROOT / "config.example.toml", env=NO_ENV)
    defaults = BotConfig(database=ROOT / "data" / "jarmo.sqlite3", boards_dir=ROOT / "jarmo-boards")
    assert example == defaults


def test_relative_paths_follow_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    path = write(tmp_path / "etc", '[database]\npath = "jarmo.db"\n')
    assert load_config(path, env=NO_ENV).database == tmp_path / "etc" / "jarmo.db"


def test_config_toml_in_the_working_directory_is_found(tmp_path: Path) -> None:
    write(tmp_path, "[game]\nmax_plies = 50\n")
    assert load_config(env=NO_ENV).max_plies == 50


def test_jarmo_config_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[game]\nmax_plies = 60\n", name="other.toml")
    assert load_config(env={"JARMO_CONFIG": str(path)}).max_plies == 60


def test_an_explicit_path_wins_over_jarmo_config(tmp_path: Path) -> None:
    chosen = write(tmp_path, "[game]\nmax_plies = 70\n", name="chosen.toml")
    ignored = write(tmp_path, "[game]\nmax_plies = 80\n", name="ignored.toml")
    assert load_config(chosen, env={"JARMO_CONFIG": str(ignored)}).max_plies == 70


def test_the_environment_token_wins_over_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[discord]\ntoken = "from-the-file"\n')
    assert load_config(path, env={"DISCORD_TOKEN": " from-the-env\n"}).token == "from-the-env"
    assert load_config(path, env={"DISCORD_TOKEN": ""}).token == "from-the-file"


def test_jarmo_database_wins_over_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[database]\npath = "file.sqlite3"\n')
    config = load_config(path, env={"JARMO_DATABASE": "/data/jarmo.sqlite3"})
    assert config.database == Path("/data/jarmo.sqlite3")
    relative = load_config(path, env={"JARMO_DATABASE": "here.sqlite3"})
    assert relative.database == tmp_path / "here.sqlite3"


INVALID = [
    ("[game]\nmax_plies = 5", "game.max_plies", "integer from 10 to 1000"),
    ("[game]\nmax_plies = 1001", "game.max_plies", "integer from 10 to 1000"),
    ('[game]\nmax_plies = "200"', "game.max_plies", "integer from 10 to 1000"),
    ("[game]\nmax_plies = 20.5", "game.max_plies", "integer"),
    ("[game]\nmax_plies = true", "game.max_plies", "got true"),
    ("[game]\nchallenge_expiry_seconds = 29", "game.challenge_expiry_seconds", "30 to 86400"),
    ("[game]\nchallenge_expiry_seconds = 86401", "game.challenge_expiry_seconds", "86400"),
    ('[game]\ndefault_ruleset = "chess"', "game.default_ruleset", '"classic"'),
    ('[game]\ndefault_layout = "square"', "game.default_layout", '"traditional"'),
    ("[game]\ndefault_layout = 3", "game.default_layout", "got 3"),
    ('[logging]\nlevel = "LOUD"', "logging.level", '"DEBUG"'),
    ('[discord]\ndev_guild_id = "123"', "discord.dev_guild_id", "without quotes"),
    ("[discord]\ndev_guild_id = -4", "discord.dev_guild_id", "server ID"),
    ("[discord]\ntoken = 12345", "discord.token", "bot token"),
    ('[discord]\ntoken = ""', "discord.token", "bot token"),
    ('[database]\npath = ""', "database.path", "non-empty"),
    ("[database]\npath = [1, 2]", "database.path", "got a list"),
    ("[console]\nboards_dir = 7", "console.boards_dir", "path"),
    ('[discord]\ntokne = "x"', "discord.tokne", "did you mean discord.token?"),
    ("[game]\nmax_ply = 10", "game.max_ply", "did you mean game.max_plies?"),
    ("[gmae]\nmax_plies = 10", "gmae", "did you mean [game]?"),
    ("[extras]\nx = 1", "extras", "unknown section"),
    ('token = "x"', "token", "discord.token"),
    ('game = "classic"', "game", "table"),
]


@pytest.mark.parametrize(("text", "key", "expected"), INVALID)
def test_invalid_values_are_refused_naming_file_and_key(
    tmp_path: Path, text: str, key: str, expected: str
) -> None:
    path = write(tmp_path, text + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, env=NO_ENV)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert caught.value.key == key
    assert f": {key}: " in message
    assert expected in message


def test_a_token_with_spaces_in_the_environment_is_refused() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN") as caught:
        load_config(env={"DISCORD_TOKEN": f"Bot {SECRET}"})
    assert SECRET not in str(caught.value)


def test_a_bad_token_value_is_never_echoed(tmp_path: Path) -> None:
    path = write(tmp_path, f'[discord]\ntoken = "Bot {SECRET}"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, env=NO_ENV)
    assert SECRET not in str(caught.value)
    assert "got a string" in str(caught.value)


def test_broken_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, f'[discord]\ntoken = "{SECRET}\n')
    with pytest.raises(ConfigError, match="not valid TOML") as caught:
        load_config(path, env=NO_ENV)
    assert str(path) in str(caught.value)
    assert "line 2" in str(caught.value)
    assert SECRET not in str(caught.value)


def test_a_missing_named_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "absent.toml", env=NO_ENV)
    with pytest.raises(ConfigError, match=r"absent\.toml"):
        load_config(env={"JARMO_CONFIG": str(tmp_path / "absent.toml")})


def test_a_folder_is_not_a_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path, env=NO_ENV)


def test_a_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_repr_and_str_hide_the_token(tmp_path: Path) -> None:
    config = load_config(env={"DISCORD_TOKEN": SECRET})
    for text in (repr(config), str(config), f"{config}", f"{[config]}"):
        assert SECRET not in text
        assert "token=<hidden>" in text
    assert "token=None" in repr(BotConfig())
    assert "max_plies=200" in repr(config)


def test_the_config_is_frozen() -> None:
    config = BotConfig()
    with pytest.raises(AttributeError):
        config.max_plies = 3  # type: ignore[misc]  # the frozen config must refuse it


def test_vacation_days_per_year_reach_the_service(tmp_path: Path) -> None:
    assert load_config(env=NO_ENV).service_config().vacation_days_per_year == 14
    path = write(tmp_path, "[game]\nvacation_days_per_year = 10\n")
    assert load_config(path, env=NO_ENV).service_config().vacation_days_per_year == 10
    for wrong in ("-1", "367", '"14"'):
        path = write(tmp_path, f"[game]\nvacation_days_per_year = {wrong}\n")
        with pytest.raises(ConfigError, match="integer from 0 to 366"):
            load_config(path, env=NO_ENV)
