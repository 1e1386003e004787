"""The operator commands at the terminal (``doctor``, ``ratings``): what they print, the advice
they give, and that a check leaves a file that holds no Jarmo database as it was."""

from __future__ import annotations

import io
import shlex
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.exit_status import ExitStatus

CHECKS = [["doctor"], ["doctor", "--quarantine"], ["ratings", "--check"], ["ratings", "--rebuild"]]


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A database with one rated console game (Ann resigned against Bob) and a running one."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "games folder" / "kept.sqlite3"
    db.parent.mkdir()
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nresign\ny\nn\n"))
    assert main(["play", "--db", str(db), "--out", "boards"]) == ExitStatus.OK
    monkeypatch.setattr("sys.stdin", io.StringIO("Cat\nDan\nquit\n"))
    assert main(["play", "--db", str(db), "--out", "boards"]) == ExitStatus.OK
    return db


@pytest.mark.parametrize("command", CHECKS)
@pytest.mark.parametrize("content", [b"", b"SQLite"], ids=["empty file", "another SQLite database"])
def test_a_file_without_a_jarmo_database_is_left_byte_for_byte(
    command: list[str], content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "empty.sqlite3"
    file.write_bytes(b"")
    if content:
        with closing(sqlite3.connect(file)) as other, other:
            other.execute("CREATE TABLE notes (text TEXT)")
    before = file.read_bytes()

    assert main([*command, "--db", str(file)]) == ExitStatus.CANNOT_START

    assert file.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]  # no -wal, -shm
    err = capsys.readouterr().err
    assert f"{file} holds no Jarmo database" in err and "left as it was" in err


def test_ratings_check_prints_readable_differences_and_the_same_database(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["ratings", "--check", "--db", str(played)]) == ExitStatus.OK
    assert capsys.readouterr().out == "ok: 2 ratings match 1 rated game recomputed\n"
    with closing(sqlite3.connect(played)) as db, db:
        db.execute("UPDATE ratings SET rating = 0 WHERE user_id = 1")

    assert main(["ratings", "--check", "--db", str(played)]) == ExitStatus.PROBLEM
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "DIFFERENT: the stored ratings are not what 1 rated game gives:"
    (difference,) = lines[1:-1]
    # Player 1 is called by the name they last played under (Cat, in the running game).
    assert difference.startswith("  rating of Cat (user 1), classic, server 0: stored 0.0 (mu ")
    assert "after 1 game, recomputed " in difference and difference.endswith("(differs in skill)")
    assert "Record(" not in difference and "Skill(" not in difference
    rebuild = shlex.join(["jarmo-bot", "ratings", "--rebuild", "--db", str(played)])
    assert lines[-1] == f"run `{rebuild}` to replace them with the recomputed ones"
    assert main(shlex.split(rebuild)[1:]) == ExitStatus.OK
    assert capsys.readouterr().out == "rebuilt 2 ratings from 1 rated game (2 history rows)\n"


def test_doctor_advice_repeats_the_database_and_the_config(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "my config.toml"
    config.write_text("")
    with closing(sqlite3.connect(played)) as db, db:
        db.execute("UPDATE games SET snapshot = '{not json' WHERE status = 'active'")
    capsys.readouterr()

    assert main(["--config", str(config), "doctor", "--db", str(played)]) == ExitStatus.PROBLEM
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 damaged game:"
    advice = ["jarmo-bot", "--config", str(config), "doctor", "--quarantine", "--db", str(played)]
    assert lines[-1] == f"run `{shlex.join(advice)}` to set them aside"
    assert main(shlex.split(shlex.join(advice))[1:]) == ExitStatus.OK
    assert main(["doctor", "--db", str(played)]) == ExitStatus.OK
