"""Console mode against the computer: one name is asked, the computer answers every move."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.console import PLACE, play_console
from bot.service import JarmoService, ServiceConfig
from bot.store import open_store


async def test_a_match_against_the_computer_at_the_console(tmp_path: Path) -> None:
    prompts: list[str] = []
    shown: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Your name"):
            return "Ann"
        if prompt.startswith("Play White"):
            return ""  # either side
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
    assert sum(p.startswith("Your name") for p in prompts) == 1  # only the human is asked
    assert "Computer played" in text and "Ann played" in text
    assert not any(p.startswith("Computer") for p in prompts)  # nobody types for the computer
    assert "Game 2 of 2" in text


async def test_refusals_name_the_consoles_own_commands(tmp_path: Path) -> None:
    answers = iter(["Ann", "w", "stop"])
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
        if prompt.startswith("Your name"):
            return "Ann"
        if prompt.startswith("Play White"):
            return ""  # either side
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
    (match_pictures,) = (p for p in (tmp_path / "boards").iterdir() if p.is_dir())
    assert sorted(p.name for p in (tmp_path / "boards").iterdir() if p.is_file()) == ["latest.png"]
    assert f"The review's graph is in {match_pictures / 'game1-review.png'}." in text
    assert (match_pictures / "game1-review.png").read_bytes().startswith(b"\x89PNG")
    # Each turning point's picture is named by the move the caption counts, and kept.
    captions = re.findall(
        r"^Move (\d+), (White|Black) .*\((game1-review-move(\d\d)-(\w+)\.png)\)$", text, re.M
    )
    assert captions
    for number, side, name, file_number, file_side in captions:
        assert (int(file_number), file_side) == (int(number), side.lower())
        assert (match_pictures / name).read_bytes().startswith(b"\x89PNG")


async def test_the_human_chooses_a_side_and_is_shown_a_move_of_their_own(tmp_path: Path) -> None:
    prompts: list[str] = []
    shown: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Your name"):
            return "Ann"
        if prompt.startswith("Play White"):
            return "b"
        examples = [line for line in shown if line.startswith("Ann, type a move such as")]
        if len(examples) != 1 or any(line.startswith("Ann played") for line in shown):
            raise EOFError
        return examples[0].split("such as ", 1)[1].split(",", 1)[0]  # play the example

    async with open_store(tmp_path / "console.sqlite3") as store:
        service = JarmoService(store, rng=random.Random(3))
        await play_console(
            service,
            out_dir=tmp_path / "boards",
            input_fn=answer,
            output_fn=shown.append,
            vs_computer="easy",
        )
        match = await store.games.latest_match(PLACE.channel_id)
        assert match is not None
        (game,) = await store.games.match_games(match.id)
    text = "\n".join(shown)
    assert prompts[:2] == [
        "Your name [Player 1]: ",
        "Play White (moves first) or Black? [w/b, Enter for either] ",
    ]
    assert game.black_id == 1  # Ann, as asked
    assert "Computer played" in text.split("Ann, type a move such as")[0]  # White went first
    assert "Ann played" in text  # the example was a legal move of Black's


async def test_the_side_given_on_the_command_line_is_not_asked(tmp_path: Path) -> None:
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 1:
            raise EOFError
        return "Ann"

    async with open_store(tmp_path / "console.sqlite3") as store:
        await play_console(
            JarmoService(store, rng=random.Random(3)),
            out_dir=tmp_path / "boards",
            input_fn=answer,
            output_fn=lambda text: None,
            vs_computer="easy",
            side="white",
        )
        match = await store.games.latest_match(PLACE.channel_id)
        assert match is not None
        (game,) = await store.games.match_games(match.id)
    assert prompts == ["Your name [Player 1]: ", "Ann (White) > "]
    assert game.white_id == 1
