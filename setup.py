"""Compiles the rules engine and the computer's search to C extensions with mypyc.

Everything else about the project is in pyproject.toml; this file only adds the extension
modules. The engine (``bot/jarmo``) and the search (``bot/ai/_search.py``, ``_eval.py``) are
plain, strictly typed Python that mypyc turns into C, about twice as fast; the Python
sources stay the reference and run unchanged wherever the extensions are missing.

- ``pip install .`` builds a wheel with the compiled modules; ``pip install -e .`` (editable)
  puts them next to the sources (and the library beside ``bot/``), where Python loads them
  before the ``.py`` files. Installing again compiles only what changed: mypyc still
  generates the C code (seconds), but a module whose C code is unchanged is not compiled again.
- ``JARMO_PURE_PYTHON=1`` skips compiling and removes the compiled modules an earlier build left
  there, so that the pure-Python engine runs (to test it, or where no C compiler is wanted).
- Without a working C compiler (or Python's headers), or if mypyc fails, the build warns and
  installs the pure-Python modules instead of failing.

``tests/jarmo/test_jarmo_compiled.py`` says which of the two is loaded.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# bot/jarmo/__init__.py stays interpreted: it only re-exports, and mypyc would derive a package
# __init__'s __path__ from its shared library.
COMPILED = sorted(
    path.relative_to(ROOT).as_posix()
    for path in [*ROOT.glob("bot/jarmo/*.py"), ROOT / "bot/ai/_search.py", ROOT / "bot/ai/_eval.py"]
    if path.name != "__init__.py"
)
# The C code of all of them goes into one shared library, so that calls from the search into the
# engine stay native calls. mypyc expects it above the package tree (it derives the modules'
# __file__ from its place): the top-level module jarmo_bot__mypyc, beside bot/.
GROUP = "jarmo_bot"
LIBRARY = f"{GROUP}__mypyc"
PURE_PYTHON = os.environ.get("JARMO_PURE_PYTHON", "") not in ("", "0")


def remove_compiled_modules() -> None:
    """Delete the extension modules a build put next to the sources (editable installs)."""
    stems = [Path(path).with_suffix("") for path in COMPILED] + [Path(LIBRARY)]
    for stem in stems:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            (ROOT / f"{stem}{suffix}").unlink(missing_ok=True)


def warn_pure(reason: str) -> None:
    print(f"warning: jarmo-bot installs its pure-Python engine: {reason}", file=sys.stderr)


class BuildExtOrFallBack(build_ext):
    """``build_ext`` that falls back to the pure-Python modules when compiling fails, and that
    does not compile again what an editable install already compiled."""

    def build_extension(self, ext: Extension) -> None:
        # An editable install compiles in a new temporary folder every time, so setuptools'
        # own "is it up to date" check never holds and every `pip install -e .` took minutes.
        # mypyc rewrites a C file only when its contents change, so a module beside the
        # sources that is newer than all its C code is still what compiling would give.
        built = self.built_beside_the_sources(ext)
        if built is None:
            super().build_extension(ext)
            return
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
        print(f"jarmo-bot: {ext.name} is up to date, not compiled again", file=sys.stderr)

    def built_beside_the_sources(self, ext: Extension) -> Path | None:
        """The module an earlier editable install compiled, if it is newer than the C code it
        is made of (its sources, headers and mypyc's runtime library)."""
        if not getattr(self, "editable_mode", False):
            return None
        built = ROOT / self.get_ext_filename(ext.name)
        inputs = [ROOT / name for name in (*ext.sources, *ext.depends)]
        for folder in ext.include_dirs:
            inputs += [*Path(folder).glob("*.c"), *Path(folder).glob("*.h")]
        if not built.is_file() or not all(path.is_file() for path in inputs):
            return None
        newest_input = max(path.stat().st_mtime for path in inputs)
        return built if built.stat().st_mtime >= newest_input else None

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing compiler or header shows as several error types
            warn_pure(f"compiling failed ({exc})")
            self.inplace = False
            for ext in self.extensions:  # no half-built set: a module without its library fails
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            remove_compiled_modules()


def extensions() -> list[Extension]:
    """mypyc's extension modules, or none (pure Python) when asked or when mypyc fails."""
    if PURE_PYTHON:
        remove_compiled_modules()
        return []
    try:
        from mypyc.build import mypycify

        return mypycify(COMPILED, group_name=GROUP)
    except (Exception, SystemExit) as exc:  # mypyc exits after printing the errors it found
        warn_pure(f"mypyc failed ({exc!r})")
        remove_compiled_modules()
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExtOrFallBack})
