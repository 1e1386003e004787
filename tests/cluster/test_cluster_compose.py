"""compose.yaml's "cluster" profile, read without Docker: PostgreSQL from the official image
on a named volume with a health check, and two bots running shards 0 and 1 of 2 on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import load_config

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return loaded


def cluster(services: dict[str, Any]) -> dict[str, Any]:
    return {name: s for name, s in services.items() if "cluster" in s.get("profiles", [])}


def test_the_default_profile_is_still_the_single_bot(services: dict[str, Any]) -> None:
    assert [name for name, s in services.items() if "profiles" not in s] == ["bot"]


def test_postgresql_runs_from_the_official_image_on_a_named_volume(
    services: dict[str, Any],
) -> None:
    postgres = cluster(services)["postgres"]
    assert postgres["image"].split(":")[0] == "postgres"
    [mount] = postgres["volumes"]
    volume, target = mount.split(":")
    assert target == "/var/lib/postgresql/data"
    assert volume in yaml.safe_load(COMPOSE.read_text())["volumes"]
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]


def test_two_bots_run_shards_0_and_1_of_2_on_the_healthy_database(
    services: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no config.toml
    bots = {n: s for n, s in cluster(services).items() if n != "postgres"}
    shards = []
    for bot in bots.values():
        assert bot["build"] == "."
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
        env = bot["environment"]
        assert env["JARMO_DATABASE_URL"].startswith("postgresql://")
        assert env["JARMO_DATABASE_URL"].endswith("@postgres:5432/jarmo")
        # The values the bot will read, through the bot's own configuration loader.
        shard_env = {k: v for k, v in env.items() if k.startswith("JARMO_SHARD_")}
        loaded = load_config(None, env=shard_env)
        shards.append((loaded.shard_count, loaded.shard_ids))
    assert sorted(shards) == [(2, (0,)), (2, (1,))]
