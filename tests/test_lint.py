"""The code base stays ruff-clean and strictly typed, with hardly a `type: ignore`."""

import io
import pathlib
import re
import shutil
import subprocess
import sys
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

# What `mypy --strict` checks (pyproject.toml's `[tool.mypy]` names the same packages), and how
# many `type: ignore`s each may keep: in the tests, mostly calls that pass a wrong value on
# purpose to check that it is refused.
STRICT = ("bot", "tests")
MAX_TYPE_IGNORES = {"bot": 3, "tests": 25}
TYPE_IGNORE = re.compile(r"#\s*type:\s*ignore\b")


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(pathlib.Path(sys.executable).with_name("ruff"))
    if not pathlib.Path(ruff).exists():
        pytest.skip("ruff is not installed")
    result = subprocess.run(
        [ruff, "check", "bot", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    # mypy is in the test lock, so this never skips.
    # No paths: pyproject.toml's packages, exclusions and overrides apply as they do to a
    # developer's plain `mypy`.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout


def _type_ignores(path: pathlib.Path) -> list[tuple[int, str]]:
    """``(line, comment)`` of every comment in ``path`` that starts with ``type: ignore``."""
    comments = [
        token
        for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
        if token.type == tokenize.COMMENT
    ]
    return [(token.start[0], token.string) for token in comments if TYPE_IGNORE.match(token.string)]


def _is_justified(comment: str) -> bool:
    """``# type: ignore[code]  # why``: a code, then a reason in a comment of its own."""
    ignore, _, why = comment.partition("]")
    return "[" in ignore and why.strip().startswith("#") and len(why.strip("# ")) > 0


def _python_files(where: str) -> list[pathlib.Path]:
    path = ROOT / where
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_type_ignores_are_few_and_each_says_why() -> None:
    for where in STRICT:
        found = [
            (f"{path.relative_to(ROOT)}:{line}", comment)
            for path in _python_files(where)
            for line, comment in _type_ignores(path)
        ]
        unjustified = [f"{at}: {comment}" for at, comment in found if not _is_justified(comment)]
        assert unjustified == [], "write `# type: ignore[code]  # why` on the line"
        listed = "\n".join(f"{at}: {comment}" for at, comment in found)
        assert len(found) <= MAX_TYPE_IGNORES[where], listed


@pytest.mark.parametrize(
    ("comment", "justified"),
    [
        ("# type: ignore[assignment]  # a dataclass field set in __post_init__", True),
        ("# type: ignore[assignment]", False),
        ("# type: ignore  # no code", False),
        ("# type: ignore[assignment] #", False),
    ],
)
def test_a_type_ignore_needs_a_code_and_a_reason(comment: str, justified: bool) -> None:
    assert _is_justified(comment) is justified
