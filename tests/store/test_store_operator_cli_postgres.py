"""The operator's commands on PostgreSQL: ``jarmo-bot doctor`` and ``ratings`` take a
``postgresql://`` URL (``--db``, or the configured one), and ``jarmo-bot health`` keeps the
heartbeat in the data folder and asks the server instead of opening a file."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from bot.health import check_health, heartbeat_file, heartbeat_path, write_heartbeat
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
            game = fork(record.game)
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


def test_the_heartbeat_sits_in_the_data_folder_and_health_asks_the_server(
    url: str, tmp_path: Path
) -> None:
    database = tmp_path / "data" / "jarmo.sqlite3"  # configured, but unused with PostgreSQL
    beat = heartbeat_file(database, url)
    assert beat == tmp_path / "data" / "jarmo-bot.health"
    assert heartbeat_file(database) == heartbeat_path(database)  # SQLite: beside the file
    beat.parent.mkdir()
    write_heartbeat(beat, connected=True)
    health = check_health(database, database_url=url, server_problem=server_problem)
    assert health.healthy, health.message
    assert health.message.endswith("the database on PostgreSQL opens")
    sick = check_health(database, database_url=WRONG_URL, server_problem=server_problem)
    assert not sick.healthy and "127.0.0.1:9/nowhere" in sick.message
    assert "s3cret" not in sick.message
    assert not database.exists()


def test_processes_of_a_cluster_keep_their_own_heartbeats(url: str, tmp_path: Path) -> None:
    database = tmp_path / "data" / "jarmo.sqlite3"
    first = heartbeat_file(database, url, (0,))
    second = heartbeat_file(database, url, (2, 1))
    assert first == tmp_path / "data" / "jarmo-bot-shards-0.health"
    assert second == tmp_path / "data" / "jarmo-bot-shards-1-2.health"
    first.parent.mkdir()
    write_heartbeat(first, connected=True)
    ours = check_health(database, database_url=url, server_problem=server_problem, shard_ids=(0,))
    assert ours.healthy, ours.message
    # The other process has not beaten yet: its check must not borrow the first one's file.
    theirs = check_health(
        database, database_url=url, server_problem=server_problem, shard_ids=(1, 2)
    )
    assert not theirs.healthy
