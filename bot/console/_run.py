"""Console mode's wiring: a store (a throw-away file unless one is named) and a service."""

from __future__ import annotations

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
    input_fn: InputFn = input,
    output_fn: OutputFn = print,
) -> MatchStandings | None:
    """Open the database and play one console match (see :func:`play_console`).

    Without ``db`` the games go to a temporary file that is deleted afterwards; with it they are
    kept, and an unfinished game there is resumed. Pictures go to ``out_dir``, by default the
    configured ``boards_dir``; ``language`` is the players' language. Raises ``OSError``,
    ``sqlite3.Error`` or ``bot.store.StoreError`` when the database or the pictures' folder
    cannot be used.
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
                input_fn=input_fn,
                output_fn=output_fn,
                ruleset=ruleset,
                games=games,
                vs_computer=vs_computer,
                temporary=temporary,
                language=language,
            )
