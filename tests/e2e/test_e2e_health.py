"""End to end: the running bot keeps the heartbeat that ``jarmo-bot health`` (Docker's
HEALTHCHECK) reads, and says it is disconnected once it stops."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from bot.config import load_config
from tests.e2e.bot_process import BotProcess, bot_env
from tests.e2e.fake_discord import FakeDiscord

RUNNING = {
    "healthy: the bot is connected to Discord and the database {db} opens",
    # The first beat is written before the gateway session is ready.
    "unhealthy: the bot is running but not connected to Discord",
}


def health(fake: FakeDiscord, bot: BotProcess) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "health", "--config", str(bot.config_path)],
        cwd=bot.folder,
        env=bot_env(fake, token=False) | bot.database_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_heartbeat_follows_the_bots_life(fake: FakeDiscord, bot: BotProcess) -> None:
    beat_file = load_config(bot.config_path, env=bot.database_env()).heartbeat_file
    beat = json.loads(beat_file.read_text())  # written at start-up, before the gateway session
    assert abs(time.time() - beat["time"]) < 60
    running = health(fake, bot)
    said = (running.stdout + running.stderr).strip()
    shown = "on PostgreSQL" if bot.database_url else bot.database
    assert said in {line.format(db=shown) for line in RUNNING}
    assert running.returncode == (0 if said.startswith("healthy") else 1)

    fake.wait_idle()
    status, _ = bot.stop()
    assert status == 0
    last = json.loads(beat_file.read_text())
    assert (last["connected"], last["running"]) == (False, False)
    stopped = health(fake, bot)
    assert stopped.returncode == 1
    assert stopped.stderr == "unhealthy: the bot has stopped\n"
    assert sorted(p.name for p in bot.folder.glob("*.health*")) == [beat_file.name]
