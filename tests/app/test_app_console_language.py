"""Console mode in the players' language: ``jarmo-bot play --lang``, else the terminal's."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from bot.__main__ import build_parser, main
from bot.console import CONSOLE_LANGUAGES, console_language, play_console
from bot.service import JarmoService, ServiceConfig
from bot.store import open_store


@pytest.mark.parametrize(
    ("chosen", "environment", "expected"),
    [
        ("eo", {"LANG": "pl_PL.UTF-8"}, "eo"),  # --lang wins over the terminal
        (None, {"LANG": "pl_PL.UTF-8"}, "pl_PL"),
        (None, {"LANG": "de_DE@euro"}, "de_DE"),
        (None, {"LC_ALL": "eo.UTF-8", "LANG": "de_DE.UTF-8"}, "eo"),
        (None, {"LC_MESSAGES": "pl_PL", "LANG": "de_DE"}, "pl_PL"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "POSIX"}, "en"),
        (None, {}, "en"),
    ],
)
def test_the_console_language(
    chosen: str | None, environment: dict[str, str], expected: str
) -> None:
    assert console_language(chosen, environment) == expected


def test_play_offers_every_console_language() -> None:
    (play,) = [
        action.choices["play"]
        for action in build_parser()._subparsers._group_actions  # type: ignore[union-attr]  # argparse keeps its subcommands private
        if action.choices and isinstance(action.choices, dict)  # the subcommands, by name
    ]
    (lang,) = [action for action in play._actions if action.dest == "lang"]
    assert sorted(lang.choices) == sorted(CONSOLE_LANGUAGES)


def test_play_in_esperanto_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # --lang wins over the terminal's language
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nA1-C2\nresign\nj\n"))
    status = main(["play", "--lang", "eo", "--out", str(tmp_path / "pictures")])
    assert status == 0
    shown = capsys.readouterr().out
    assert "Partio 1 el 1 · classic / publikigita tabulo" in shown
    assert "Blanko perdis 0 · Nigro perdis 0" in shown
    assert "rezignis." in shown and "venkas en la matĉo (pro rezigno)!" in shown


def test_play_takes_the_terminals_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nresign\nj\n"))
    assert main(["play", "--out", str(tmp_path / "pictures")]) == 0
    shown = capsys.readouterr().out
    assert "Ann hat aufgegeben." in shown or "Bob hat aufgegeben." in shown
    assert "gewinnt das Match (kampflos)!" in shown


async def test_a_polish_console_game(tmp_path: Path) -> None:
    lines = iter(["Ann", "Bob", "A5-A4", "A1-C2", "moves", "stop", "t"])
    prompts: list[str] = []
    shown: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    async with open_store(tmp_path / "console.sqlite3") as store:
        service = JarmoService(store, config=ServiceConfig(), rng=random.Random(1))
        result = await play_console(
            service,
            out_dir=tmp_path / "boards",
            input_fn=read,
            output_fn=shown.append,
            language="pl",
        )
    text = "\n".join(shown)
    assert prompts[:2] == ["Imię gracza 1 [Gracz 1]: ", "Imię gracza 2 [Gracz 2]: "]
    assert (
        "Ruch 1: kolej na Ann (Białe)." in text and "  5  C   C   C   C   C   obóz – Czarne" in text
    )
    assert "Pionek na A5 należy do przeciwnika (Czarne), nie do ciebie." in text
    assert "Białe straciły 0 · Czarne straciły 0 · ostatnia akcja A1-C2" in text
    assert any(block.startswith("Dozwolone ruchy, Bob:") for block in shown)
    assert prompts[-2].endswith("Zgoda? [t/n] ")  # and "t" (tak) agreed
    assert prompts[-1] == "Przeanalizować ostatnią partię? [t/N] "  # the match is over
    assert "Gracze zgodzili się zakończyć partię w tym miejscu." in text
    assert result is not None and result.over
