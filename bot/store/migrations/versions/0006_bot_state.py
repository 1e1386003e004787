"""0006: a small key-value table for the bot's own bookkeeping.

Why: the first hour of a new bot. ``jarmo-bot run`` publishes its slash commands by itself when
they differ from what it last published; it keeps a hash of that payload here, so that a
restart with the same commands publishes nothing.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "bot_state",
        sa.Column("key", sa.Text, primary_key=True, nullable=True),
        sa.Column("value", sa.Text, nullable=False),
        sqlite_with_rowid=False,
    )
