"""0014: an announcement goes to a channel or to a user, and its kinds are checked in code.

Why: correspondence play. A player may ask for the ping of their turn as a direct message,
so an outbox entry is addressed either to a channel (``channel_id``) or to a user
(``user_id``): exactly one of the two. The check that listed every kind goes: each new kind
of announcement needed a migration; the store checks a kind where it writes it, against the
posts it knows (``bot.store.outbox``).

SQLite cannot change a column's constraints in place, so batch mode rebuilds the table there
(nothing refers to it) from the definition 0005 and 0008 gave it, and gathers the planner's
statistics for it again where the file keeps them (they went with the old table); PostgreSQL
alters it in place.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID, row_id, where

revision = "0014"
down_revision = "0013"

KIND_CHECK = "outbox_kind_check"
KINDS = "'reminder', 'timeout', 'computer_move', 'round_paired', 'match_welcome', 'final_table'"


def upgrade() -> None:
    with op.batch_alter_table("outbox", copy_from=_outbox_of_0008()) as outbox:
        outbox.drop_constraint(KIND_CHECK, type_="check")
        outbox.alter_column("channel_id", existing_type=ID, nullable=True)
        outbox.add_column(sa.Column("user_id", ID))  # a direct message's
        outbox.create_check_constraint("outbox_check", "(channel_id IS NULL) <> (user_id IS NULL)")
    if _keeps_sqlite_statistics():
        op.execute("ANALYZE outbox")


def _keeps_sqlite_statistics() -> bool:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return False
    found = bind.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
    return found.first() is not None


def _outbox_of_0008() -> sa.Table:
    return sa.Table(
        "outbox",
        sa.MetaData(),
        row_id(),
        sa.Column("key", sa.Text, nullable=False, unique=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("game_id", ID, sa.ForeignKey("games.id")),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="pending"),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("lease_until", sa.Text),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("last_error", sa.Text),
        sa.Column("settled_at", sa.Text),
        sa.Column("lease_token", sa.Text),
        sa.CheckConstraint(f"kind IN ({KINDS})", name=KIND_CHECK),
        sa.CheckConstraint("status IN ('pending', 'sent', 'dropped')"),
        sa.CheckConstraint("attempts >= 0"),
        sa.Index("outbox_pending", "lease_until", "id", **where("status = 'pending'")),
    )
