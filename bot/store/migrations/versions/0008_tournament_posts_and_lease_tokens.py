"""0008: tournament posts go through the outbox, and a lease names the claim that holds it.

Why: a tournament survives a restart mid-round, and each job runs once across
processes. A round's post, each match's welcome in its thread and the final table used to be
posted after their transaction; a bot that stopped in between never posted them. They are now
outbox entries written with the round change, so ``kind`` takes three more values and
``game_id`` may be NULL (a round or a table is about a tournament, not a game).
``lease_token`` names the claim (or 'writer': the writer's own hold) that holds an entry: a
deliverer whose lease ran out and was claimed by another may no longer settle it; a lease held
when the bot upgrades counts as the writer's hold (it runs out as before).

SQLite cannot change a column's constraints in place, so batch mode rebuilds the table there
(nothing refers to it) from the definition 0005 gave it; PostgreSQL alters it in place.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID, row_id, where

revision = "0008"
down_revision = "0007"

KIND_CHECK = "outbox_kind_check"  # the name PostgreSQL gave the unnamed check of 0005
KINDS = "'reminder', 'timeout', 'computer_move'"
TOURNAMENT_KINDS = "'round_paired', 'match_welcome', 'final_table'"


def upgrade() -> None:
    with op.batch_alter_table("outbox", copy_from=_outbox_of_0005()) as outbox:
        outbox.drop_constraint(KIND_CHECK, type_="check")
        outbox.create_check_constraint(KIND_CHECK, f"kind IN ({KINDS}, {TOURNAMENT_KINDS})")
        outbox.alter_column("game_id", existing_type=ID, nullable=True)  # NULL: a tournament's
        # who holds the lease: a claim's random token, or 'writer'
        outbox.add_column(sa.Column("lease_token", sa.Text))
    table = sa.table("outbox", sa.column("lease_until"), sa.column("lease_token"))
    op.execute(table.update().where(table.c.lease_until.is_not(None)).values(lease_token="writer"))


def _outbox_of_0005() -> sa.Table:
    return sa.Table(
        "outbox",
        sa.MetaData(),
        row_id(),
        sa.Column("key", sa.Text, nullable=False, unique=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="pending"),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("lease_until", sa.Text),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("last_error", sa.Text),
        sa.Column("settled_at", sa.Text),
        sa.CheckConstraint(f"kind IN ({KINDS})", name=KIND_CHECK),
        sa.CheckConstraint("status IN ('pending', 'sent', 'dropped')"),
        sa.CheckConstraint("attempts >= 0"),
        sa.Index("outbox_pending", "lease_until", "id", **where("status = 'pending'")),
    )
