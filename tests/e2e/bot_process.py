"""The real bot as a child process (``jarmo-bot run`` through ``bot_against_fake.py``), talking
to the fake."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TypedDict, Unpack

from tests.e2e.bot_against_fake import API_ENV
from tests.e2e.fake_discord import FakeDiscord

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LAUNCHER = HERE / "bot_against_fake.py"
CLEAN_EXIT_SECONDS = 10.0
LOG_RECORD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ")  # bot/__main__.py's format
STRIPPED_ENV = ("DISCORD_TOKEN", "JARMO_CONFIG", "JARMO_DATABASE", "JARMO_DATABASE_URL")


class BotConfig(TypedDict, total=False):
    """The settings ``write_config`` takes, which ``BotProcess`` passes on."""

    expiry_seconds: int
    max_plies: int
    dev_guild: bool
    token_in_file: bool
    shard_count: int | None
    shard_ids: list[int] | None
    database_url: str | None
    live_board_url: str | None
    activity: bool


def write_config(
    fake: FakeDiscord,
    folder: Path,
    *,
    expiry_seconds: int = 30,
    max_plies: int = 200,
    dev_guild: bool = True,
    token_in_file: bool = False,
    shard_count: int | None = None,
    shard_ids: list[int] | None = None,
    database_url: str | None = None,
    live_board_url: str | None = None,
    activity: bool = False,
) -> Path:
    """A configuration file for the bot, with the fake's guild; returns its path. Without
    ``shard_count`` the bot runs every shard the fake recommends; with ``database_url`` it keeps
    its games on that PostgreSQL database instead of its own SQLite file. With
    ``live_board_url`` it serves the live board (on a free port), its links starting with that
    address, and with ``activity`` also Discord's Activity of the fake's app."""
    lines = ["[discord]"]
    if token_in_file:
        lines.append(f'token = "{fake.token}"')
    if dev_guild:
        lines.append(f"dev_guild_id = {fake.world.guild_id}")
    if shard_count is not None:
        lines.append(f"shard_count = {shard_count}")
    if shard_ids is not None:
        lines.append(f"shard_ids = {shard_ids}")
    lines += [
        "",
        "[database]",
        'path = "jarmo.sqlite3"',
        *([f'url = "{database_url}"'] if database_url else []),
        "",
        "[game]",
        f"challenge_expiry_seconds = {expiry_seconds}",
        f"max_plies = {max_plies}",
        "",
        "[logging]",
        'level = "INFO"',
    ]
    if live_board_url is not None:
        lines += ["", "[web]", "enabled = true", "port = 0", f'public_url = "{live_board_url}"']
        if activity:
            lines += ["activity = true", f"client_id = {fake.world.application_id}"]
    path = folder / "jarmo.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def bot_command(*arguments: str) -> list[str]:
    """The command line of ``jarmo-bot <arguments>`` run against the fake (see ``bot_env``)."""
    return [sys.executable, str(LAUNCHER), *arguments]


def bot_env(fake: FakeDiscord, *, token: bool = True) -> dict[str, str]:
    """The child's environment: none of the developer's Jarmo settings, the fake's token and
    the fake's address for ``bot_command``."""
    env = {k: v for k, v in os.environ.items() if k not in STRIPPED_ENV}
    if token:
        env["DISCORD_TOKEN"] = fake.token
    env[API_ENV] = fake.api_base_url
    env["JARMO_CLIENT_SECRET"] = fake.client_secret  # for an Activity's code exchange
    env["PYTHONUNBUFFERED"] = "1"
    return env


LIVE_BOARD_LISTENS = re.compile(r"the live board listens on (\S+) port (\d+)$", re.MULTILINE)


class BotProcess:
    """Starts, stops and watches one bot process; its log goes to ``log_path``."""

    def __init__(self, fake: FakeDiscord, folder: Path, **config: Unpack[BotConfig]) -> None:
        self.fake = fake
        self.folder = folder
        self.config_path = write_config(fake, folder, **config)
        # The gateway sessions one start opens: one per shard the bot runs.
        ids, count = config.get("shard_ids"), config.get("shard_count")
        self.shards = len(ids) if isinstance(ids, list) else count or fake.recommended_shards
        self.database = folder / "jarmo.sqlite3"
        self.database_url: str | None = None  # PostgreSQL instead of the file, when set
        self.log_path = folder / "bot.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._log_offset = 0

    def start(self, timeout: float = 30.0) -> None:
        """Start the bot and wait until every one of its shards has identified on the gateway
        (discord.py waits 5 s between one shard's IDENTIFY and the next)."""
        assert self.process is None or self.process.poll() is not None, "already running"
        sessions = self.fake.sessions_started
        with self.log_path.open("ab") as log:
            log.write(f"---- start {self.starts + 1} ----\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                bot_command("run", "--config", str(self.config_path)),
                cwd=self.folder,
                env=bot_env(self.fake) | self.database_env(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        process = self.process
        self.fake.wait_until(
            lambda: (
                self.fake.sessions_started >= sessions + self.shards or process.poll() is not None
            ),
            timeout,
            "the bot to connect to the gateway",
        )
        if process.poll() is not None:
            raise AssertionError(
                f"the bot exited with status {process.returncode}:\n{self.log_tail()}"
            )

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Until the bot of the latest start has handled READY (it logs that it is connected),
        its start-up work out of the way of a test that times its first answers."""
        marker = f"---- start {self.starts} ----"
        self.fake.wait_until(
            lambda: "connected as" in self.log_text().rpartition(marker)[2],
            timeout,
            "the bot to be ready",
        )

    def stop(self, timeout: float = CLEAN_EXIT_SECONDS) -> tuple[int, float]:
        """SIGTERM; returns (exit status, seconds it took). Kills it if it hangs."""
        process = self.process
        assert process is not None
        began = time.monotonic()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
            raise AssertionError(
                f"the bot did not exit within {timeout:.0f} s of SIGTERM:\n{self.log_tail()}"
            ) from None
        return status, time.monotonic() - began

    def kill(self) -> None:
        """SIGKILL, as a crash or the kernel's OOM killer would end it: no clean-up at all."""
        process = self.process
        assert process is not None and process.poll() is None, "not running"
        process.kill()
        process.wait(10)

    def live_board_address(self, timeout: float = 20.0) -> str:
        """Where the latest start's live board listens, as its log says: ``http://host:port``."""

        def latest() -> re.Match[str] | None:
            return LIVE_BOARD_LISTENS.search(self.log_text().rpartition("---- start")[2])

        self.fake.wait_until(latest, timeout, "the bot logs where its live board listens")
        found = latest()
        assert found is not None
        return f"http://{found[1]}:{found[2]}"

    def database_env(self) -> dict[str, str]:
        """What a ``jarmo-bot`` command needs in its environment to use this bot's database."""
        return {"JARMO_DATABASE_URL": self.database_url} if self.database_url else {}

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def new_errors(self) -> list[str]:
        """ERROR/CRITICAL log records (with their tracebacks) written since the last call."""
        text = self.log_text()
        fresh, self._log_offset = text[self._log_offset :], len(text)
        records: list[str] = []
        keep = False
        for line in fresh.splitlines():
            if LOG_RECORD.match(line):
                keep = " ERROR " in line or " CRITICAL " in line
                if keep:
                    records.append(line)
            elif keep and records:
                records[-1] += "\n" + line
            elif line.startswith("Traceback"):
                records.append(line)
                keep = True
        return records


def run_sync(
    fake: FakeDiscord, folder: Path, *, dev_guild: bool = True, timeout: float = 60.0
) -> subprocess.CompletedProcess[str]:
    """``python -m bot sync`` once, with the token in the configuration file this time."""
    config = write_config(fake, folder, token_in_file=True, dev_guild=dev_guild)
    return subprocess.run(
        bot_command("sync", "--config", str(config)),
        cwd=folder,
        env=bot_env(fake, token=False),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
