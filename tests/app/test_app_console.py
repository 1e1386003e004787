"""Console mode (bot/console): whole matches scripted through the real service and store."""

from __future__ import annotations

import ast
import io
import random
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import closing
from pathlib import Path
from typing import TypedDict, Unpack

import pytest

from bot.__main__ import main
from bot.config import BotConfig
from bot.console import PLACE, board_diagram, play_console, run_console
from bot.exit_status import ExitStatus
from bot.jarmo import Game
from bot.service import JarmoService, MatchStandings, ServiceConfig
from bot.store import SqliteStore, open_store

PNG = b"\x89PNG\r\n\x1a\n"


class Console:
    """A scripted terminal: answers prompts from a list (or a function) and records the output.
    Input runs out with ``EOFError``, as at the end of a piped stdin."""

    def __init__(
        self, lines: Iterable[str] = (), *, answer: Callable[[str], str] | None = None
    ) -> None:
        self.lines = list(lines)
        self.answer = answer
        self.prompts: list[str] = []
        self.shown: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.answer is not None:
            return self.answer(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def write(self, text: str) -> None:
        self.shown.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.shown)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(tmp_path / "console.sqlite3") as opened:
        yield opened


def service_on(store: SqliteStore, *, max_plies: int = 200, seed: int = 1) -> JarmoService:
    return JarmoService(store, config=ServiceConfig(max_plies=max_plies), rng=random.Random(seed))


class ConsoleOptions(TypedDict, total=False):
    """The match options ``play_console`` takes."""

    ruleset: str | None
    games: int
    vs_computer: str | None
    temporary: bool
    language: str | None


async def play(
    service: JarmoService, console: Console, out: Path, **options: Unpack[ConsoleOptions]
) -> MatchStandings | None:
    return await play_console(
        service, out_dir=out, input_fn=console.read, output_fn=console.write, **options
    )


async def test_a_scripted_game_to_a_resignation(store: SqliteStore, tmp_path: Path) -> None:
    out = tmp_path / "boards"
    console = Console(
        [
            "Ann",
            "Bob",
            "A1-C2",  # White
            "A5-A4",  # Black: no such line; nothing changes
            "moves",
            "A5-C4",  # Black
            "standings",
            "hello",  # not a move either
            "",
            "resign",  # White gives up
            "y",  # and confirms
        ]
    )
    result = await play(service_on(store), console, out)

    text = console.text
    (match_pictures,) = (p for p in out.iterdir() if p.is_dir())
    assert re.fullmatch(r"\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_match-1", match_pictures.name)
    assert f"This match's board pictures are written to {match_pictures};" in text
    assert f"{out / 'latest.png'} is always the current position" in text
    assert "No line joins A5 and A4" in text
    listing = next(block for block in console.shown if block.startswith("Legal moves for"))
    assert "A5-C4" in listing and "A1-C2" not in listing
    assert "Match of 1 game · classic / published board" in text
    assert "resigned." in text and "wins the match (by forfeit)!" in text
    assert text.count("wins the match") == 1  # the final table says it; the report does not
    assert "**" not in text
    assert console.prompts[:2] == ["Player 1 name [Player 1]: ", "Player 2 name [Player 2]: "]
    sides = [prompt.rsplit("(", 1)[1] for prompt in console.prompts[2:-2]]
    assert sides == ["White) > "] + ["Black) > "] * 3 + ["White) > "] * 4
    assert console.prompts[-2].startswith("Ann, resign? You lose this game and the rest")
    assert console.prompts[-1].startswith("Review the last game?")  # the script ends: no

    assert result is not None and result.over
    match = await store.games.latest_match(PLACE.channel_id)
    assert match is not None and match.state == "forfeited"
    (game,) = await store.games.match_games(match.id)
    assert [a.move for a in await store.games.actions(game.id)] == ["A1-C2", "A5-C4"]
    assert match.winner_id == game.black_id
    names = {p.user_id: p.display_name for p in [await store.players.get(0, i) for i in (1, 2)]}
    assert names == {1: "Ann", 2: "Bob"}

    assert sorted(p.name for p in out.iterdir()) == [match_pictures.name, "latest.png"]
    pictures = sorted(p.name for p in match_pictures.iterdir())
    assert pictures == ["game1-move000.png", "game1-move001.png", "game1-move002.png"]
    for picture in match_pictures.iterdir():
        assert picture.read_bytes().startswith(PNG)
    assert (out / "latest.png").read_bytes() == (match_pictures / "game1-move002.png").read_bytes()


async def test_whole_match_playing_the_first_suggestion(store: SqliteStore, tmp_path: Path) -> None:
    console = Console()

    def first_suggestion(prompt: str) -> str:
        if prompt.startswith("Player"):
            return "Ann" if "1" in prompt else "Bob"
        if len(console.prompts) > 200:
            raise EOFError
        last = console.shown[-1]
        if last.startswith("Legal moves for"):
            return last.split(": ", 1)[1].split(",")[0].strip()
        return "moves"

    console.answer = first_suggestion
    out = tmp_path / "boards"
    result = await play(service_on(store, max_plies=10), console, out, games=2)

    assert result is not None and result.over
    assert "Game 2 of 2 · classic / published board" in console.text
    assert "the move limit was reached" in console.text
    assert "Match of 2 games" in console.shown[-1]
    (match_pictures,) = (p for p in out.iterdir() if p.is_dir())
    for game in (1, 2):
        assert (match_pictures / f"game{game}-move010.png").read_bytes().startswith(PNG)
    assert not (match_pictures / "game3-move000.png").exists()


async def test_the_other_player_answers_a_stop_offer(store: SqliteStore, tmp_path: Path) -> None:
    console = Console(["Ann", "Bob", "A1-C2", "stop", "no", "stop", "y"])
    result = await play(service_on(store), console, tmp_path / "boards")

    assert "said no; the game goes on" in console.text
    assert "The players agreed to stop the game here." in console.text
    offers = [p for p in console.prompts if "offers to stop" in p]
    assert len(offers) == 2
    assert result is not None and result.over


async def test_end_of_input_leaves_cleanly(store: SqliteStore, tmp_path: Path) -> None:
    console = Console(["Ann", "Bob", "A1-C2"])
    assert await play(service_on(store), console, tmp_path / "boards") is None
    assert console.shown[-1] == "Goodbye."


async def test_end_of_input_while_asking_names(store: SqliteStore, tmp_path: Path) -> None:
    console = Console(["Ann"])
    assert await play(service_on(store), console, tmp_path / "boards") is None
    assert await store.games.latest_match(PLACE.channel_id) is None


async def test_names_default_and_must_differ(store: SqliteStore, tmp_path: Path) -> None:
    console = Console(["", "player 1", "  Bob   Jr  ", "quit"])
    await play(service_on(store), console, tmp_path / "boards")
    assert "Player 1 is already called Player 1; choose another name." in console.text
    assert {(await store.players.get(0, i)).display_name for i in (1, 2)} == {"Player 1", "Bob Jr"}


async def test_help_rules_and_board(store: SqliteStore, tmp_path: Path) -> None:
    console = Console(["Ann", "Bob", "help", "rules", "board", "moves B1", "moves E5", "quit"])
    await play(service_on(store), console, tmp_path / "boards", ruleset="jasir")
    text = console.text
    assert "moves [A1]" in text
    assert "docs/rules.md" in text
    assert "Game 1 of 1 · jasir / published board" in text
    assert "Legal moves for" in text and "B1-A3" in text and "A1-C2" not in text.split("B1-A3")[1]
    assert "No legal move starts with E5." in text


async def test_an_unfinished_game_is_resumed(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    async with open_store(db) as store:
        await play(service_on(store), Console(["Ann", "Bob", "A1-C2"]), tmp_path / "b")
    console = Console(["A5-C4", "resign", "y"])
    async with open_store(db) as store:
        result = await play(service_on(store), console, tmp_path / "b")
        match = await store.games.latest_match(PLACE.channel_id)
        assert match is not None
        (game,) = await store.games.match_games(match.id)
    assert "Resuming the unfinished game" in console.text
    assert result is not None and game.engine.ply == 2


async def test_run_console_leaves_no_database_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    console = Console(["Ann", "Bob", "resign", "y"])
    config = BotConfig(boards_dir=tmp_path / "pictures")
    result = await run_console(config, input_fn=console.read, output_fn=console.write)
    assert result is not None
    assert list(scratch.iterdir()) == []
    assert (tmp_path / "pictures" / "latest.png").read_bytes().startswith(PNG)


async def test_run_console_keeps_a_named_database(tmp_path: Path) -> None:
    db = tmp_path / "deep" / "folder" / "games.sqlite3"
    console = Console(["Ann", "Bob", "quit"])
    await run_console(
        BotConfig(), db=db, out_dir=tmp_path / "out", input_fn=console.read, output_fn=console.write
    )
    assert db.is_file()


def test_board_diagram_of_the_start() -> None:
    text = board_diagram(Game.new().position())
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDE")
    assert lines[1].split()[:6] == ["5", "B", "B", "B", "B", "B"]
    assert lines[5].split()[:6] == ["1", "W", "W", "W", "W", "W"]
    assert lines[3].split() == ["3", ".", ".", ".", ".", "."]


def test_board_diagram_marks_a_capturing_piece() -> None:
    game = Game.new()
    game.play("A1-B3")
    game.play("A5xB3")
    text = board_diagram(game.position())
    assert "B*" in text
    assert "White lost 1" in text and "last action A5xB3" in text


async def test_resigning_asks_first_and_no_keeps_playing(
    store: SqliteStore, tmp_path: Path
) -> None:
    console = Console(["Ann", "Bob", "resign", "n", "A1-C2", "resign", ""])
    assert await play(service_on(store), console, tmp_path / "boards") is None
    resign_questions = [p for p in console.prompts if "resign? You lose this game" in p]
    assert resign_questions == [
        "Ann, resign? You lose this game and the rest of the match goes to Bob. [y/N] ",
        "Bob, resign? You lose this game and the rest of the match goes to Ann. [y/N] ",
    ]
    assert console.text.count("Not resigned; the game goes on.") == 2
    match = await store.games.latest_match(PLACE.channel_id)
    assert match is not None and match.state == "running"


async def test_quitting_a_game_held_only_in_memory_asks_first(tmp_path: Path) -> None:
    console = Console(["Ann", "Bob", "quit", "no", "A1-C2", "quit", "y"])
    config = BotConfig(boards_dir=tmp_path / "pictures")
    await run_console(config, input_fn=console.read, output_fn=console.write)
    question = "not saved anywhere (no --db was given): quitting loses it. Quit anyway? [y/N] "
    assert [p for p in console.prompts if "Quit anyway" in p] == [f"This game is {question}"] * 2
    assert "Not quitting; the game goes on." in console.text
    assert "A1-C2" in console.text and console.shown[-1] == "Goodbye."


async def test_quitting_a_kept_game_says_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    console = Console(["Ann", "Bob", "quit"])
    await run_console(
        BotConfig(), db=db, out_dir=tmp_path / "out", input_fn=console.read, output_fn=console.write
    )
    assert not any("Quit anyway" in p for p in console.prompts)
    assert "play again with the same --db to resume" in console.text


async def test_console_messages_never_mention_autocomplete(
    store: SqliteStore, tmp_path: Path
) -> None:
    console = Console(["Ann", "Bob", "A1-B2", "A1-A2", "@B1", "help", "quit"])
    await play(service_on(store), console, tmp_path / "boards")
    text = console.text
    assert "No line joins A1 and B2" in text and "Your move was not played" in text
    assert "autocomplete" not in text.lower() and "/jarmo" not in text


def test_the_service_and_the_engine_name_no_slash_command() -> None:
    """Words are the front ends' business: the console names its own commands (see
    tests/words), so no text of the service or the engine may name a Discord one."""
    bot = Path(__file__).resolve().parents[2] / "bot"
    texts = [
        text
        for path in [*(bot / "service").glob("*.py"), *(bot / "jarmo").glob("*.py")]
        for text in _strings_but_docstrings(ast.parse(path.read_text()))
    ]
    assert [text for text in texts if re.search(r"/jarmo \w|autocomplete \w", text)] == []


async def test_help_gives_examples_from_the_player_to_moves_camp(
    store: SqliteStore, tmp_path: Path
) -> None:
    console = Console(["Ann", "Bob", "A1-C2", "help", "quit"])
    await play(service_on(store), console, tmp_path / "boards", ruleset="ludos")
    (help_block,) = [block for block in console.shown if block.startswith("Type a move, or")]
    assert "Moves (Blue)" in help_block  # Bob, the second to move, has Black: Blue in ludos
    assert "@B5" in help_block and "D3-C1@B5" in help_block and "moves [A5]" in help_block
    assert "B1" not in help_block
    assert "Bob (Blue) > " in console.prompts and "Ann (Green) > " in console.prompts


def _strings_but_docstrings(tree: ast.Module) -> list[str]:
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, documented)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


async def test_each_match_keeps_its_pictures_in_a_folder_of_its_own(
    store: SqliteStore, tmp_path: Path
) -> None:
    out = tmp_path / "boards"
    service = service_on(store)
    await play(service, Console(["Ann", "Bob", "A1-C2", "resign", "y"]), out)
    await play(service, Console(["Cat", "Dan", "resign", "y"]), out)

    first, second = sorted(p for p in out.iterdir() if p.is_dir())
    assert first.name.endswith("_match-1") and second.name.endswith("_match-2")
    assert sorted(p.name for p in first.iterdir()) == ["game1-move000.png", "game1-move001.png"]
    assert sorted(p.name for p in second.iterdir()) == ["game1-move000.png"]
    assert (out / "latest.png").read_bytes() == (second / "game1-move000.png").read_bytes()


class EndOfInput:
    """In a script: the player presses Ctrl-D here (``EOFError``), and may go on typing."""


CTRL_D = EndOfInput()


def script(*lines: str | EndOfInput) -> Callable[[str], str]:
    """Answers prompts from ``lines``, raising ``EOFError`` for each ``CTRL_D`` and after
    the last line."""
    remaining = list(lines)

    def answer(prompt: str) -> str:
        line = remaining.pop(0) if remaining else CTRL_D
        if isinstance(line, EndOfInput):
            raise EOFError
        return line

    return answer


async def test_ctrl_d_asks_before_losing_an_unsaved_game(tmp_path: Path) -> None:
    console = Console(answer=script("Ann", "Bob", CTRL_D, "n", "A1-C2", CTRL_D, "y"))
    config = BotConfig(boards_dir=tmp_path / "pictures")
    assert await run_console(config, input_fn=console.read, output_fn=console.write) is None
    question = "This game is not saved anywhere (no --db was given): quitting loses it. "
    assert [p for p in console.prompts if p.startswith(question)] == [
        f"{question}Quit anyway? [y/N] "
    ] * 2
    assert "Not quitting; the game goes on." in console.text
    assert " played A1-C2." in console.text  # the game went on after the first Ctrl-D
    assert console.shown[-1] == "Goodbye."


async def test_ctrl_d_twice_leaves(tmp_path: Path) -> None:
    console = Console(answer=script("Ann", "Bob", CTRL_D, CTRL_D))
    config = BotConfig(boards_dir=tmp_path / "pictures")
    assert await run_console(config, input_fn=console.read, output_fn=console.write) is None
    assert "Quit anyway?" in console.prompts[-1] and console.shown[-1] == "Goodbye."


async def test_a_word_that_is_no_command_and_no_move_is_an_unknown_command(
    store: SqliteStore, tmp_path: Path
) -> None:
    console = Console(["Ann", "Bob", "hint", "UNDO", "a9", "quit"])
    await play(service_on(store), console, tmp_path / "boards")
    unknown = [block for block in console.shown if block.startswith("Unknown command")]
    assert unknown == [
        "Unknown command: hint. Type help for the list.",
        "Unknown command: UNDO. Type help for the list.",
    ]
    # "a9" names a point, so it is read as a move and gets the move's own explanation.
    (refused,) = [block for block in console.shown if "Type moves to list the legal moves" in block]
    assert "Unknown command" not in refused


async def test_each_player_is_shown_a_legal_move_of_their_own(
    store: SqliteStore, tmp_path: Path
) -> None:
    console = Console()

    def play_the_example(prompt: str) -> str:
        if prompt.startswith("Player"):
            return "Ann" if "1" in prompt else "Bob"
        examples = [line for line in console.shown if "type a move such as" in line]
        if len(console.prompts) > 6:
            raise EOFError
        return examples[-1].split("such as ", 1)[1].split(",", 1)[0]

    console.answer = play_the_example
    await play(service_on(store), console, tmp_path / "boards", ruleset="classic")
    examples = [line for line in console.shown if "type a move such as" in line]
    assert [line.split(",")[0] for line in examples] == ["Ann", "Bob"]  # once each
    white, black = (line.split("such as ", 1)[1].split(",")[0] for line in examples)
    assert white[1] in "12" and black[1] in "45"  # from each side's own camp
    assert f"Ann played {white}." in console.text and f"Bob played {black}." in console.text


def test_a_damaged_game_says_how_to_set_it_aside_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kept.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann\nBob\nA1-C2\nquit\n"))
    assert main(["play", "--db", "kept.sqlite3", "--out", "boards"]) == ExitStatus.OK
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE games SET snapshot = '{not json' WHERE status = 'active'")
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("A5-C4\n"))

    assert main(["play", "--db", "kept.sqlite3", "--out", "boards"]) == ExitStatus.PROBLEM
    out = capsys.readouterr().out
    assert "Game 1 in the database is damaged" in out
    assert "\n  jarmo-bot doctor --db kept.sqlite3 --quarantine\n" in out
    assert "manage the channel" not in out and "Bob" not in out
