"""``jarmo-bot --version`` prints the installed package's version, which is pyproject.toml's."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import bot
from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_the_projects(capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"jarmo-bot {project['version']}\n"


def test_version_of_a_source_tree_that_was_never_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot, "DISTRIBUTION", "jarmo-bot-that-is-not-installed")
    assert bot.package_version() == "unknown"
