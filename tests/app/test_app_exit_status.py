"""One exit-status scheme for every command (bot/exit_status.py): each ``--help`` and the README
say it, and the operator commands tell "found a problem" (1) from "could not open the
database" (2)."""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import build_parser, main
from bot.exit_status import ExitStatus
from bot.store import open_store
from bot.store._migrations import latest_version
from bot.store._preflight import ProcessLock

ROOT = Path(__file__).resolve().parents[2]


def _command_names() -> list[str]:
    [commands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(commands.choices)


COMMANDS = _command_names()
OPERATOR_CHECKS = [["doctor"], ["ratings", "--check"]]


def test_the_commands_are_the_ones_this_file_knows() -> None:
    assert COMMANDS == [
        "doctor",
        "games",
        "health",
        "migrate-store",
        "play",
        "ratings",
        "run",
        "sync",
        "web",
    ]


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_every_help_ends_with_the_exit_statuses(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    said = capsys.readouterr().out
    statuses = said.split("exit status:", 1)[1]
    assert [int(code) for code in re.findall(r"^  (\d+) ", statuses, re.M)] == list(ExitStatus)


def test_the_readme_lists_the_same_exit_statuses() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### Exit status", 1)[1].split("\n#", 1)[0]
    assert [int(code) for code in re.findall(r"^\| (\d+) \|", section, re.M)] == list(ExitStatus)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A fresh SQLite database with the latest schema."""
    path = tmp_path / "jarmo.sqlite3"

    async def create() -> None:
        async with open_store(path):
            pass

    asyncio.run(create())
    return path


@pytest.mark.parametrize("command", OPERATOR_CHECKS)
def test_a_check_that_finds_nothing_wrong_exits_0(command: list[str], database: Path) -> None:
    assert main([*command, "--db", str(database)]) == ExitStatus.OK


@pytest.mark.parametrize("command", OPERATOR_CHECKS)
def test_a_missing_database_cannot_be_checked(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--db", str(tmp_path / "missing.sqlite3")]) == ExitStatus.CANNOT_START
    assert "no database at" in capsys.readouterr().err


@pytest.mark.parametrize("command", OPERATOR_CHECKS)
def test_a_file_that_is_not_a_database_cannot_be_checked(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("notes, not a database\n" * 20)
    assert main([*command, "--db", str(notes)]) == ExitStatus.CANNOT_START
    assert "not an SQLite database" in capsys.readouterr().err


@pytest.mark.parametrize("command", OPERATOR_CHECKS)
def test_a_database_from_a_newer_version_cannot_be_checked(
    command: list[str], database: Path
) -> None:
    with closing(sqlite3.connect(database, isolation_level=None)) as db:
        db.execute(f"PRAGMA user_version = {latest_version() + 1}")
    assert main([*command, "--db", str(database)]) == ExitStatus.CANNOT_START


@pytest.mark.parametrize("command", OPERATOR_CHECKS)
def test_a_database_in_use_by_a_running_bot_cannot_be_checked(
    command: list[str], database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    running_bot = ProcessLock(database)  # what an open store holds
    running_bot.acquire()
    try:
        assert main([*command, "--db", str(database)]) == ExitStatus.CANNOT_START
    finally:
        running_bot.release()
    assert str(database) in capsys.readouterr().err
