"""Versioned schema migrations; on SQLite tracked with ``PRAGMA user_version``.

Migration ``N`` lives in ``migrations/NNNN_name.sql`` and takes the schema from version ``N - 1``
to ``N``. Each one runs in its own transaction together with the version bump, so a crash leaves
the database at a whole version. Both backends run the same numbered steps: a file written in
SQL both understand serves both, and where the dialects differ, PostgreSQL's own file of the same
number and name in ``migrations/postgresql/`` replaces it there (``postgres`` runs them).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Literal

from bot.store.errors import SchemaTooNew

_FILE_NAME = re.compile(r"^(\d{4})_\w+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: ``version`` is the schema version it produces."""

    version: int
    name: str
    sql: str


Backend = Literal["sqlite", "postgresql"]


@cache
def migrations(backend: Backend = "sqlite") -> tuple[Migration, ...]:
    """The backend's migrations in order; raises ``RuntimeError`` if the numbering has a gap,
    or a PostgreSQL file has no shared file of the same name to replace."""
    folder = resources.files("bot.store.migrations")
    shared = _read(folder)
    found = dict(shared)
    if backend == "postgresql":
        for version, own in _read(folder / "postgresql").items():
            if version not in shared or shared[version].name != own.name:
                raise RuntimeError(f"postgresql/{own.name} replaces no migration of that name")
            found[version] = own
    return _in_order(list(found.values()))


def _read(folder: Traversable) -> dict[int, Migration]:
    found = {}
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            step = Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8"))
            found[step.version] = step
    return found


def _in_order(found: list[Migration]) -> tuple[Migration, ...]:
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1, 2, 3...: {[m.name for m in found]}")
    return tuple(found)


def latest_version() -> int:
    """The schema version this code writes."""
    return len(migrations())


def schema_version(db: sqlite3.Connection) -> int:
    """The database's current ``user_version`` (0 for a new file)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, *, target: int | None = None) -> int:
    """Bring the schema up to ``target`` (default: the latest) and return the version reached.

    ``db`` must be in autocommit mode (``isolation_level=None``). Raises ``SchemaTooNew`` if the
    file was written by newer code.
    """
    target = latest_version() if target is None else target
    current = schema_version(db)
    if current > latest_version():
        raise SchemaTooNew(current, latest_version())
    for step in migrations()[current:target]:
        _apply(db, step)
    return max(current, target)


def _apply(db: sqlite3.Connection, step: Migration) -> None:
    # PRAGMA cannot take parameters; the version is an int from our own file names.
    # A migration that must rebuild a table with foreign keys off has to switch them off before
    # this BEGIN: `PRAGMA foreign_keys` is a no-op inside a transaction.
    script = f"BEGIN IMMEDIATE;\n{step.sql}\nPRAGMA user_version = {step.version:d};\nCOMMIT;"
    try:
        db.executescript(script)
    except BaseException:
        db.rollback()
        raise
