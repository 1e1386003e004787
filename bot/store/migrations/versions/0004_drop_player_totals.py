"""0004: ``players`` keeps only the name to show.

Why: since 0003 every statistic and rating is read from ``ratings``, ``rating_history`` and the
games themselves; the per-player totals of 0001 (and its unused Glicko-2 columns) were still
written at every game end but never read. None of them is part of an index or constraint, so
they can simply be dropped (SQLite 3.35 drops a column in place).
"""

from alembic import op

revision = "0004"
down_revision = "0003"

DROPPED = (
    "rating",
    "rating_deviation",
    "volatility",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "match_wins",
)


def upgrade() -> None:
    for column in DROPPED:
        op.drop_column("players", column)
