"""0018: actions taken back by agreement.

Why: a takeback removes a game's last actions (the position is rebuilt from the rest), but its
history still tells that they were played and taken back. ``version`` is the game's version
after the takeback, so a ply taken back twice is kept twice.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID

revision = "0018"
down_revision = "0017"


def upgrade() -> None:
    op.create_table(
        "taken_back",
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("move", sa.Text, nullable=False),
        sa.Column("played_at", sa.Text, nullable=False),
        sa.Column("taken_back_at", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version", "ply"),
    )
