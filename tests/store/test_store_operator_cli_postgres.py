"""The operator's commands on PostgreSQL: ``jarmo-bot doctor`` and ``ratings`` take a
``postgresql://`` URL (``--db``, or the configured one), and ``jarmo-bot health`` reads the
heartbeat the bot keeps in the configuration's folder and asks the server instead of opening a
file."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from bot.config import load_config
from bot.health import Heartbeat, check_health, write_heartbeat
from bot.store import open_any, server_problem
from tests.postgres import PostgresServer
from tests.store.store_helpers import ALICE, T0, challenge, fork, new_game, quiet_move

WRONG_URL = "postgresql://jarmo:s3cret@127.0.0.1:9/nowhere"  # port 9: nothing listens


@pytest.fixture
def url(postgres: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh database; the commands run in an empty folder, without any configuration."""
    monkeypatch.chdir(tmp_path)
    for name in ("JARMO_CONFIG", "JARMO_DATABASE", "JARMO_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return postgres.fresh_database()


def a_game_with_one_move(url: str) -> int:
    async def play() -> int:
        async with open_any(url) as store:
            posted = await store.challenges.create(challenge(), now=T0)
            _, record = await store.challenges.accept(
                posted.id, first_white_id=ALICE, first_game=new_game(), now=T0
            )
            game = fork(record.engine)
            move = quiet_move(game, random.Random(1))
            await store.games.record_move(
                record.id, expected_version=0, player_id=ALICE, move=move, game=game, now=T0
            )
            return record.id

    return asyncio.run(play())


def spoil(url: str, game_id: int) -> None:
    async def write() -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute("UPDATE games SET snapshot = 'x' WHERE id = $1", game_id)
        finally:
            await connection.close()

    asyncio.run(write())


def test_doctor_finds_and_sets_aside_a_damaged_game_by_url(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = a_game_with_one_move(url)
    assert main(["doctor", "--db", url]) == 0
    assert "ok: every stored game loads" in capsys.readouterr().out
    spoil(url, game_id)
    assert main(["doctor", "--db", url]) == 1
    assert f"game {game_id} (active" in capsys.readouterr().out
    assert main(["doctor", "--quarantine", "--db", url]) == 0
    assert f"quarantined game {game_id} (now aborted)" in capsys.readouterr().out
    assert main(["doctor", "--db", url]) == 0


def test_ratings_use_the_configured_url(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JARMO_DATABASE_URL", url)
    assert main(["ratings", "--rebuild"]) == 0
    assert main(["ratings", "--check"]) == 0
    assert "ok: 0 ratings match 0 rated games" in capsys.readouterr().out
    assert not list(Path.cwd().iterdir())  # no SQLite file was made on the way


@pytest.mark.parametrize("command", [["doctor"], ["ratings", "--check"]])
def test_an_unreachable_server_is_one_line_without_the_password(
    url: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--db", WRONG_URL]) == 2  # could not start
    said = capsys.readouterr().err.strip()
    assert said.startswith("jarmo-bot: cannot use the database postgresql://127.0.0.1:9/nowhere")
    assert "\n" not in said and "s3cret" not in said


def test_the_heartbeat_needs_no_sqlite_folder_and_health_asks_the_server(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "jarmo.toml"
    # The SQLite path is configured but unused with PostgreSQL, and its folder does not exist.
    config.write_text(f'[database]\npath = "data/jarmo.sqlite3"\nurl = "{url}"\n')
    beat = load_config(config, env={}).heartbeat_file
    assert beat == tmp_path / "jarmo-bot.health"
    Heartbeat(beat, lambda: True).beat()  # as the running bot does
    assert main(["health", "--config", str(config)]) == 0
    assert capsys.readouterr().out.endswith("the database on PostgreSQL opens\n")
    sick = check_health(
        tmp_path / "data" / "jarmo.sqlite3",
        heartbeat=beat,
        database_url=WRONG_URL,
        server_problem=server_problem,
    )
    assert not sick.healthy and "127.0.0.1:9/nowhere" in sick.message
    assert "s3cret" not in sick.message
    assert not (tmp_path / "data").exists()


def test_processes_of_a_cluster_keep_their_own_heartbeats(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "jarmo.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[discord]\nshard_count = 3\n')
    first = load_config(config, env={"JARMO_SHARD_IDS": "0"}).heartbeat_file
    assert first == tmp_path / "jarmo-bot-shards-0.health"
    write_heartbeat(first, connected=True)
    monkeypatch.setenv("JARMO_SHARD_IDS", "0")
    assert main(["health", "--config", str(config)]) == 0
    # The other process has not beaten yet: its check must not borrow the first one's file.
    monkeypatch.setenv("JARMO_SHARD_IDS", "2,1")
    assert main(["health", "--config", str(config)]) == 1
    assert "no heartbeat at" in capsys.readouterr().err
    assert not (tmp_path / "jarmo-bot-shards-1-2.health").exists()
