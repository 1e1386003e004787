"""``jarmo-bot`` / ``python -m bot``: run the bot, sync its commands, or play at the console.

Start-up problems (a bad configuration, no token, a database that cannot be opened) end with one
clear message on stderr and a non-zero exit status, not a traceback. Every command's exit
status follows one scheme (``bot.exit_status``, shown at the end of each ``--help``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from bot import package_version
from bot._doctor_cli import add_doctor_parser, run_doctor
from bot._games_cli import add_games_parser, run_games
from bot._migrate_cli import add_migrate_parser, run_migrate
from bot._ratings_cli import add_ratings_parser, run_ratings
from bot.config import LOG_LEVELS, BotConfig, ConfigError, load_config
from bot.exit_status import EPILOG, ExitStatus
from bot.health import add_health_parser, run_health
from bot.jarmo import RULESETS
from bot.jarmo.match import MATCH_LENGTHS
from bot.store import (
    DatabaseUnusable,
    SchemaTooNew,
    StoreError,
    check_database,
    check_not_in_use,
    check_server,
    describe,
    server_problem,
)

PROG = "jarmo-bot"
GATEWAY_TOKEN_REJECTED = 4004  # the gateway's close code for a token it does not accept
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
PERMISSIONS = 2048 + 16384 + 32768 + 65536  # Send Messages, Embed Links, Attach Files, History
PERMISSIONS += (1 << 35) + (1 << 38)  # Create Public Threads, Send Messages in Threads
AUTHORIZE_URL = "https://discord.com/oauth2/authorize?client_id=<APPLICATION_ID>"
INVITE_URL = (  # "add to server": the bot joins, and everything works there
    f"{AUTHORIZE_URL}&integration_type=0&scope=bot%20applications.commands"
    f"&permissions={PERMISSIONS}"
)
# "add to my apps": /jarmo in the user's DMs, group DMs and any server, answered in place
USER_INSTALL_URL = f"{AUTHORIZE_URL}&integration_type=1&scope=applications.commands"
NO_TOKEN_HELP = f"""\
No Discord bot token is configured, so the bot cannot connect to Discord.

To run Jarmo in your Discord server:
  1. Create an application: https://discord.com/developers/applications
     -> New Application -> Bot -> Reset Token, and copy the token. Keep it secret.
  2. Give the token to the bot, preferably as an environment variable:
         export DISCORD_TOKEN=...
     or as discord.token in config.toml (see config.example.toml).
  3. Invite the bot to your server with the scopes "bot" and "applications.commands" and the
     permissions Send Messages, Embed Links, Attach Files, Read Message History, Create
     Public Threads and Send Messages in Threads (permissions integer {PERMISSIONS}). Open
     this URL, with your Application ID from the portal's General Information page:
         {INVITE_URL}
     To play in your DMs and group DMs too ("add to my apps"), turn on User Install under
     Installation in the portal, then open:
         {USER_INSTALL_URL}
     No privileged gateway intents are needed.
  4. Start the bot again: {PROG} run
     On its first start it publishes the /jarmo slash commands by itself (and again whenever
     they change). Global commands can take up to an hour to show in Discord; to see them at
     once in a test server, set dev_guild_id under [discord] in config.toml to that server's
     id. `{PROG} sync` publishes them by hand.
  5. In a channel of your server, type /jarmo challenge and pick someone (or the bot itself).

To try the game here at the terminal, without Discord or a token: {PROG} play"""

log = logging.getLogger("bot")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, load the configuration and run the chosen command; returns the
    process exit status."""
    args = build_parser().parse_args(argv)
    command = args.command or "run"
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail(f"configuration error: {exc}", ExitStatus.CANNOT_START)
    # The bot logs at its configured level; a command at the terminal speaks for itself and
    # logs only warnings and errors unless --log-level asks for more.
    serving = command in ("run", "sync", "web")
    level = args.log_level or (config.log_level if serving else "WARNING")
    setup_logging(level, secret=config.token)
    for warning in config.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if command == "play":
        return _play(config, args)
    if command == "ratings":
        return run_ratings(config, args)
    if command == "doctor":
        return run_doctor(config, args)
    if command == "health":
        return run_health(config, server_problem)
    if command == "games":
        return run_games(config, args)
    if command == "migrate-store":
        return run_migrate(args)
    if command == "web":
        return _serve_web(config)
    if config.token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return ExitStatus.CANNOT_START
    if command == "sync":
        return _connect(config, "sync_commands")
    return _connect(config, "run_bot")


def build_parser() -> argparse.ArgumentParser:
    """The command line: ``run`` (the default), ``sync`` and ``play``, with shared options that
    may come before or after the command."""
    shared = argparse.ArgumentParser(add_help=False)
    _add_shared(shared, default=argparse.SUPPRESS)
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Jarmo for Discord: the old Tatar battle game as a Discord bot.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    _add_shared(parser, default=None)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "run", parents=[shared], help="connect to Discord and serve the players (the default)"
    )
    commands.add_parser("sync", parents=[shared], help="publish the slash commands, then exit")
    commands.add_parser(
        "web", parents=[shared], help="serve only the live board ([web]) on the database"
    )
    play = commands.add_parser(
        "play", parents=[shared], help="two players at this terminal, no Discord needed"
    )
    play.add_argument("--ruleset", choices=sorted(RULESETS), help="default: from the config")
    play.add_argument("--games", type=int, choices=MATCH_LENGTHS, default=1, help="match length")
    play.add_argument("--out", type=Path, metavar="DIR", help="folder for the board pictures")
    play.add_argument(
        "--db", type=Path, metavar="PATH", help="keep the games in this SQLite file (resumable)"
    )
    play.add_argument(
        "--vs-computer",
        nargs="?",
        const="medium",
        choices=("easy", "medium", "hard"),
        metavar="LEVEL",
        help="play against the computer (easy, medium or hard; default medium)",
    )
    play.add_argument(
        "--lang",
        choices=("de", "en", "eo", "pl"),
        help="the players' language (default: from LC_ALL, LC_MESSAGES or LANG, else English)",
    )
    play.add_argument(
        "--side",
        choices=("white", "black", "random"),
        help="your side in the first game against the computer (default: asked)",
    )
    add_ratings_parser(commands, shared)  # ratings --check / --rebuild
    add_doctor_parser(commands, shared)  # damaged games
    add_health_parser(commands, shared)  # Docker's HEALTHCHECK
    add_migrate_parser(commands, shared)  # SQLite -> PostgreSQL
    add_games_parser(commands, shared)  # a player's unfinished games
    for command in commands.choices.values():
        command.epilog = EPILOG
        command.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _add_shared(parser: argparse.ArgumentParser, *, default: Any) -> None:
    parser.add_argument(
        "--config", metavar="PATH", default=default, help="the TOML configuration file"
    )
    parser.add_argument(
        "--log-level", type=str.upper, choices=LOG_LEVELS, default=default, help="log verbosity"
    )


class RedactingFormatter(logging.Formatter):
    """A formatter that blanks out a secret wherever it would appear, tracebacks included."""

    def __init__(self, fmt: str, *, secret: str | None) -> None:
        super().__init__(fmt)
        self._secret = secret

    def format(self, record: logging.LogRecord) -> str:
        """The formatted record with the secret replaced."""
        text = super().format(record)
        return text.replace(self._secret, "<token>") if self._secret else text


def setup_logging(level: str, *, secret: str | None = None) -> None:
    """Log to stderr at ``level``; the token never shows even if something tries to log it."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter(LOG_FORMAT, secret=secret))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger().setLevel(level)
    # Alembic's INFO lines describe its defaults ("non-transactional DDL"), which mislead here:
    # the store runs every upgrade in one transaction and logs the versions itself.
    logging.getLogger("alembic").setLevel(max(logging.WARNING, logging.getLogger().level))


def _fail(message: str, status: int) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return status


def _serve_web(config: BotConfig) -> int:
    """``jarmo-bot web``: the live board alone (imported only now: it pulls in aiohttp)."""
    refused = _check_database(config)
    if refused is not None:
        return refused
    serve = importlib.import_module("bot.web.serve")
    try:
        asyncio.run(serve.run_web(config))
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except Exception as exc:
        return _startup_failure(exc, config)
    return ExitStatus.OK


def _check_database(config: BotConfig) -> int | None:
    """Before serving: a database we cannot use is a start-up error (its exit status), and the
    file (and its folder) must be left exactly as they were; ``None`` when it can be used."""
    try:
        if config.database_url is not None:
            asyncio.run(check_server(config.database_url))
        else:
            check_database(config.database)
            check_not_in_use(config.database)
    except (DatabaseUnusable, SchemaTooNew) as exc:
        where = _database_name(config)
        return _fail(_database_problem(exc, where) or str(exc), ExitStatus.CANNOT_START)
    except OSError as exc:
        message = f"cannot use the database {config.database}: {exc}"
        return _fail(message, ExitStatus.CANNOT_START)
    return None


def _connect(config: BotConfig, entry: str) -> int:
    """Run ``bot.client.<entry>(config)`` (imported only now: it pulls in discord.py)."""
    if entry == "run_bot":  # before connecting to Discord
        refused = _check_database(config)
        if refused is not None:
            return refused
    client = importlib.import_module("bot.client")
    try:
        asyncio.run(getattr(client, entry)(config))
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except SystemExit as exc:  # run_bot logs a rejected token and exits by itself
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or ExitStatus.OK
        return _fail(str(exc.code), ExitStatus.PROBLEM)
    except Exception as exc:
        return _startup_failure(exc, config)
    return ExitStatus.OK


def _startup_failure(exc: Exception, config: BotConfig) -> int:
    """One line for a failure we can explain; the full traceback in the log otherwise."""
    message = _discord_problem(exc, config.token_source) or _database_problem(
        exc, _database_name(config)
    )
    if message is None:
        log.exception("the bot stopped because of an unexpected error")
        return ExitStatus.PROBLEM
    log.debug("start-up failure", exc_info=exc)
    return _fail(message, _startup_status(exc))


def _startup_status(exc: Exception) -> ExitStatus:
    """A problem only the operator can fix (the database, a rejected token) is "cannot start";
    one that may pass (Discord out of reach) is a failure."""
    unusable = isinstance(exc, DatabaseUnusable | SchemaTooNew) or _token_rejected(exc)
    return ExitStatus.CANNOT_START if unusable else ExitStatus.PROBLEM


def _token_rejected(exc: BaseException) -> bool:
    """Whether Discord refused the token: at login (``LoginFailure``), or by closing the
    gateway with 4004 (Authentication failed), as it does to a running bot whose token was
    reset in the Developer Portal."""
    import discord

    closed = isinstance(exc, discord.ConnectionClosed) and exc.code == GATEWAY_TOKEN_REJECTED
    return closed or isinstance(exc, discord.LoginFailure)


def _discord_problem(exc: BaseException, token_source: str) -> str | None:
    # discord.py sometimes raises a follow-on error while handling the real one (an unreachable
    # gateway surfaces as an AttributeError): look down the chain of causes too.
    link: BaseException | None = exc
    while link is not None:
        message = _known_discord_problem(link, token_source)
        if message is not None:
            return message
        link = link.__cause__ or link.__context__
    return None


def _known_discord_problem(exc: BaseException, token_source: str) -> str | None:
    import aiohttp
    import discord

    if _token_rejected(exc):
        return (
            f"Discord rejected the token from {token_source}. Reset it (Developer Portal -> "
            f"Bot -> Reset Token) and put the new one in {token_source}."
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused the gateway intents the bot asked for."
    if isinstance(exc, aiohttp.ClientConnectionError | discord.GatewayNotFound):
        return f"cannot reach Discord ({exc}). Check the network connection and try again."
    if isinstance(exc, discord.DiscordServerError):
        return f"Discord is having trouble ({exc}). Try again in a few minutes."
    return None


def _database_name(config: BotConfig) -> str:
    """The database as messages name it (a PostgreSQL URL without its password)."""
    return describe(config.database_url) if config.database_url else str(config.database)


def _database_problem(exc: BaseException, path: object) -> str | None:
    if isinstance(exc, DatabaseUnusable):
        return str(exc)  # names the file already
    if isinstance(exc, SchemaTooNew):
        return (
            f"cannot use the database {path}: it was written by a newer version of Jarmo "
            f"(schema {exc.found}, this version knows up to {exc.supported}). Upgrade the bot, "
            "or restore a backup made before the upgrade."
        )
    if isinstance(exc, sqlite3.Error | StoreError):
        return f"cannot use the database {path}: {exc}"
    return None


def _play(config: BotConfig, args: argparse.Namespace) -> int:
    from bot.console import BoardFolder, UnplayableGame, console_language, run_console

    if args.side is not None and args.vs_computer is None:
        return _fail(
            "--side is for a game against the computer (--vs-computer)", ExitStatus.CANNOT_START
        )
    pictures: Path = args.out or config.boards_dir
    try:
        BoardFolder(pictures).check()
    except OSError as exc:
        reason = "it is a file, not a folder" if pictures.is_file() else exc.strerror or exc
        message = f"cannot write the board pictures to {pictures}: {reason}"
        return _fail(message, ExitStatus.CANNOT_START)
    game = run_console(
        config,
        db=args.db,
        out_dir=pictures,
        ruleset=args.ruleset,
        games=args.games,
        vs_computer=args.vs_computer,
        language=console_language(args.lang, os.environ),
        side=args.side,
    )
    try:
        _run_interruptible(game)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return ExitStatus.INTERRUPTED
    except UnplayableGame:  # the players were told what to do
        return ExitStatus.PROBLEM
    except (OSError, sqlite3.Error, StoreError) as exc:
        where = args.db or "(temporary file)"
        unusable = isinstance(exc, DatabaseUnusable | SchemaTooNew)
        status = ExitStatus.CANNOT_START if unusable else ExitStatus.PROBLEM
        return _fail(_database_problem(exc, where) or f"console mode failed: {exc}", status)
    return ExitStatus.OK


def _run_interruptible(coro: Coroutine[Any, Any, object]) -> object:
    """``asyncio.run``, but Ctrl-C interrupts a blocking ``input()`` at once (asyncio's own
    handler only cancels the task, which a prompt waiting for a line does not notice)."""
    previous = signal.getsignal(signal.SIGINT)
    own = threading.current_thread() is threading.main_thread()
    if own and previous is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)
    try:
        return asyncio.run(coro)
    finally:
        if own and previous is signal.default_int_handler:
            signal.signal(signal.SIGINT, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
