"""``jarmo-bot health`` and the heartbeat behind it (bot/health.py), without Discord: the verdict
for each state of the heartbeat file and the database, the exit status and the one line."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.__main__ import main
from bot.config import heartbeat_beside, load_config
from bot.health import (
    MAX_AGE_SECONDS,
    Health,
    Heartbeat,
    check_health,
    gateway_connected,
    run_health,
    write_heartbeat,
)

NOW = 1_800_000_000.0


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "JARMO_CONFIG", "JARMO_DATABASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A WAL-mode SQLite file like the bot's, closed again."""
    path = tmp_path / "data" / "jarmo.sqlite3"
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    return path


def test_the_heartbeat_lives_beside_the_database() -> None:
    assert heartbeat_beside(Path("/data/jarmo.sqlite3")) == Path("/data/jarmo.sqlite3.health")


def test_fresh_and_connected_with_a_database_that_opens_is_healthy(database: Path) -> None:
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW - 5)
    health = check_health(database, now=NOW)
    assert health.healthy
    assert health.message.startswith("healthy:") and str(database) in health.message


def test_a_heartbeat_just_within_the_limit_is_fresh(database: Path) -> None:
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW - MAX_AGE_SECONDS)
    assert check_health(database, now=NOW).healthy


def test_an_old_heartbeat_means_stopped_or_stuck(database: Path) -> None:
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW - MAX_AGE_SECONDS - 1)
    health = check_health(database, now=NOW)
    assert not health.healthy
    assert "91 s old" in health.message and "stopped or is stuck" in health.message


def test_a_heartbeat_from_the_future_is_fresh(database: Path) -> None:
    # A clock set back a little must not make a running bot unhealthy.
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW + 30)
    assert check_health(database, now=NOW).healthy


def test_not_connected_to_the_gateway_is_unhealthy(database: Path) -> None:
    write_heartbeat(heartbeat_beside(database), connected=False, now=NOW)
    health = check_health(database, now=NOW)
    assert not health.healthy
    assert health.message == "unhealthy: the bot is running but not connected to Discord"


def test_the_last_beat_of_a_bot_that_stopped(database: Path) -> None:
    write_heartbeat(heartbeat_beside(database), connected=False, running=False, now=NOW)
    assert check_health(database, now=NOW) == Health(False, "unhealthy: the bot has stopped")


def test_no_heartbeat_means_the_bot_is_not_running(database: Path) -> None:
    health = check_health(database, now=NOW)
    assert not health.healthy
    assert "no heartbeat at" in health.message and "not running" in health.message


@pytest.mark.parametrize(
    "content",
    [
        "",
        "not json",
        "[1, true]",
        '{"time": 1, "running": true}',
        '{"connected": true, "running": true}',
        '{"time": 1, "connected": true}',
        '{"time": "x", "connected": true, "running": true}',
    ],
)
def test_an_unreadable_heartbeat_says_so(database: Path, content: str) -> None:
    heartbeat_beside(database).write_text(content)
    health = check_health(database, now=NOW)
    assert not health.healthy
    assert "cannot be read" in health.message


def test_a_missing_database_is_unhealthy_and_not_created(tmp_path: Path) -> None:
    database = tmp_path / "nowhere.sqlite3"
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW)
    health = check_health(database, now=NOW)
    assert not health.healthy
    assert health.message.startswith(f"unhealthy: cannot open the database {database}")
    assert not database.exists()  # read-only: the check never makes an empty database


def test_a_file_that_is_not_a_database_is_unhealthy(tmp_path: Path) -> None:
    database = tmp_path / "jarmo.sqlite3"
    database.write_bytes(b"this is not an SQLite database, just some text " * 20)
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW)
    health = check_health(database, now=NOW)
    assert not health.healthy and "cannot open the database" in health.message


def test_the_check_opens_a_database_the_bot_holds_open(database: Path) -> None:
    writer = sqlite3.connect(database)
    writer.execute("BEGIN IMMEDIATE")  # the bot is in the middle of a write
    writer.execute("INSERT INTO games DEFAULT VALUES")
    write_heartbeat(heartbeat_beside(database), connected=True, now=NOW)
    try:
        assert check_health(database, now=NOW).healthy
    finally:
        writer.rollback()
        writer.close()


def test_the_heartbeat_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "bot.health"
    write_heartbeat(path, connected=True, now=NOW)
    write_heartbeat(path, connected=False, now=NOW + 30)
    assert json.loads(path.read_text()) == {"time": NOW + 30, "connected": False, "running": True}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.health"]


# -- the command ------------------------------------------------------------------------------


def test_health_command_exit_0_and_one_line(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JARMO_DATABASE", str(database))
    write_heartbeat(heartbeat_beside(database), connected=True)
    assert main(["health"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("healthy:") and out.count("\n") == 1 and err == ""


def test_health_command_exit_1_and_one_line_on_stderr(
    database: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "jarmo.toml"
    config.write_text(f'[database]\npath = "{database.as_posix()}"\n')
    write_heartbeat(heartbeat_beside(database), connected=False)
    assert main(["health", "--config", str(config)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "unhealthy: the bot is running but not connected to Discord\n"


def test_health_command_with_a_bad_config_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "jarmo.toml"
    config.write_text("[database]\npaht = 'x'\n")
    assert main(["health", "--config", str(config)]) == 2
    assert "database.paht" in capsys.readouterr().err


def test_health_needs_no_token_and_never_imports_discord(database: Path, tmp_path: Path) -> None:
    # Docker runs the check every minute: it must stay cheap and work without the token.
    write_heartbeat(heartbeat_beside(database), connected=True)
    code = (
        "import sys; from bot.__main__ import main; status = main(['health']); "
        "print('discord' in sys.modules); sys.exit(status)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "JARMO_CONFIG")}
    env["JARMO_DATABASE"] = str(database)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"healthy: the bot is connected to Discord and the database {database} opens",
        "False",
    ]


# -- the writer -------------------------------------------------------------------------------


def test_the_heartbeat_beats_until_cancelled_and_ends_disconnected(tmp_path: Path) -> None:
    path = tmp_path / "bot.health"
    states = iter([True, False])
    seen: list[tuple[float, bool]] = []

    async def sleep(seconds: float) -> None:
        # Stands in for the pause between beats: look at the file, then go on or be cancelled.
        seen.append((seconds, json.loads(path.read_text())["connected"]))
        if len(seen) == 2:
            raise asyncio.CancelledError

    heartbeat = Heartbeat(path, lambda: next(states), interval=30.0, sleep=sleep)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(heartbeat.run())
    assert seen == [(30.0, True), (30.0, False)]
    last = json.loads(path.read_text())
    assert (last["connected"], last["running"]) == (False, False)


def test_a_beat_that_cannot_be_written_does_not_stop_the_bot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "a-file").write_text("")  # where the heartbeat's folder should be
    heartbeat = Heartbeat(tmp_path / "a-file" / "bot.health", lambda: True)
    heartbeat.beat()
    assert "cannot write the heartbeat" in caplog.text


def test_the_first_beat_creates_the_heartbeats_folder(tmp_path: Path) -> None:
    path = tmp_path / "run" / "jarmo" / "bot.health"
    Heartbeat(path, lambda: True).beat()
    assert json.loads(path.read_text())["connected"] is True


def _client(*, ready: bool = True, closed: bool = False, ws: object = None) -> SimpleNamespace:
    return SimpleNamespace(is_ready=lambda: ready, is_closed=lambda: closed, ws=ws)


@pytest.mark.parametrize(
    ("client", "connected"),
    [
        (_client(ws=SimpleNamespace(open=True)), True),
        (_client(ws=SimpleNamespace(open=False)), False),  # discord.py is reconnecting
        (_client(ws=None), False),  # never connected
        (_client(ready=False, ws=SimpleNamespace(open=True)), False),  # still starting
        (_client(closed=True, ws=SimpleNamespace(open=True)), False),  # shutting down
    ],
)
def test_gateway_connected(client: SimpleNamespace, connected: bool) -> None:
    assert gateway_connected(client) is connected


def test_the_clients_heartbeat_asks_the_client(tmp_path: Path) -> None:
    client = _client(ws=SimpleNamespace(open=True))
    heartbeat = Heartbeat.of_client(client, tmp_path / "jarmo.sqlite3.health")
    heartbeat.beat()
    assert json.loads(heartbeat.path.read_text())["connected"] is True


# -- where the heartbeat lives ------------------------------------------------------------------

POSTGRES_URL = "postgresql://jarmo@db.example.org/jarmo"


def _server_answers(url: str) -> None:
    """Stands in for ``bot.store.server_problem``: the PostgreSQL server is fine."""
    assert url == POSTGRES_URL


def test_on_postgresql_the_bot_beats_where_health_reads_without_an_sqlite_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file = tmp_path / "jarmo.toml"
    config_file.write_text(f'[database]\nurl = "{POSTGRES_URL}"\n')
    config = load_config(config_file, env={})
    Heartbeat(config.heartbeat_file, lambda: True).beat()  # as the running bot does
    assert run_health(config, _server_answers) == 0
    assert capsys.readouterr().out.startswith("healthy:")
    assert config.heartbeat_file == tmp_path / "jarmo-bot.health"
    assert not (tmp_path / "data").exists()  # the unused SQLite file's folder


def test_a_configured_heartbeat_is_written_and_read_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file = tmp_path / "etc" / "jarmo.toml"
    config_file.parent.mkdir()
    config_file.write_text(
        f'[database]\nurl = "{POSTGRES_URL}"\n[health]\nheartbeat = "run/jarmo.health"\n'
    )
    config = load_config(config_file, env={})
    assert config.heartbeat_file == tmp_path / "etc" / "run" / "jarmo.health"  # beside the file
    Heartbeat(config.heartbeat_file, lambda: True).beat()
    assert run_health(config, _server_answers) == 0


def test_on_sqlite_the_heartbeat_stays_beside_the_database(tmp_path: Path) -> None:
    config_file = tmp_path / "jarmo.toml"
    config_file.write_text('[database]\npath = "data/jarmo.sqlite3"\n')
    config = load_config(config_file, env={})
    assert config.heartbeat_file == tmp_path / "data" / "jarmo.sqlite3.health"


def test_processes_of_a_cluster_each_keep_their_own_heartbeat(tmp_path: Path) -> None:
    config_file = tmp_path / "jarmo.toml"
    config_file.write_text(f'[database]\nurl = "{POSTGRES_URL}"\n')
    shards = {"JARMO_SHARD_COUNT": "3"}
    first = load_config(config_file, env=shards | {"JARMO_SHARD_IDS": "0"})
    second = load_config(config_file, env=shards | {"JARMO_SHARD_IDS": "2,1"})
    assert first.heartbeat_file == tmp_path / "jarmo-bot-shards-0.health"
    assert second.heartbeat_file == tmp_path / "jarmo-bot-shards-1-2.health"
