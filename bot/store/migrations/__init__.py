"""The schema's Alembic revisions (``versions/NNNN_name.py``, revision ``"NNNN"``), run by
``bot.store._migrations`` on SQLite and PostgreSQL alike.

Each revision starts with a docstring saying why it exists. Never edit a released revision: add
a new one, numbered next. What the two databases spell differently is spelled here, once.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

# Discord ids and row ids: 8 bytes. SQLite's INTEGER already has 8, and only an INTEGER PRIMARY
# KEY is the rowid (numbered by SQLite); PostgreSQL needs BIGINT, numbered by an identity.
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
# SQLite's REAL has 8 bytes; PostgreSQL's REAL has 4, its DOUBLE PRECISION 8.
FLOAT: sa.types.TypeEngine[float] = sa.Double().with_variant(sa.REAL(), "sqlite")


def row_id(name: str = "id") -> sa.Column[int]:
    """A row id that the database numbers: SQLite's rowid, PostgreSQL's identity column.

    On SQLite it is declared without NOT NULL, as the schema before Alembic declared it (the
    rowid is never NULL anyway); PostgreSQL's identity columns are NOT NULL by definition.
    """
    sqlite = op.get_bind().dialect.name == "sqlite"
    return sa.Column(name, ID, sa.Identity(), primary_key=True, nullable=sqlite)


def where(condition: str) -> dict[str, Any]:
    """The keyword arguments that make an index partial, on both databases."""
    clause = sa.text(condition)
    return {"sqlite_where": clause, "postgresql_where": clause}
