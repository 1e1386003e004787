"""The command line (bot/__main__.py): start-up messages, exit codes, and the hand-over to
``bot.client`` (replaced here by a fake, so no test touches Discord)."""

from __future__ import annotations

import io
import logging
import os
import sqlite3
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot.__main__ import (
    INVITE_URL,
    USER_INSTALL_URL,
    RedactingFormatter,
    build_parser,
    main,
    setup_logging,
)
from bot.config import BotConfig
from bot.store._migrations import upgrade_sqlite

ROOT = Path(__file__).resolve().parents[2]
SECRET = "MTIz.secret-token.value"


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No token, no config file, an empty working directory."""
    for name in ("DISCORD_TOKEN", "JARMO_CONFIG", "JARMO_DATABASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


class FakeClient(types.ModuleType):
    """Stands in for ``bot.client``: records what it was asked to run."""

    def __init__(self, error: BaseException | None = None) -> None:
        super().__init__("bot.client")
        self.calls: list[tuple[str, BotConfig]] = []
        self.error = error

    async def _called(self, name: str, config: BotConfig) -> None:
        self.calls.append((name, config))
        if self.error is not None:
            raise self.error

    async def run_bot(self, config: BotConfig) -> None:
        await self._called("run_bot", config)

    async def sync_commands(self, config: BotConfig) -> None:
        await self._called("sync_commands", config)


@pytest.fixture
def fake_client(monkeypatch: pytest.MonkeyPatch) -> FakeClient:
    fake = FakeClient()
    monkeypatch.setitem(sys.modules, "bot.client", fake)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    return fake


@pytest.mark.parametrize("argv", [["run"], [], ["sync"]])
def test_no_token_explains_how_to_get_one(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    for needed in (
        "DISCORD_TOKEN",
        "Reset Token",
        "applications.commands",
        "309237762048",
        INVITE_URL,
        USER_INSTALL_URL,
        "jarmo-bot play",
        "config.toml",
    ):
        assert needed in err
    assert "Traceback" not in err


def test_the_invite_url_asks_for_exactly_the_needed_permissions() -> None:
    send, embed, attach, history = 1 << 11, 1 << 14, 1 << 15, 1 << 16
    create_threads, send_in_threads = 1 << 35, 1 << 38
    wanted = send | embed | attach | history | create_threads | send_in_threads
    assert f"permissions={wanted}" in INVITE_URL
    assert "scope=bot%20applications.commands" in INVITE_URL
    assert "integration_type=0" in INVITE_URL


def test_the_user_install_url_adds_the_app_to_an_account_without_a_bot() -> None:
    assert "integration_type=1" in USER_INSTALL_URL
    assert "scope=applications.commands" in USER_INSTALL_URL
    assert "bot" not in USER_INSTALL_URL.split("scope=")[1]


def test_python_dash_m_bot_without_a_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "JARMO_CONFIG")}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "jarmo-bot play" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_no_token_path_never_imports_discord(tmp_path: Path) -> None:
    code = (
        "import sys; from bot.__main__ import main; status = main(['run']); "
        "print('discord' in sys.modules, 'bot.client' in sys.modules); sys.exit(status)"
    )
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stdout.split() == ["False", "False"]


def test_a_bad_config_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.toml").write_text("[game]\nmax_plies = 3\n")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "config.toml: game.max_plies: expected an integer from 10 to 1000, got 3" in err


def test_config_option_after_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "odd.toml").write_text("[logging]\nlevel = 'NOISY'\n")
    assert main(["sync", "--config", "odd.toml"]) == 2
    assert "logging.level" in capsys.readouterr().err


def test_run_hands_the_config_to_the_client(fake_client: FakeClient, tmp_path: Path) -> None:
    assert main(["--log-level", "warning", "run"]) == 0
    ((name, config),) = fake_client.calls
    assert name == "run_bot"
    assert config.token == SECRET
    assert config.database == tmp_path / "data" / "jarmo.sqlite3"
    # Not created before the bot has connected: the store makes it when it opens, so a start
    # that fails (a rejected token, say) leaves no empty folder behind.
    assert not config.database.parent.exists()


def test_run_is_the_default_command(fake_client: FakeClient) -> None:
    assert main([]) == 0
    assert [name for name, _ in fake_client.calls] == ["run_bot"]


def test_sync_syncs(fake_client: FakeClient) -> None:
    assert main(["sync"]) == 0
    assert [name for name, _ in fake_client.calls] == ["sync_commands"]


def test_a_database_failure_is_one_clear_line(
    fake_client: FakeClient, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_client.error = sqlite3.OperationalError("unable to open database file")
    assert main(["run", "--log-level", "ERROR"]) == 1
    err = capsys.readouterr().err
    assert "cannot use the database" in err and "unable to open database file" in err
    assert "Traceback" not in err


def test_an_unexpected_error_is_logged_in_full(
    fake_client: FakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    fake_client.error = RuntimeError("a bug")
    assert main(["run"]) == 1
    assert "unexpected error" in caplog.text and "a bug" in caplog.text


def test_an_exit_from_the_client_keeps_its_status(fake_client: FakeClient) -> None:
    fake_client.error = SystemExit(2)
    assert main(["run"]) == 2


def test_the_log_formatter_hides_the_token() -> None:
    formatter = RedactingFormatter("%(message)s", secret=SECRET)
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "token is %s", (SECRET,), None)
    assert formatter.format(record) == "token is <token>"
    assert RedactingFormatter("%(message)s", secret=None).format(record) == f"token is {SECRET}"


def test_a_schema_upgrade_logs_the_stores_line_and_none_of_alembics(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    alembic = logging.getLogger("alembic")
    level = alembic.level
    try:
        setup_logging("INFO")
        with caplog.at_level(logging.INFO):
            upgrade_sqlite(tmp_path / "jarmo.sqlite3")
    finally:
        alembic.setLevel(level)
    assert "creating the store's schema" in caplog.text
    assert [record.name for record in caplog.records if record.name.startswith("alembic")] == []


def test_log_level_is_checked_and_case_insensitive() -> None:
    assert build_parser().parse_args(["--log-level", "debug"]).log_level == "DEBUG"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--log-level", "chatty"])


def test_play_from_stdin_needs_no_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nA1-C2\nresign\ny\n"))
    out = tmp_path / "pictures"
    status = main(["play", "--out", str(out), "--ruleset", "ludos", "--games", "2"])
    assert status == 0
    shown = capsys.readouterr().out
    assert "Game 1 of 2 · ludos / published board" in shown
    assert "wins the match (by forfeit)!" in shown
    (picture,) = out.glob("*_match-1/game1-move001.png")  # the match's own folder
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_play_with_a_database_that_cannot_be_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (tmp_path / "not-a-db").write_text("this is not SQLite\n" * 100)
    assert (
        main(["play", "--db", str(tmp_path / "not-a-db"), "--out", str(tmp_path)]) == 2
    )  # found by the start-up check, before SQLite opens it
    err = capsys.readouterr().err
    assert "cannot use the database" in err and "not-a-db" in err
    assert "Traceback" not in err


def test_play_rejects_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", "--ruleset", "chess"])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_no_token_guide_says_the_commands_appear_by_themselves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "publishes the /jarmo slash commands by itself" in err
    assert "dev_guild_id" in err and "jarmo-bot sync" in err


@pytest.mark.parametrize("in_file", [True, False], ids=["config file", "environment"])
def test_a_rejected_token_names_where_it_came_from(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    in_file: bool,
) -> None:
    import discord

    fake = FakeClient(discord.LoginFailure("Improper token has been passed."))
    monkeypatch.setitem(sys.modules, "bot.client", fake)
    config = tmp_path / "bot.toml"
    config.write_text(f'[discord]\ntoken = "{SECRET}"\n' if in_file else "")
    if in_file:
        monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    else:
        monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    assert main(["--config", str(config), "run"]) == 2  # the configuration must change
    err = capsys.readouterr().err
    if in_file:
        assert f"discord.token in {config}" in err and "DISCORD_TOKEN" not in err
    else:
        assert "the environment variable DISCORD_TOKEN" in err
    assert SECRET not in err
    assert not (tmp_path / "data").exists()  # a failed start leaves no folder behind


def test_a_config_naming_the_old_board_starts_with_one_warning_line(
    fake_client: FakeClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.toml").write_text('[game]\ndefault_layout = "bow"\n', encoding="utf-8")
    assert main(["run"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "published board" in warnings[0]
    [(_, config)] = fake_client.calls
    assert config.service_config().default_ruleset == "classic"


def _read_only_folder(tmp_path: Path) -> Path:
    if os.geteuid() == 0:
        # Permission bits do not stop root; sysfs's top folder takes no new file from anyone.
        if not Path("/sys/kernel").is_dir():
            pytest.skip("running as root, and no /sys to stand in for a read-only folder")
        return Path("/sys")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


@pytest.mark.parametrize("where", ["a file", "under a file", "a read-only folder"])
def test_play_refuses_a_pictures_folder_it_cannot_write_before_asking_anything(
    where: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "notes.txt").write_text("notes\n")
    out = {
        "a file": tmp_path / "notes.txt",
        "under a file": tmp_path / "notes.txt" / "boards",
        "a read-only folder": _read_only_folder(tmp_path),
    }[where]
    names = io.StringIO("Ann\nBob\n")
    monkeypatch.setattr("sys.stdin", names)
    assert main(["play", "--out", str(out)]) == 2
    said = capsys.readouterr()
    assert said.out == "" and names.tell() == 0  # nothing was asked
    (line,) = said.err.splitlines()
    assert line.startswith(f"jarmo-bot: cannot write the board pictures to {out}: ")
    assert "Errno" not in line
    assert (tmp_path / "notes.txt").read_text() == "notes\n"


def test_play_makes_a_missing_pictures_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nquit\ny\n"))
    out = tmp_path / "new" / "boards"
    assert main(["play", "--out", str(out)]) == 0
    assert (out / "latest.png").is_file()
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []  # no probe left


def test_side_is_only_for_a_game_against_the_computer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\n"))
    assert main(["play", "--side", "black"]) == 2
    assert "--vs-computer" in capsys.readouterr().err


def test_play_logs_only_warnings_unless_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nquit\ny\n"))
    assert main(["play", "--out", str(tmp_path / "a")]) == 0
    assert "creating the store's schema" not in caplog.text
    assert logging.getLogger().level == logging.WARNING

    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nquit\ny\n"))
    assert main(["--log-level", "info", "play", "--out", str(tmp_path / "b")]) == 0
    assert "creating the store's schema" in caplog.text


def test_run_keeps_the_configured_log_level(fake_client: FakeClient, tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[logging]\nlevel = 'DEBUG'\n")
    assert main(["run"]) == 0
    assert logging.getLogger().level == logging.DEBUG
