"""``[web]``: the Activity's client secret comes from the environment only and never shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import load_config
from bot.exit_status import ExitStatus
from bot.store._preflight import ProcessLock
from bot.web.serve import web_settings


def _config_file(tmp_path: Path) -> Path:
    path = tmp_path / "jarmo.toml"
    path.write_text("[web]\nenabled = true\nport = 0\nactivity = true\nclient_id = 1234567890\n")
    return path


def test_the_client_secret_comes_from_the_environment_and_is_never_shown(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "a.b.c", "JARMO_CLIENT_SECRET": " s3cret "}
    config = load_config(_config_file(tmp_path), env=env)
    assert config.web.client_secret == "s3cret"
    assert "s3cret" not in repr(config.web)
    settings = web_settings(config)
    assert settings.activity_ready and settings.client_id == 1234567890
    assert "s3cret" not in repr(settings)


def test_without_the_secret_the_activity_is_not_ready(tmp_path: Path) -> None:
    config = load_config(_config_file(tmp_path), env={"DISCORD_TOKEN": "a.b.c"})
    assert config.web.client_secret is None
    assert not web_settings(config).activity_ready


def test_jarmo_bot_web_refuses_a_database_a_running_bot_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "jarmo.sqlite3"
    path = tmp_path / "jarmo.toml"
    path.write_text(f'[database]\npath = "{database}"\n\n[web]\nenabled = true\nport = 0\n')
    running_bot = ProcessLock(database)  # what an open store holds
    running_bot.acquire()
    try:
        assert main(["web", "--config", str(path)]) == ExitStatus.CANNOT_START
    finally:
        running_bot.release()
    assert str(database) in capsys.readouterr().err
