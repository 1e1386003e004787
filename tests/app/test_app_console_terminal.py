"""``jarmo-bot play`` in a real (pseudo-)terminal: line editing, Ctrl-D and what is printed
before the first question."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

UP = "\x1b[A"
CTRL_D = "\x04"
WAIT_S = 60.0


class Terminal:
    """``jarmo-bot play`` on a pseudo-terminal; everything it shows is kept in ``screen``."""

    def __init__(self, folder: Path) -> None:
        controller, device = pty.openpty()
        env = {**os.environ, "LANG": "C", "TERM": "xterm"}
        env.pop("JARMO_CONFIG", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "play", "--out", str(folder / "boards")],
            stdin=device,
            stdout=device,
            stderr=device,
            cwd=folder,
            env=env,
            close_fds=True,
        )
        os.close(device)
        self.controller = controller
        self.screen = ""

    def type(self, keys: str) -> None:
        os.write(self.controller, keys.encode())

    def wait_for(self, text: str, *, after: int = 0) -> int:
        """Read until ``text`` shows after offset ``after``; where it ends."""
        deadline = time.monotonic() + WAIT_S
        while (found := self.screen.find(text, after)) < 0:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen}")
            ready, _, _ = select.select([self.controller], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.controller, 4096)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen}")
                self.screen += chunk.decode(errors="replace")
        return found + len(text)

    def close(self) -> int:
        try:
            return self.process.wait(timeout=WAIT_S)
        finally:
            os.close(self.controller)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    opened = Terminal(tmp_path)
    try:
        yield opened
    finally:
        if opened.process.poll() is None:
            opened.process.kill()
            opened.close()


def start_hot_seat(terminal: Terminal) -> None:
    """Answer the two names, each once its question shows."""
    terminal.wait_for("Player 1 name [Player 1]: ")
    terminal.type("Ann\r")
    terminal.wait_for("Player 2 name [Player 2]: ")
    terminal.type("Bob\r")


def test_the_arrow_keys_edit_and_recall_lines(terminal: Terminal) -> None:
    start_hot_seat(terminal)
    seen = terminal.wait_for(") > ")
    terminal.type("hint\r")
    seen = terminal.wait_for("Unknown command: hint. Type help for the list.", after=seen)
    seen = terminal.wait_for(") > ", after=seen)
    terminal.type(UP + "\r")  # the line typed before, again
    seen = terminal.wait_for("Unknown command: hint. Type help for the list.", after=seen)
    seen = terminal.wait_for(") > ", after=seen)
    terminal.type("hunt" + "\x1b[D" * 2 + "\x7fi\r")  # left twice, rub out the u
    seen = terminal.wait_for("Unknown command: hint. Type help for the list.", after=seen)
    seen = terminal.wait_for(") > ", after=seen)
    assert "^[[A" not in terminal.screen and "\\x1b" not in terminal.screen
    terminal.type("quit\r")
    terminal.wait_for("Quit anyway? [y/N] ", after=seen)
    terminal.type("y\r")
    terminal.wait_for("Goodbye.")
    assert terminal.close() == 0


def test_ctrl_d_asks_before_losing_the_game_and_nothing_is_logged(terminal: Terminal) -> None:
    start_hot_seat(terminal)
    seen = terminal.wait_for(") > ")
    terminal.type(CTRL_D)
    seen = terminal.wait_for("Quit anyway? [y/N] ", after=seen)
    terminal.type("n\r")
    seen = terminal.wait_for("Not quitting; the game goes on.", after=seen)
    seen = terminal.wait_for(") > ", after=seen)
    terminal.type(CTRL_D)
    seen = terminal.wait_for("Quit anyway? [y/N] ", after=seen)
    terminal.type("y\r")
    terminal.wait_for("Goodbye.", after=seen)
    assert terminal.close() == 0
    before_first_question = terminal.screen.split("Player 1 name", 1)[0]
    assert before_first_question == ""  # no log line such as "INFO ... creating the schema"
