"""Which engine runs: the modules mypyc compiled at install time (setup.py) or their Python
sources. Speed figures mean nothing if the wrong one is loaded, and an editable install's
compiled module hides later edits of its source, so these fail with what to run instead."""

import importlib
import importlib.machinery
import os
import shutil
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    path
    for path in [*ROOT.glob("bot/jarmo/*.py"), ROOT / "bot/ai/_search.py", ROOT / "bot/ai/_eval.py"]
    if path.name != "__init__.py"
)
MODULES = [
    importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    for path in SOURCES
]
PURE_PYTHON_ASKED = os.environ.get("JARMO_PURE_PYTHON", "") not in ("", "0")
REINSTALL = "run `pip install --no-deps --no-build-isolation -e .` again"


def origin(module: ModuleType) -> Path:
    """The file ``module`` was loaded from."""
    assert module.__spec__ is not None and module.__spec__.origin is not None
    return Path(module.__spec__.origin)


def is_compiled(module: ModuleType) -> bool:
    return origin(module).name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def can_compile() -> bool:
    """A C compiler and Python's headers, what setup.py needs to build the extensions."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    return shutil.which(compiler) is not None and headers.exists()


def test_every_engine_module_is_of_one_kind() -> None:
    kinds = {module.__name__: is_compiled(module) for module in MODULES}
    assert len(set(kinds.values())) == 1, f"a mix of compiled and pure modules: {REINSTALL}"


def test_the_engine_is_compiled_where_it_can_be_unless_pure_python_is_asked_for() -> None:
    if PURE_PYTHON_ASKED:
        compiled = [module.__name__ for module in MODULES if is_compiled(module)]
        assert not compiled, f"compiled: {compiled}; JARMO_PURE_PYTHON=1 {REINSTALL}"
    elif not can_compile():
        pytest.skip("no C compiler or Python headers here: the pure-Python engine runs")
    else:
        pure = [module.__name__ for module in MODULES if not is_compiled(module)]
        assert not pure, f"not compiled: {pure}; {REINSTALL} (or set JARMO_PURE_PYTHON=1)"


def test_no_compiled_module_is_older_than_its_source() -> None:
    stale = [
        module.__name__
        for path, module in zip(SOURCES, MODULES, strict=True)
        if is_compiled(module) and origin(module).stat().st_mtime < path.stat().st_mtime
    ]
    assert not stale, f"sources edited after compiling {stale}: {REINSTALL}"
