"""0016: the vacation ledger.

Why: a player may go away for some days a year, during which their clocks stop in every server.
Each vacation is a row: who, from when, when their days run out (``ends_at``, where it ends by
itself), and when it ended (NULL while they are away). The days a player has used in a year are
worked out from these rows, so nothing else is kept. A partial unique index lets a player be
away once at a time, whichever process starts it, and finds who is away now.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID, row_id, where

revision = "0016"
down_revision = "0015"


def upgrade() -> None:
    op.create_table(
        "vacations",
        row_id(),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("ends_at", sa.Text, nullable=False),
        sa.Column("ended_at", sa.Text),
        sa.CheckConstraint("ends_at > started_at", name="vacations_check"),
    )
    op.create_index(
        "vacations_one_open_per_player",
        "vacations",
        ["user_id"],
        unique=True,
        **where("ended_at IS NULL"),
    )
    op.create_index("vacations_by_player", "vacations", ["user_id", "started_at"])
