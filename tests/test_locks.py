"""The lock files agree with pyproject.toml and with each other, every package in them is
checked by hash, and CI runs exactly the test command the README gives."""

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
def test_the_build_requirements_are_locked_for_the_image(requirement: str) -> None:
    _check_pinned(requirement, RUNTIME)


def test_ci_tests_the_versions_the_image_ships() -> None:
    shared = RUNTIME.keys() & TEST.keys()
    assert shared >= {
        canonicalize_name(Requirement(r).name) for r in PROJECT["project"]["dependencies"]
    }
    assert {name: RUNTIME[name][0] for name in shared} == {name: TEST[name][0] for name in shared}


def _readme_test_command() -> str:
    quick_start = (
        (ROOT / "README.md").read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    )
    [line] = [line for line in quick_start.splitlines() if "python -m pytest" in line]
    return line.split("#", 1)[0].strip()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line for line in ci if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == _readme_test_command()
    assert "requirements/test.lock" in commands[-1]
