"""0002: correspondence time controls.

Why: correspondence play. A match may give each move a time limit; the running game keeps the
deadline of the player to move and how many reminders were sent, so a scheduler can resume after
a restart and apply each reminder and timeout exactly once. A paused game keeps the time that
was left instead of a deadline (at most one of the two is set). The pause lives on the game
rather than the match so that every clock change is a single-row write, guarded like a move by
the game's version."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import FLOAT, where

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    for table in ("challenges", "matches"):
        op.add_column(table, _time_per_move())
    op.add_column("games", sa.Column("deadline_at", sa.Text))
    op.add_column(
        "games",
        sa.Column(
            "reminders_sent",
            sa.Integer,
            sa.CheckConstraint("reminders_sent >= 0"),
            nullable=False,
            server_default=sa.text("0"),
        ),
    )
    op.add_column(
        "games",
        sa.Column(
            "time_left_seconds",
            FLOAT,
            sa.CheckConstraint(
                "time_left_seconds IS NULL OR (time_left_seconds >= 0 AND deadline_at IS NULL)"
            ),
        ),
    )
    op.add_column("games", sa.Column("paused_at", sa.Text))
    op.create_index(
        "games_active_by_deadline",
        "games",
        ["deadline_at"],
        **where("status = 'active' AND deadline_at IS NOT NULL"),
    )


def _time_per_move() -> sa.Column[int]:
    return sa.Column(
        "time_per_move_seconds",
        sa.Integer,
        sa.CheckConstraint("time_per_move_seconds IS NULL OR time_per_move_seconds > 0"),
    )
