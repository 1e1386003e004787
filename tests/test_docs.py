"""What owners and players read: every screenshot is shown somewhere, the README names the
buttons and threads players meet and lists every command, compose.yaml's instructions match
what the bot does, and the test command ends with its summary line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
IMAGES = sorted((ROOT / "docs" / "images").glob("*.png"))


def linked_images() -> set[str]:
    """The images the README and the documents in docs/ show."""
    texts = [README, *(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))]
    return {Path(found).name for text in texts for found in re.findall(r"images/[\w.-]+", text)}


@pytest.mark.parametrize("image", IMAGES, ids=lambda path: path.name)
def test_every_screenshot_is_shown_somewhere(image: Path) -> None:
    assert image.name in linked_images(), f"docs/images/{image.name} is linked from nowhere"


@pytest.mark.parametrize("feature", ["**Move**", "**Rematch**", "**Review**", "thread"])
def test_the_readme_names_what_players_meet(feature: str) -> None:
    assert feature in README


SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2  # Discord's option types


def published_commands() -> list[str]:
    """Every command under /jarmo, as published to Discord (the payload the cogs' tests hold)."""
    payload = json.loads((ROOT / "tests" / "cogs" / "jarmo_commands.json").read_text())
    names: list[str] = []

    def walk(prefix: str, options: list[dict[str, Any]]) -> None:
        for option in options:
            if option["type"] == SUB_COMMAND:
                names.append(f"{prefix} {option['name']}")
            elif option["type"] == SUB_COMMAND_GROUP:
                walk(f"{prefix} {option['name']}", option.get("options", []))

    for command in payload:
        walk(command["name"], command.get("options", []))
    return names


@pytest.mark.parametrize("command", published_commands())
def test_the_readmes_command_table_lists_every_command(command: str) -> None:
    table = README.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    assert f"| `/{command}" in table


def test_compose_does_not_ask_owners_to_publish_commands_by_hand() -> None:
    header = [
        line for line in (ROOT / "compose.yaml").read_text().splitlines() if line.startswith("#")
    ]
    assert not [line for line in header if "jarmo-bot sync" in line]
    assert any("publishes its slash commands by itself" in line for line in header)


def test_a_quiet_test_run_ends_with_its_summary_line(tmp_path: Path) -> None:
    # The README's and CI's test commands, with -q as developers add it: the project's settings
    # must leave the summary ("1 passed in 0.01s") that CI and people read.
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    pass\n")
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml")]
    done = subprocess.run(
        [*command, "--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-q", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^1 passed in ", done.stdout, re.MULTILINE), done.stdout


@pytest.mark.parametrize("script", sorted(set(re.findall(r"python (bench/\w+\.py)", README))))
def test_every_benchmark_the_readme_names_exists(script: str) -> None:
    assert (ROOT / script).is_file()
