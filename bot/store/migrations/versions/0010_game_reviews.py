"""0010: stored reviews of finished games.

Why: a review searches every position of a game (seconds of the search pool's time); it is kept
once made, so asking again costs nothing. The first review stored for a game stays: two
processes that reviewed the same game at once both read back that one. ``body`` is the review as
JSON (its own format number inside); the game it reviews never changes again.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), primary_key=True, nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
    )
