"""Versioned schema migrations, tracked with ``PRAGMA user_version``.

Migration ``N`` lives in ``migrations/NNNN_name.sql`` and takes the schema from version ``N - 1``
to ``N``. Each one runs in its own transaction together with the ``user_version`` bump, so a
crash leaves the database at a whole version.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot.store.errors import SchemaTooNew

_FILE_NAME = re.compile(r"^(\d{4})_\w+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: ``version`` is the schema version it produces."""

    version: int
    name: str
    sql: str


@cache
def migrations() -> tuple[Migration, ...]:
    """All migrations in order; raises ``RuntimeError`` if the numbering has a gap."""
    found = []
    for entry in resources.files("bot.store.migrations").iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
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
