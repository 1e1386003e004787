"""Console mode's wiring: a store (a throw-away file unless one is named) and a service."""

from __future__ import annotations

import contextlib
import importlib
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from bot.config import BotConfig
from bot.console._session import InputFn, OutputFn, play_console
from bot.service import JarmoService, MatchStandings
from bot.store import open_store

DATABASE_NAME = "jarmo.sqlite3"


async def run_console(
    config: BotConfig,
    *,
    db: Path | None = None,
    out_dir: Path | None = None,
    ruleset: str | None = None,
    games: int = 1,
    vs_computer: str | None = None,
    language: str | None = None,
    side: str | None = None,
    input_fn: InputFn | None = None,
    output_fn: OutputFn = print,
) -> MatchStandings | None:
    """Open the database and play one console match (see :func:`play_console`).

    Without ``db`` the games go to a temporary file that is deleted afterwards; with it they are
    kept, and an unfinished game there is resumed. Pictures go to ``out_dir``, by default the
    configured ``boards_dir``; ``language`` is the players' language; ``side`` the human's
    against the computer (asked when ``None``). Lines are read with ``input_fn``, by default
    the terminal's (see :func:`terminal_input`). Raises ``OSError``, ``sqlite3.Error`` or
    ``bot.store.StoreError`` when the database or the pictures' folder cannot be used, and
    ``UnplayableGame`` when the database's game is damaged.
    """
    temporary = db is None
    with ExitStack() as stack:
        if db is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="jarmo-play-"))
            db = Path(folder) / DATABASE_NAME
        else:
            db.parent.mkdir(parents=True, exist_ok=True)
        async with open_store(db) as store:
            service = JarmoService(store, config=config.service_config())
            return await play_console(
                service,
                out_dir=out_dir or config.boards_dir,
                input_fn=input_fn or terminal_input(),
                output_fn=output_fn,
                ruleset=ruleset,
                games=games,
                vs_computer=vs_computer,
                temporary=temporary,
                language=language,
                side=side,
                database=None if temporary else str(db),
            )


def terminal_input() -> InputFn:
    """:func:`input`, with line editing and history (the arrow keys work) where the standard
    library has ``readline`` and the input is a terminal; Ctrl-D then ends the prompt's line,
    so what follows starts on a line of its own."""
    if not sys.stdin.isatty():
        return input
    with contextlib.suppress(ImportError):  # not on every platform
        importlib.import_module("readline")  # once loaded, input() edits lines

    def read(prompt: str) -> str:
        try:
            return input(prompt)
        except EOFError:
            print()
            raise

    return read
