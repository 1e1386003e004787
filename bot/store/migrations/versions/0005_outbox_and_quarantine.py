"""0005: an outbox of announcements, and a quarantine for damaged games.

Why: nothing may be left unannounced. A timeout, a reminder or the computer's move used to be
posted after its transaction committed: a bot that died in between never announced it. Now the
announcement is written in the same transaction as the change, and a delivery loop posts it and
marks it sent, resuming after a restart. ``lease_until`` keeps an entry with one deliverer at a
time (NULL: anyone may take it now). A game whose stored record cannot be loaded is "damaged";
aborting it copies the row and its actions, exactly as they were, to ``quarantined_games`` for
the operator, then resets the game to an empty aborted one so the channel and the match's
standings work again."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID, row_id, where

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "outbox",
        row_id(),
        # what happened, e.g. 'timeout:12': written once
        sa.Column("key", sa.Text, nullable=False, unique=True),
        sa.Column(
            "kind",
            sa.Text,
            sa.CheckConstraint("kind IN ('reminder', 'timeout', 'computer_move')"),
            nullable=False,
        ),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), nullable=False),
        # JSON: what the front end needs to rebuild the message
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint("status IN ('pending', 'sent', 'dropped')"),
            nullable=False,
            server_default="pending",
        ),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("lease_until", sa.Text),
        sa.Column(
            "attempts",
            sa.Integer,
            sa.CheckConstraint("attempts >= 0"),
            nullable=False,
            server_default=sa.text("0"),
        ),
        sa.Column("last_error", sa.Text),
        sa.Column("settled_at", sa.Text),
    )
    op.create_index(
        "outbox_pending", "outbox", ["lease_until", "id"], **where("status = 'pending'")
    )
    op.create_table(
        "quarantined_games",
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), primary_key=True, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("game_row", sa.Text, nullable=False),  # JSON object: the games row as it was
        sa.Column("actions", sa.Text, nullable=False),  # JSON array: its action rows as they were
        sa.Column("quarantined_at", sa.Text, nullable=False),
    )
