"""Start-up checks: a database that cannot be used is refused before anything touches it, and
only one process at a time may use a database file."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import (
    DatabaseInUse,
    DatabaseUnusable,
    SchemaTooNew,
    SqliteStore,
    open_store,
)
from bot.store._migrations import latest_version

REPO = Path(__file__).resolve().parents[2]


def newer_database(path: Path) -> bytes:
    """A database from a future version, in rollback-journal mode as such a file may be."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("CREATE TABLE future (x)")
        db.execute(f"PRAGMA user_version = {latest_version() + 1}")
    return path.read_bytes()


def contents(path: Path) -> bytes:
    return path.read_bytes()


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name != path.name)


async def test_a_newer_schema_is_refused_before_the_file_is_touched(db_path: Path) -> None:
    before = newer_database(db_path)
    with pytest.raises(SchemaTooNew) as refused:
        await SqliteStore.open(db_path)
    assert refused.value.found == latest_version() + 1
    assert contents(db_path) == before  # not switched to WAL, not migrated
    assert beside(db_path) == []  # no -wal, no -shm


def test_a_file_that_is_not_sqlite_is_refused_untouched(db_path: Path) -> None:
    db_path.write_text("notes, not a database\n" * 20)
    before = db_path.read_bytes()
    with pytest.raises(DatabaseUnusable, match="not an SQLite database"):
        asyncio.run(SqliteStore.open(db_path))
    assert db_path.read_bytes() == before
    assert beside(db_path) == []


async def test_a_second_store_on_one_file_is_refused_until_the_first_closes(
    db_path: Path,
) -> None:
    async with open_store(db_path):
        with pytest.raises(DatabaseInUse) as refused:
            await SqliteStore.open(db_path)
        assert str(db_path) in str(refused.value)
        assert "another Jarmo bot" in str(refused.value)
    async with open_store(db_path) as again:  # released on close
        assert await again.games.latest_match(1) is None


async def test_a_second_process_is_refused_while_a_store_holds_the_file(db_path: Path) -> None:
    async with open_store(db_path):
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "doctor", "--db", str(db_path)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert "another Jarmo bot" in done.stderr and str(db_path) in done.stderr


def run_read_only(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` on ``database``, whose folder is read-only for it: a read-only
    mount seen only by the child when we are root (root ignores file modes), else the modes."""
    folder = database.parent
    env = {k: v for k, v in os.environ.items() if k not in ("JARMO_CONFIG", "DISCORD_TOKEN")}
    env |= {"DISCORD_TOKEN": "not-a-real-token", "JARMO_DATABASE": str(database)}
    command = [sys.executable, "-m", "bot", *args]
    if os.geteuid() == 0:
        if shutil.which("unshare") is None:
            pytest.fail("running as root needs unshare (util-linux) to make a read-only mount")
        mount = 'mount --bind -o ro "$0" "$0" && exec "$@"'
        command = ["unshare", "--mount", "sh", "-c", mount, str(folder), *command]
    return subprocess.run(
        command, cwd=folder.parent, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("existing", [True, False], ids=["existing file", "new file"])
def test_a_read_only_database_stops_the_bot_with_one_line(tmp_path: Path, existing: bool) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "jarmo.sqlite3"
    if existing:
        with closing(sqlite3.connect(database)) as db:
            db.execute("CREATE TABLE t (x)")
    before = database.read_bytes() if existing else None
    mode = folder.stat().st_mode
    if os.geteuid() != 0:
        if existing:
            database.chmod(0o444)
        folder.chmod(0o555)
    try:
        done = run_read_only(database, "run")
    finally:
        folder.chmod(mode)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "read-only" in lines[0] and str(folder) in lines[0]
    assert (database.read_bytes() if existing else None) == before
    assert beside(database) == []
