"""Console mode against the computer: one name is asked, the computer answers every move."""

from __future__ import annotations

import random
from pathlib import Path

from bot.console import play_console
from bot.service import JarmoService, ServiceConfig
from bot.store import open_store


async def test_a_match_against_the_computer_at_the_console(tmp_path: Path) -> None:
    prompts: list[str] = []
    shown: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Player"):
            return "Ann"
        if len(prompts) > 100:
            raise EOFError
        last = shown[-1]
        if last.startswith("Legal moves for"):
            return last.split(": ", 1)[1].split(",")[0].strip()
        return "moves"

    async with open_store(tmp_path / "console.sqlite3") as store:
        service = JarmoService(store, config=ServiceConfig(max_plies=12), rng=random.Random(3))
        result = await play_console(
            service,
            out_dir=tmp_path / "boards",
            input_fn=answer,
            output_fn=shown.append,
            games=2,
            vs_computer="easy",
        )
    text = "\n".join(shown)
    assert result is not None and result.over
    assert sum(p.startswith("Player") for p in prompts) == 1  # only the human is asked a name
    assert "Computer played" in text and "Ann played" in text
    assert not any(p.startswith("Computer") for p in prompts)  # nobody types for the computer
    assert "Game 2 of 2" in text


async def test_refusals_name_the_consoles_own_commands(tmp_path: Path) -> None:
    answers = iter(["Ann", "stop"])
    shown: list[str] = []

    def answer(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    async with open_store(tmp_path / "console.sqlite3") as store:
        service = JarmoService(store, rng=random.Random(3))
        await play_console(
            service,
            out_dir=tmp_path / "boards",
            input_fn=answer,
            output_fn=shown.append,
            vs_computer="easy",
        )
    text = "\n".join(shown)
    assert "The computer plays every game to the end. Use 'resign' to give up." in text
    assert "/jarmo" not in text


async def test_the_console_reviews_the_match_s_last_game(tmp_path: Path) -> None:
    shown: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith("Player"):
            return "Ann"
        if prompt.startswith("Review the last game?"):
            return "y"
        if len(shown) > 400:
            raise EOFError
        last = shown[-1]
        if last.startswith("Legal moves for"):
            return last.split(": ", 1)[1].split(",")[0].strip()
        return "moves"

    async with open_store(tmp_path / "console.sqlite3") as store:
        service = JarmoService(store, config=ServiceConfig(max_plies=10), rng=random.Random(3))
        result = await play_console(
            service,
            out_dir=tmp_path / "boards",
            input_fn=answer,
            output_fn=shown.append,
            vs_computer="easy",
        )
    text = "\n".join(shown)
    assert result is not None and result.over
    assert "Review · " in text and "accuracy" in text
    assert "A move without a note was the best move." in text
    assert list((tmp_path / "boards").glob("review-game*.png"))
