"""``jarmo-bot games``: the unfinished games of a database at the terminal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.exit_status import ExitStatus


def test_games_lists_the_console_s_unfinished_game_and_nothing_for_another_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "kept.sqlite3"
    monkeypatch.setenv("LANG", "C")
    monkeypatch.setattr("sys.stdin", io.StringIO("Cat\nDan\nquit\n"))
    assert main(["play", "--db", str(db), "--out", "boards"]) == ExitStatus.OK
    capsys.readouterr()

    assert main(["games", "--db", str(db)]) == ExitStatus.OK
    listed = capsys.readouterr().out
    assert main(["games", "--db", str(db), "--player", "99"]) == ExitStatus.OK
    nobody = capsys.readouterr().out

    assert "Your unfinished games: 1, your move in " in listed
    assert " · console · against Dan · classic · game 1 of 1, 0–0 · no time limit" in listed
    assert "no unfinished games of player 99" in nobody
