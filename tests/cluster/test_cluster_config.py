"""``[discord] shard_count`` / ``shard_ids`` and ``JARMO_SHARD_COUNT`` / ``JARMO_SHARD_IDS``: the
shards one process runs, the servers it works for, and the mistakes refused at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.client import JarmoBot, _sharding
from bot.config import ConfigError, load_config
from bot.service.shards import ShardSet, shard_of


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def guild_on(shard: int, count: int) -> int:
    """A server id whose events go to ``shard`` of ``count``."""
    return ((1_000 * count + shard) << 22) | 12_345


def test_without_shard_settings_discord_decides_and_every_server_is_ours(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), env={})
    assert (config.shard_count, config.shard_ids) == (None, None)
    assert _sharding(config) == {}  # discord.py asks GET /gateway/bot and runs every shard
    assert all(config.shards().owns(guild_on(s, 7)) for s in range(7))


def test_the_file_names_the_shards_and_the_environment_wins(tmp_path: Path) -> None:
    path = write(tmp_path, "[discord]\nshard_count = 4\nshard_ids = [0, 2]\n")
    config = load_config(path, env={})
    assert (config.shard_count, config.shard_ids) == (4, (0, 2))
    assert _sharding(config) == {"shard_count": 4, "shard_ids": [0, 2]}
    bot = JarmoBot(config)
    assert (bot.shard_count, bot.shard_ids) == (4, [0, 2])
    config = load_config(path, env={"JARMO_SHARD_COUNT": "2", "JARMO_SHARD_IDS": " 1 "})
    assert (config.shard_count, config.shard_ids) == (2, (1,))


def test_a_count_alone_runs_every_shard_of_it(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), env={"JARMO_SHARD_COUNT": "3"})
    assert _sharding(config) == {"shard_count": 3}
    assert config.shards() == ShardSet(3, frozenset({0, 1, 2}))


def test_a_process_owns_exactly_the_servers_of_its_shards(tmp_path: Path) -> None:
    env = {"JARMO_SHARD_COUNT": "4", "JARMO_SHARD_IDS": "0,2"}
    shards = load_config(write(tmp_path, ""), env=env).shards()
    assert [shards.owns(guild_on(s, 4)) for s in range(4)] == [True, False, True, False]
    assert [shard_of(guild_on(s, 4), 4) for s in range(4)] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"JARMO_SHARD_IDS": "0"}, "JARMO_SHARD_IDS: shard ids need a shard count"),
        ({"JARMO_SHARD_COUNT": "2", "JARMO_SHARD_IDS": "0,2"}, "shard 2 is outside 0..1"),
        ({"JARMO_SHARD_COUNT": "2", "JARMO_SHARD_IDS": "-1"}, "shard -1 is outside 0..1"),
        ({"JARMO_SHARD_COUNT": "3", "JARMO_SHARD_IDS": "1,1"}, "shard 1 is listed twice"),
        ({"JARMO_SHARD_COUNT": "3", "JARMO_SHARD_IDS": "0,,1"}, "separated by commas"),
        ({"JARMO_SHARD_COUNT": "zero"}, "JARMO_SHARD_COUNT: expected an integer from 1"),
        ({"JARMO_SHARD_COUNT": "0"}, "JARMO_SHARD_COUNT: expected an integer from 1"),
    ],
)
def test_bad_shards_in_the_environment_are_refused(
    tmp_path: Path, env: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, ""), env=env)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("shard_ids = [0]", r"discord\.shard_ids: shard ids need a shard count"),
        ("shard_count = 2\nshard_ids = [1, 5]", r"discord\.shard_ids: shard 5 is outside 0\.\.1"),
        ("shard_count = 2\nshard_ids = [0, 0]", r"discord\.shard_ids: shard 0 is listed twice"),
        ("shard_count = 2\nshard_ids = []", r"discord\.shard_ids: expected a list of shard"),
        ("shard_count = 2\nshard_ids = 1", r"discord\.shard_ids: expected a list of shard"),
        ("shard_count = 0", r"discord\.shard_count: expected an integer from 1"),
    ],
)
def test_bad_shards_in_the_file_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, f"[discord]\n{text}\n"), env={})


def test_the_bot_refuses_bad_shards_at_start_with_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("JARMO_CONFIG", "JARMO_DATABASE", "JARMO_SHARD_COUNT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "MTIz.token")
    monkeypatch.setenv("JARMO_SHARD_IDS", "0,1")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "JARMO_SHARD_IDS: shard ids need a shard count" in err
    assert not (tmp_path / "data").exists()  # nothing was opened


def test_a_shard_set_must_fit_its_count() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        ShardSet(2, frozenset({2}))
    assert ShardSet.every().owns(guild_on(5, 9))


def test_places_outside_servers_belong_to_shard_zero() -> None:
    # Discord sends direct messages to shard 0: its process does their background work.
    assert ShardSet.of(2, (0,)).owns(None)
    assert not ShardSet.of(2, (1,)).owns(None)
    assert ShardSet.every().owns(None)
