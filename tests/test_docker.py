"""The Dockerfile and compose.yaml, checked without Docker (this machine has no engine): hadolint
where it is installed, and our own reading of both files for what a server owner relies on."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
INSTRUCTIONS = {
    "FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
    "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL",
}  # fmt: skip
HEALTH_COMMAND = ["jarmo-bot", "health"]


@dataclass(frozen=True)
class Instruction:
    keyword: str
    arguments: str
    line: int


def read_dockerfile(path: Path = ROOT / "Dockerfile") -> list[Instruction]:
    """The instructions, with continuation lines joined and comments dropped."""
    instructions: list[Instruction] = []
    pending, start = "", 0
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        text = raw.strip()
        if not pending and (not text or text.startswith("#")):
            continue
        if pending and text.startswith("#"):
            continue  # a comment inside a continued instruction
        start = start or number
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        keyword, _, arguments = (pending + text).partition(" ")
        instructions.append(Instruction(keyword, " ".join(arguments.split()), start))
        pending, start = "", 0
    assert not pending, "the Dockerfile ends inside a continued instruction"
    return instructions


def of(keyword: str, instructions: list[Instruction]) -> list[Instruction]:
    return [i for i in instructions if i.keyword == keyword]


def exec_form(arguments: str) -> list[str]:
    """``["a", "b"]`` as a list; the shell form is refused (it breaks signal handling)."""
    assert arguments.startswith("["), f"use the exec form (JSON list): {arguments}"
    listed: list[str] = yaml.safe_load(arguments)
    return listed


@pytest.fixture(scope="module")
def dockerfile() -> list[Instruction]:
    return read_dockerfile()


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return loaded


# -- Dockerfile -------------------------------------------------------------------------------


def test_hadolint_finds_nothing() -> None:
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).with_name("hadolint"))
    if not Path(hadolint).exists():
        pytest.skip("hadolint is not installed (the test extra installs it, except on Windows)")
    result = subprocess.run(
        [hadolint, "--no-color", "--failure-threshold", "info", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_instruction_is_known_and_upper_case(dockerfile: list[Instruction]) -> None:
    unknown = [f"line {i.line}: {i.keyword}" for i in dockerfile if i.keyword not in INSTRUCTIONS]
    assert not unknown


def test_the_base_image_is_pinned_to_a_python_release(dockerfile: list[Instruction]) -> None:
    [base] = of("FROM", dockerfile)
    assert dockerfile[0] is base
    image = base.arguments.split()[0]
    pinned = re.fullmatch(r"python:(\d+)\.(\d+)\.\d+-slim-[a-z]+(@sha256:[0-9a-f]{64})?", image)
    assert pinned, f"{image}: name a full version such as python:3.11.14-slim-bookworm"
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == f">={pinned[1]}.{pinned[2]}"  # the image runs the oldest supported Python


def test_dependencies_are_installed_from_the_lock_before_the_code_is_copied(
    dockerfile: list[Instruction],
) -> None:
    copies = [i.arguments.split() for i in of("COPY", dockerfile)]
    lock_copy = next(n for n, c in enumerate(copies) if "requirements/runtime.lock" in c[:-1])
    code_copy = next(n for n, c in enumerate(copies) if "bot" in c[:-1])
    assert lock_copy < code_copy
    assert copies[lock_copy][:-1] == ["requirements/runtime.lock"]  # nothing else in that layer
    lock_at, code_at = (dockerfile.index(of("COPY", dockerfile)[n]) for n in (lock_copy, code_copy))
    [install] = [i for i in dockerfile[lock_at:code_at] if i.keyword == "RUN"]
    words = shlex.split(install.arguments)
    assert words[:2] == ["pip", "install"] and "--require-hashes" in words and "-r" in words
    [code_install] = [i for i in dockerfile[code_at:] if i.keyword == "RUN"]
    assert {"--no-deps", "--no-build-isolation"} <= set(shlex.split(code_install.arguments))


def test_copy_sources_exist_and_are_in_the_build_context(dockerfile: list[Instruction]) -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert patterns[0] == "*"  # everything stays out of the context but what is let in
    included = {p[1:].rstrip("/") for p in patterns if p.startswith("!")}
    for copy in of("COPY", dockerfile):
        for source in copy.arguments.split()[:-1]:
            assert not source.startswith("--"), f"line {copy.line}: keep COPY plain: {source}"
            assert (ROOT / source).exists(), f"line {copy.line}: {source} does not exist"
            assert source in included, f".dockerignore leaves {source} out of the build context"
    assert not included & {"config.toml", ".env", "data", "tests"}


def test_it_runs_as_a_non_root_user(dockerfile: list[Instruction]) -> None:
    users = of("USER", dockerfile)
    assert users, "the container would run as root"
    user = users[-1].arguments.split(":")[0]
    assert user.isdigit() and user != "0"  # numeric: checkable by runAsNonRoot and the like
    assert dockerfile.index(users[-1]) < dockerfile.index(of("CMD", dockerfile)[-1])


def test_the_healthcheck_runs_jarmo_bot_health(dockerfile: list[Instruction]) -> None:
    [health] = of("HEALTHCHECK", dockerfile)
    options, _, command = health.arguments.partition(" CMD ")
    assert exec_form(command) == HEALTH_COMMAND
    assert all(option.startswith("--") for option in options.split())


def test_the_database_is_on_the_data_volume(dockerfile: list[Instruction]) -> None:
    env = " ".join(i.arguments for i in of("ENV", dockerfile))
    assert "JARMO_DATABASE=/data/" in env
    assert [i.arguments for i in of("VOLUME", dockerfile)] == ["/data"]
    assert of("WORKDIR", dockerfile)[-1].arguments == "/data"  # where config.toml is looked for
    assert exec_form(of("CMD", dockerfile)[-1].arguments) == ["jarmo-bot"]


# -- compose.yaml -----------------------------------------------------------------------------


def test_compose_builds_this_folder_and_restarts(compose: dict[str, Any]) -> None:
    [(name, bot)] = [(n, s) for n, s in compose["services"].items() if "profiles" not in s]
    assert name == "bot"
    assert bot["build"] == "."
    assert bot["restart"] in ("unless-stopped", "always")


def test_compose_keeps_data_in_a_named_volume(compose: dict[str, Any]) -> None:
    bot = compose["services"]["bot"]
    mounts = [m for m in bot["volumes"] if m.split(":")[1] == "/data"]
    [volume] = [m.split(":")[0] for m in mounts]
    assert volume in compose["volumes"]  # declared: a named volume, not a host folder


def test_compose_takes_the_token_from_the_environment_never_the_file(
    compose: dict[str, Any],
) -> None:
    token = compose["services"]["bot"]["environment"]["DISCORD_TOKEN"]
    assert re.fullmatch(r"\$\{DISCORD_TOKEN:\?[^}]+\}", token)  # a clear error when it is unset


def test_compose_healthcheck_is_the_images(
    compose: dict[str, Any], dockerfile: list[Instruction]
) -> None:
    check = compose["services"]["bot"]["healthcheck"]
    assert check["test"] == ["CMD", *HEALTH_COMMAND]
    [health] = of("HEALTHCHECK", dockerfile)
    options = dict(o[2:].split("=") for o in health.arguments.partition(" CMD ")[0].split())
    assert {k.replace("-", "_"): v for k, v in options.items()} == {
        key: str(value) for key, value in check.items() if key != "test"
    }


def test_compose_limits_the_logs(compose: dict[str, Any]) -> None:
    logging = compose["services"]["bot"]["logging"]
    assert logging["driver"] == "json-file"
    assert re.fullmatch(r"\d+[km]", logging["options"]["max-size"])
    assert int(logging["options"]["max-file"]) >= 1


def test_compose_uses_only_known_service_keys(compose: dict[str, Any]) -> None:
    known = {
        "build", "image", "restart", "environment", "env_file", "volumes", "healthcheck",
        "stop_grace_period", "logging", "command", "init", "user", "read_only", "tmpfs",
    }  # fmt: skip
    assert set(compose["services"]["bot"]) <= known
    assert set(compose) <= {"name", "services", "volumes"}
