"""0015: how each player is told it is their move.

Why: correspondence play. A player chooses, once for every server, whether the board of a move
mentions them (the default, as before), a direct message tells them, or nothing does. A move
reads the choice of the player to move in its own statements, whichever process handles it,
so it is stored, one row per player who chose. ``dm_refused`` remembers that a direct message
could not be delivered (the player closed DMs): they are told once, with their next command.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID

revision = "0015"
down_revision = "0014"


def upgrade() -> None:
    op.create_table(
        "turn_pings",
        sa.Column("user_id", ID, nullable=False),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("dm_refused", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.PrimaryKeyConstraint("user_id", name="turn_pings_pkey"),
        sa.CheckConstraint("mode IN ('mention', 'dm', 'off')", name="turn_pings_mode_check"),
        sa.CheckConstraint("dm_refused IN (0, 1)", name="turn_pings_dm_refused_check"),
        sqlite_with_rowid=False,
    )
