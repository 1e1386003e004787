"""Each layer of ``bot`` imports only the layers beneath it.

From the bottom: ``bot.jarmo`` (the rules) imports nothing of ours; ``bot.ai`` (the computer's
search) and ``bot.render`` (images) sit on the rules alone; ``bot.store`` (the database) on the
rules and its driver; ``bot.service`` (the use cases) on all of these but never on Discord or a
front end; the front ends ``bot.cogs`` (Discord) and ``bot.console`` (the terminal) on the
service. The composition roots (``bot.client``, ``bot.__main__``) wire them together.

Every import counts: at the top of a module, inside a function (a lazy import is a dependency
all the same) and under ``TYPE_CHECKING``. The lower layers list what they may import, so a
dependency cannot slip in through a module in between; the upper ones list what they may not.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"

# Standard-library modules that reach files, processes, the network or the clock: the rules
# engine is a pure function of the moves played.
IO_MODULES = frozenset(
    {
        "asyncio",
        "concurrent",
        "ctypes",
        "datetime",
        "glob",
        "http",
        "importlib",
        "io",
        "logging",
        "mmap",
        "multiprocessing",
        "os",
        "pathlib",
        "select",
        "selectors",
        "shutil",
        "signal",
        "socket",
        "sqlite3",
        "ssl",
        "subprocess",
        "sys",
        "tempfile",
        "threading",
        "time",
        "urllib",
    }
)
DISCORD = frozenset({"discord", "aiohttp", "yarl"})  # discord.py and the HTTP stack under it
FRONT_ENDS = frozenset({"bot.cogs", "bot.console", "bot.client", "bot.__main__"})


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement's target, as an absolute module name, and where it stands."""

    where: str  # the importing file, relative to the repository
    line: int
    name: str

    @property
    def top(self) -> str:
        return self.name.split(".")[0]

    @property
    def layer(self) -> str:
        """``bot.<package or module>`` for one of ours, else the distribution's top name."""
        return ".".join(self.name.split(".")[:2]) if self.top == "bot" else self.top

    def __str__(self) -> str:
        return f"{self.where}:{self.line} imports {self.name}"


def _is_module(root: Path, name: str) -> bool:
    path = root.joinpath(*name.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def imports_in(path: Path, root: Path = ROOT) -> Iterator[Import]:
    """Every module ``path`` (under ``root``) imports, anywhere in it, relative imports made
    absolute."""
    where = path.relative_to(root)
    parts = where.with_suffix("").parts
    module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(str(where), node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = dict.fromkeys(_target(root, base, alias.name) for alias in node.names)
            for target in targets:
                yield Import(str(where), node.lineno, target)


def _target(root: Path, base: str, name: str) -> str:
    """The module ``from base import name`` loads: ``from bot import store`` loads bot.store,
    ``from bot.store import open_store`` loads bot.store."""
    submodule = f"{base}.{name}"
    return submodule if base.split(".")[0] == "bot" and _is_module(root, submodule) else base


def imports_of(layer: str) -> list[Import]:
    """The imports of every module in ``layer``: a package (``bot/render``) or one file."""
    where = ROOT / layer
    paths = sorted(where.rglob("*.py")) if where.is_dir() else [where]
    assert paths, f"{layer} holds no Python module"
    return [found for path in paths for found in imports_in(path)]


def _third_party(found: Import) -> bool:
    return found.top != "bot" and found.top not in sys.stdlib_module_names


@dataclass(frozen=True, slots=True)
class Rule:
    """What one layer may import: ``ours`` (if set) lists every ``bot.*`` package it may use and
    ``packages`` every third-party one; ``not_ours`` and ``not_packages`` forbid some."""

    ours: frozenset[str] | None = None
    not_ours: frozenset[str] = frozenset()
    packages: frozenset[str] | None = None
    not_packages: frozenset[str] = frozenset()
    not_stdlib: frozenset[str] = frozenset()

    def broken_by(self, found: Import) -> str | None:
        """Why ``found`` is not allowed here, or ``None`` if it is."""
        if found.top == "bot":
            if self.ours is not None and found.layer not in self.ours:
                return f"from bot it may import only {sorted(self.ours)}"
            if found.layer in self.not_ours:
                return f"it may not import {found.layer}"
        elif _third_party(found):
            if self.packages is not None and found.top not in self.packages:
                return f"its only third-party imports may be {sorted(self.packages)}"
            if found.top in self.not_packages:
                return f"it may not import {found.top}"
        elif found.top in self.not_stdlib:
            return f"it may not do I/O ({found.top})"
        return None


RULES: dict[str, Rule] = {
    "bot/jarmo": Rule(ours=frozenset({"bot.jarmo"}), packages=frozenset(), not_stdlib=IO_MODULES),
    "bot/ai": Rule(ours=frozenset({"bot.jarmo", "bot.ai"}), packages=frozenset()),
    "bot/render": Rule(ours=frozenset({"bot.jarmo", "bot.render"}), packages=frozenset({"PIL"})),
    "bot/store": Rule(
        ours=frozenset({"bot.jarmo", "bot.store"}),
        packages=frozenset({"aiosqlite", "alembic", "asyncpg", "sqlalchemy"}),
    ),
    "bot/service": Rule(not_ours=FRONT_ENDS | {"bot.words", "bot.i18n"}, not_packages=DISCORD),
    # The wording both front ends share: values from the service, words from its catalogue.
    "bot/words": Rule(
        ours=frozenset(
            {"bot.jarmo", "bot.store", "bot.service", "bot.words", "bot.i18n", "bot.render"}
        ),
        packages=frozenset(),
    ),
    "bot/i18n.py": Rule(ours=frozenset(), packages=frozenset({"babel"})),
    # The extractor reads the slash commands' texts from the command tree the cogs build.
    "bot/_i18n_extract.py": Rule(ours=frozenset({"bot.cogs"}), packages=frozenset({"babel"})),
    "bot/console": Rule(not_ours=frozenset({"bot.cogs", "bot.client"}), not_packages=DISCORD),
    "bot/cogs": Rule(not_ours=frozenset({"bot.store", "bot.ai", "bot.console", "bot.__main__"})),
    # The live board's web side: signed links so far (the cogs make them).
    "bot/web": Rule(not_ours=FRONT_ENDS, not_packages=frozenset({"discord"})),
    # The settings and the offline tools run without Discord (the health check beside the bot).
    "bot/config.py": Rule(not_ours=FRONT_ENDS, not_packages=DISCORD),
    "bot/health.py": Rule(ours=frozenset({"bot.config", "bot.exit_status"}), packages=frozenset()),
    "bot/exit_status.py": Rule(ours=frozenset(), packages=frozenset()),
    "bot/_doctor_cli.py": Rule(not_ours=FRONT_ENDS, not_packages=DISCORD),
    "bot/_ratings_cli.py": Rule(not_ours=FRONT_ENDS, not_packages=DISCORD),
    "bot/_migrate_cli.py": Rule(not_ours=FRONT_ENDS, not_packages=DISCORD),
    # Speaks the console's way, so it may use the console's wording.
    "bot/_games_cli.py": Rule(not_ours=frozenset({"bot.cogs", "bot.client"}), not_packages=DISCORD),
}
# They wire the layers together, so they may import any of them.
COMPOSITION_ROOTS = ("bot/__init__.py", "bot/__main__.py", "bot/client.py")


@pytest.mark.parametrize("layer", list(RULES))
def test_layer_imports_only_what_sits_beneath_it(layer: str) -> None:
    rule = RULES[layer]
    broken = [f"{found}: {why}" for found in imports_of(layer) if (why := rule.broken_by(found))]
    assert broken == [], f"{layer} crosses a layer boundary:\n" + "\n".join(broken)


def test_every_module_of_bot_is_in_a_layer() -> None:
    covered = set(RULES) | set(COMPOSITION_ROOTS)
    top_level = {
        str(path.relative_to(ROOT))
        for path in BOT.iterdir()
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert sorted(top_level - covered) == [], "give each new package or module a rule in RULES"


def test_lazy_relative_and_type_checking_imports_are_seen(tmp_path: Path) -> None:
    """The parser finds what a top-level scan would miss, so the rules above can fail."""
    (tmp_path / "bot" / "store").mkdir(parents=True)
    (tmp_path / "bot" / "store" / "__init__.py").write_text("")
    (tmp_path / "bot" / "render").mkdir()
    (tmp_path / "bot" / "render" / "_theme.py").write_text("")
    sample = tmp_path / "bot" / "render" / "_sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import _theme\n"
        "if TYPE_CHECKING:\n"
        "    from ..store import open_store\n"
        "def draw():\n"
        "    import discord.ui\n"
    )
    found = sorted(imports_in(sample, tmp_path), key=lambda f: f.line)
    assert [(f.line, f.name) for f in found] == [
        (1, "typing"),
        (2, "bot.render._theme"),
        (4, "bot.store"),
        (6, "discord.ui"),
    ]
    broken = [str(f) for f in found if RULES["bot/render"].broken_by(f)]
    assert broken == [
        "bot/render/_sample.py:4 imports bot.store",
        "bot/render/_sample.py:6 imports discord.ui",
    ]


def cog_import_graph() -> dict[str, set[str]]:
    """Which modules of ``bot.cogs`` each module of it imports, anywhere in it."""
    graph: dict[str, set[str]] = {}
    for path in sorted((BOT / "cogs").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        graph[module] = {
            found.name
            for found in imports_in(path, ROOT)
            if found.name == "bot.cogs" or found.name.startswith("bot.cogs.")
        }
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in import order, the first again at the end), or
    ``None`` if it has none."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            found = visit(imported, [*path, module])
            if found is not None:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found is not None:
            return found
    return None


def test_the_cogs_import_one_another_without_a_cycle() -> None:
    assert cycle_in(cog_import_graph()) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_in(graph) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) is None


def lazy_imports_in(path: Path) -> Iterator[tuple[int, str]]:
    """The ``bot.*`` modules ``path`` imports inside a function body, and where."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("bot"):
                    yield inner.lineno, inner.module or ""
                elif isinstance(inner, ast.Import):
                    yield from ((inner.lineno, a.name) for a in inner.names if a.name[:3] == "bot")


def test_nothing_imports_from_the_cogs_inside_a_function() -> None:
    lazy = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted(BOT.rglob("*.py"))
        for line, name in lazy_imports_in(path)
        if name == "bot.cogs" or name.startswith("bot.cogs.")
    ]
    # The catalogue extractor reads the commands only when asked to (it runs without Discord).
    assert lazy == ["bot/_i18n_extract.py:75 imports bot.cogs.translator"]
